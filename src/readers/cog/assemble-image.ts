/** Turns sampled bands and masks into the ImageData model (names, descriptions, unscale, statistics tags). */
import type { Bounds } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs.ts';
import type { TypedArray } from '../../raster/dtype.ts';
import type { ImageData, Rgba } from '../../raster/image-data.ts';
import type { CogDataset } from './cog-dataset.ts';

export function assembleImage(
  ds: CogDataset,
  indexes: number[],
  bands: TypedArray[],
  masks: Uint8Array[],
  grid: { bounds: Bounds; crs: Crs; width: number; height: number },
  nodata: number | null,
  unscale: boolean,
): ImageData {
  const meta = indexes.map((i) => ds.tiff.bands[i - 1]);
  let scales = meta.map((m) => m.scale);
  let offsets = meta.map((m) => m.offset);
  let outBands = bands;
  let dtype = ds.tiff.dtype;
  let stats = datasetStatistics(meta.map((m) => m.metadata));
  if (unscale) {
    outBands = bands.map((b, k) => {
      const out = new Float32Array(b.length);
      const s = scales[k];
      const o = offsets[k];
      for (let i = 0; i < b.length; i++) out[i] = b[i] * s + o;
      return out;
    });
    if (stats) stats = stats.map(([lo, hi], k) => [lo * scales[k] + offsets[k], hi * scales[k] + offsets[k]]);
    dtype = 'float32';
    scales = scales.map(() => 1);
    offsets = offsets.map(() => 0);
  }
  return {
    width: grid.width,
    height: grid.height,
    dtype,
    bands: outBands,
    masks,
    bounds: grid.bounds,
    crs: grid.crs,
    bandNames: indexes.map((i) => `b${i}`),
    bandDescriptions: indexes.map((i, k) => meta[k].description || `b${i}`),
    nodata,
    scales,
    offsets,
    datasetStatistics: stats,
    colormap: ds.tiff.palette ? paletteMap(ds.tiff.palette) : undefined,
  };
}

function datasetStatistics(metadata: Array<Record<string, string>>): Array<[number, number]> | undefined {
  const out: Array<[number, number]> = [];
  for (const m of metadata) {
    const lo = m['STATISTICS_MINIMUM'];
    const hi = m['STATISTICS_MAXIMUM'];
    if (lo === undefined || hi === undefined) return undefined;
    out.push([Number(lo), Number(hi)]);
  }
  return out;
}

function paletteMap(palette: Rgba[]): Map<number, Rgba> {
  return new Map(palette.map((c, i) => [i, c]));
}
