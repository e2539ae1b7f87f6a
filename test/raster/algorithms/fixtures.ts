/** Loads test/fixtures/algorithms/cases.json (written by scripts/fixtures/algorithms_oracle.py) and builds images. */
import { readFileSync } from 'node:fs';
import type { Bounds } from '../../../src/geo/bounds.ts';
import type { Crs } from '../../../src/geo/crs.ts';
import { allocate, dtypeCtor, type DType, type TypedArray } from '../../../src/dtype.ts';
import type { ImageData } from '../../../src/raster/image-data.ts';

export interface EncodedImage {
  width: number;
  height: number;
  /** numpy dtype name: one of ours, or int64/uint64 for sums of integers. */
  dtype: string;
  bounds: Array<number | string>;
  bandDescriptions: string[];
  bands: string[];
  masks: string[];
}

export interface OracleCase {
  algorithm: string;
  input: string;
  params: Record<string, unknown>;
  expected?: EncodedImage;
  error?: string;
}

export interface OracleDoc {
  numpy: string;
  inputs: Record<string, EncodedImage>;
  cases: OracleCase[];
}

export const TEST_CRS: Crs = {
  id: 'EPSG:4326',
  proj4: '+proj=longlat +datum=WGS84 +no_defs',
  epsg: 4326,
  isGeographic: true,
  wkt: null,
};

let doc: OracleDoc | null = null;

export function oracle(): OracleDoc {
  doc ??= JSON.parse(readFileSync(new URL('../../fixtures/algorithms/cases.json', import.meta.url), 'utf8')) as OracleDoc;
  return doc;
}

const num = (v: number | string): number => (typeof v === 'number' ? v : v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : -Infinity);

export function decodeArray(b64: string, dtype: DType): TypedArray {
  const buf = Buffer.from(b64, 'base64');
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  const Ctor = dtypeCtor(dtype);
  return new Ctor(copy.buffer, 0, copy.byteLength / Ctor.BYTES_PER_ELEMENT);
}

export function decodeImage(e: EncodedImage): ImageData {
  const dtype = e.dtype as DType;
  const bands = e.bands.map((b) => decodeArray(b, dtype));
  return {
    width: e.width,
    height: e.height,
    dtype,
    bands,
    masks: e.masks.map((m) => decodeArray(m, 'uint8') as Uint8Array),
    bounds: e.bounds.map(num) as Bounds,
    crs: TEST_CRS,
    bandNames: bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: [...e.bandDescriptions],
    nodata: null,
    scales: bands.map(() => 1),
    offsets: bands.map(() => 0),
  };
}

/** A synthetic image: `fill(band, index)` gives each sample; masks all valid unless `masked(band, index)`. */
export function makeImage(
  dtype: DType,
  count: number,
  width: number,
  height: number,
  fill: (band: number, i: number) => number,
  masked: (band: number, i: number) => boolean = () => false,
): ImageData {
  const n = width * height;
  const bands: TypedArray[] = [];
  const masks: Uint8Array[] = [];
  for (let b = 0; b < count; b++) {
    const arr = allocate(dtype, n);
    const m = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      arr[i] = fill(b, i);
      m[i] = masked(b, i) ? 0 : 255;
    }
    bands.push(arr);
    masks.push(m);
  }
  return {
    width,
    height,
    dtype,
    bands,
    masks,
    bounds: [0, 0, width, height],
    crs: TEST_CRS,
    bandNames: bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: bands.map((_, i) => `b${i + 1}`),
    nodata: null,
    scales: bands.map(() => 1),
    offsets: bands.map(() => 0),
  };
}

/** Seeded pseudo-random integers in [lo, hi) (mulberry32). */
export function seededInts(seed: number, lo: number, hi: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return lo + Math.floor(r * (hi - lo));
  };
}
