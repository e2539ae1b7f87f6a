/** Turns sampled bands and masks into the ImageData model (names, descriptions, unscale, statistics tags). */
import type { Bounds } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs.ts';
import type { TypedArray } from '../../dtype.ts';
import type { ImageData } from '../../raster/image-data.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { chargeRequest } from '../../util/request-budget.ts';

export function assembleImage(
  ds: GridDataset,
  indexes: number[],
  bands: TypedArray[],
  masks: Uint8Array[],
  grid: { bounds: Bounds; crs: Crs; width: number; height: number },
  nodata: number | null,
  unscale: boolean,
): ImageData {
  const meta = indexes.map((i) => ds.bands[i - 1]);
  let scales = meta.map((m) => m.scale);
  let offsets = meta.map((m) => m.offset);
  let outBands = bands;
  let dtype = ds.dtype;
  let stats = datasetStatistics(ds, indexes);
  if (unscale) {
    chargeRequest(bands.length * grid.width * grid.height * 4, `Unscaling ${bands.length} band(s) to float32`);
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
    colormap: ds.colormap,
  };
}

/** The requested bands' statistics tags (parsed once per dataset), or undefined unless every band has them. */
function datasetStatistics(ds: GridDataset, indexes: number[]): Array<[number, number]> | undefined {
  const out: Array<[number, number]> = [];
  for (const i of indexes) {
    const s = ds.bands[i - 1].statistics;
    if (!s) return undefined;
    out.push([s[0], s[1]]);
  }
  return out;
}
