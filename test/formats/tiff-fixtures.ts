/** Shared helpers of the TIFF format-layer tests: fixture paths, opening with sidecars, hashes. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlockCache } from '../../src/formats/tiff/block-cache.ts';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import type { TiffOpenOptions } from '../../src/formats/tiff/tiff-dataset.ts';
import { TiffDataset } from '../../src/formats/tiff/tiff-dataset.ts';
import { fileSource } from './file-source.ts';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tiff');

export interface ExpectedLevel {
  width: number;
  height: number;
  bands: string[];
  mask: string | null;
  samples: Array<{ row: number; col: number; values: Array<number | string | null> }>;
}

export interface ExpectedFile {
  error?: 'open' | 'size' | 'unsupported' | 'truncated' | 'corrupt';
  corrupt_block?: number;
  sidecars?: string[];
  width: number;
  height: number;
  count: number;
  dtype: string;
  nodata: number | string | null;
  colorinterp: string[];
  geotransform: number[] | null;
  geokeys: Record<string, number | string | number[]>;
  overviews: Array<[number, number]>;
  descriptions: string[];
  scales: number[];
  offsets: number[];
  units: Array<string | null>;
  band_tags: Array<Record<string, string>>;
  dataset_tags: Record<string, string>;
  has_dataset_mask: boolean;
  block_shapes: Array<[number, number]>;
  is_tiled: boolean;
  compression: string;
  palette: number[][] | null;
  levels: ExpectedLevel[];
}

export const expected: Record<string, ExpectedFile> = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8'));

export const fixture = (name: string): string => join(FIXTURES, name);

/** Open a fixture with the sidecars GDAL would find next to it. */
export async function openFixture(
  name: string,
  options: Partial<TiffOpenOptions> & { blockCache?: BlockCache; sidecars?: boolean } = {},
): Promise<TiffDataset> {
  const path = fixture(name);
  const side = async (suffix: string) => (options.sidecars !== false && existsSync(path + suffix) ? fileSource(path + suffix) : undefined);
  return TiffDataset.open(await fileSource(path), {
    blockCache: options.blockCache ?? createBlockCache(32 * 1024 * 1024),
    overviewSource: await side('.ovr'),
    maskSource: await side('.msk'),
    maskOverviewSource: await side('.msk.ovr'),
    maxBlockBytes: options.maxBlockBytes,
    signal: options.signal,
  });
}

export const sha256 = (a: ArrayBufferView): string =>
  createHash('sha256')
    .update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    .digest('hex');

/** A number as expected.json writes it (non-finite values as strings). */
export function jsonNumber(v: number | null): number | string | null {
  if (v === null) return null;
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return v;
}

export const allBands = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);
