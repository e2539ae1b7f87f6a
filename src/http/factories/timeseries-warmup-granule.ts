/**
 * The built-in granule a time-series worker thread warms up on (timeseries-worker.ts) before its
 * first real task: a 512×512 uint16 GeoTIFF made here in memory — 256² tiles, DEFLATE with the
 * horizontal predictor, nodata 0, EPSG:32633 at 30 m, as Landsat/HLS-style granules are — read
 * through the same code as a granule from a data host (TIFF open, inflate, predictor, block
 * cache, warp to the request's CRS, mosaic), so that the hot loops are compiled and the thread's
 * buffer pool is filled before a series arrives. Nothing of it reaches the app's caches: its own
 * source opener and block cache, dropped after the warm-up.
 */
import { deflateSync } from 'node:zlib';
import type { Bounds } from '../../geo/bounds.ts';
import { createBlockCache } from '../../formats/tiff/block-cache.ts';
import { openTiffGrid } from '../../formats/tiff/tiff-grid.ts';
import { TiffType, tiffHeaderSize, writeTiffHeader, type TiffEntry } from '../../raster/render/tiff-ifd.ts';
import { GridReader } from '../../readers/grid/grid-reader.ts';
import type { AssetOpener } from '../../readers/stac/stac-reader.ts';
import type { Granule } from '../../search/types.ts';
import type { Source } from '../../sources/source.ts';
import { Errors } from '../../errors.ts';
import type { Feature } from '../geojson-body.ts';

const SIZE = 512;
const TILE = 256;
const RES = 30;
/** UTM 33N: x 500 000 is 15°E; the raster covers about 15.00–15.20°E, 45.015–45.153°N. */
const X0 = 500_000;
const Y0 = 5_000_000;
const HREF = 'https://warmup.invalid/RASTILE.WARMUP.B04.tif';

/** The value at column `gx`, row `gy`: a smooth field of 2000–6000 with a nodata (0) corner. */
export const warmupValue = (gx: number, gy: number): number => (gx + gy < 40 ? 0 : 2000 + Math.round(2000 * (1 + Math.sin(gx / 37) * Math.cos(gy / 53))));

/** One tile: uint16 little-endian, predictor 2 applied, deflated. */
function tileBytes(tx: number, ty: number): Buffer {
  const row = new Uint16Array(TILE);
  const out = new Uint16Array(TILE * TILE);
  for (let y = 0; y < TILE; y++) {
    const gy = ty * TILE + y;
    for (let x = 0; x < TILE; x++) row[x] = warmupValue(tx * TILE + x, gy);
    // horizontal differencing (TIFF predictor 2), modulo 2^16
    out[y * TILE] = row[0]!;
    for (let x = 1; x < TILE; x++) out[y * TILE + x] = (row[x]! - row[x - 1]!) & 0xffff;
  }
  return deflateSync(Buffer.from(out.buffer), { level: 6 });
}

/** The GeoTIFF's bytes. */
export function warmupGeoTiff(): Uint8Array {
  const tiles: Buffer[] = [];
  for (let ty = 0; ty < SIZE / TILE; ty++) for (let tx = 0; tx < SIZE / TILE; tx++) tiles.push(tileBytes(tx, ty));
  const entries: TiffEntry[] = [
    { tag: 256, type: TiffType.LONG, values: [SIZE] },
    { tag: 257, type: TiffType.LONG, values: [SIZE] },
    { tag: 258, type: TiffType.SHORT, values: [16] },
    { tag: 259, type: TiffType.SHORT, values: [8] }, // Adobe deflate
    { tag: 262, type: TiffType.SHORT, values: [1] }, // MinIsBlack
    { tag: 277, type: TiffType.SHORT, values: [1] },
    { tag: 284, type: TiffType.SHORT, values: [1] },
    { tag: 317, type: TiffType.SHORT, values: [2] }, // horizontal predictor
    { tag: 322, type: TiffType.SHORT, values: [TILE] },
    { tag: 323, type: TiffType.SHORT, values: [TILE] },
    { tag: 324, type: TiffType.LONG, values: new Array(tiles.length).fill(0) }, // patched below
    { tag: 325, type: TiffType.LONG, values: tiles.map((t) => t.length) },
    { tag: 339, type: TiffType.SHORT, values: [1] },
    { tag: 33550, type: TiffType.DOUBLE, values: [RES, RES, 0] },
    { tag: 33922, type: TiffType.DOUBLE, values: [0, 0, 0, X0, Y0, 0] },
    // projected, PixelIsArea, ProjectedCSType 32633
    { tag: 34735, type: TiffType.SHORT, values: [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 32633] },
    { tag: 42113, type: TiffType.ASCII, values: '0' },
  ];
  let offset = tiffHeaderSize(entries);
  const offsets = tiles.map((t) => {
    const at = offset;
    offset += t.length;
    return at;
  });
  entries[10] = { tag: 324, type: TiffType.LONG, values: offsets };
  return new Uint8Array(Buffer.concat([writeTiffHeader(entries), ...tiles]));
}

/** The bytes as a Source (in memory: no version, never changes). */
function memorySource(bytes: Uint8Array): Source {
  return {
    url: HREF,
    size: bytes.length,
    fetch: (offset, length) => Promise.resolve(bytes.slice(offset, Math.min(bytes.length, offset + length))),
  };
}

const polygon = ([w, s, e, n]: Bounds) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

export interface WarmupGranule {
  granule: Granule;
  /** Opens the granule's one asset from memory (any other href is an error). */
  openAsset: AssetOpener;
  searchBounds: Bounds;
  /** A feature and a bbox inside the granule (EPSG:4326). */
  feature: Feature;
  bbox: Bounds;
  /** The granule's collection and a day it covers: the warm-up tasks' query. */
  collection: string;
  temporal: string;
}

/**
 * The granule, its opener (own source and block cache) and where to read it; with `href`, the
 * granule's asset is that URL instead (the same bytes served over loopback HTTP: see
 * timeseries-worker.ts), which `openAsset` does not open.
 */
export async function warmupGranule(maxBlockBytes: number, maxReadPixels: number, href: string = HREF): Promise<WarmupGranule> {
  const source = memorySource(warmupGeoTiff());
  const sources = {
    open: (location: string) => (location === HREF ? Promise.resolve(source) : Promise.reject(Errors.sourceNotFound(location))),
    openIfExists: () => Promise.resolve(null),
  };
  const grid = await openTiffGrid(HREF, { sources, blockCache: createBlockCache(4 * 1024 * 1024), maxBlockBytes, sidecars: false });
  const reader = new GridReader(grid, { maxReadPixels });
  const footprint: Bounds = [14.99, 45.0, 15.21, 45.17];
  const collection = 'C0000000001-RASTILE';
  const granule: Granule = {
    id: 'G0000000001-RASTILE',
    granuleUr: 'RASTILE.WARMUP',
    collectionConceptId: collection,
    temporal: { start: '2000-01-01T00:00:00.000Z', end: '2000-01-01T23:59:59.000Z' },
    footprint: polygon(footprint),
    bbox: footprint,
    cloudCover: null,
    umm: { GranuleUR: 'RASTILE.WARMUP', RelatedUrls: [{ URL: href, Type: 'GET DATA' }] },
    meta: { 'concept-id': 'G0000000001-RASTILE' },
  };
  const bbox: Bounds = [15.02, 45.03, 15.17, 45.13];
  return {
    granule,
    openAsset: (href) => (href === HREF ? Promise.resolve(reader) : Promise.reject(Errors.sourceNotFound(href))),
    searchBounds: footprint,
    feature: { type: 'Feature', properties: {}, geometry: polygon(bbox) } as Feature,
    bbox,
    collection,
    temporal: '2000-01-01T00:00:00Z/2000-01-01T23:59:59Z',
  };
}
