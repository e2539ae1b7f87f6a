/** Builds small ImageData values for rendering tests. */
import { crsFromEpsg } from '../../../src/geo/crs.ts';
import type { Bounds } from '../../../src/geo/bounds.ts';
import type { Crs } from '../../../src/geo/crs.ts';
import { dtypeOf, type TypedArray } from '../../../src/dtype.ts';
import type { ImageData, Rgba } from '../../../src/raster/image-data.ts';

export function makeImage(
  bands: TypedArray[],
  opts: {
    width: number;
    height: number;
    masks?: Uint8Array[];
    bounds?: Bounds;
    crs?: Crs;
    datasetStatistics?: Array<[number, number]>;
    colormap?: Map<number, Rgba>;
    alpha?: Uint8Array;
  },
): ImageData {
  const n = opts.width * opts.height;
  const valid = new Uint8Array(n).fill(255);
  return {
    width: opts.width,
    height: opts.height,
    dtype: dtypeOf(bands[0]),
    bands,
    masks: opts.masks ?? bands.map(() => valid),
    alpha: opts.alpha,
    bounds: opts.bounds ?? [0, 0, opts.width, opts.height],
    crs: opts.crs ?? crsFromEpsg(3857),
    bandNames: bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: bands.map((_, i) => `b${i + 1}`),
    nodata: null,
    scales: bands.map(() => 1),
    offsets: bands.map(() => 0),
    datasetStatistics: opts.datasetStatistics,
    colormap: opts.colormap,
  };
}

/** A mask with the given pixel indexes masked (0) and the rest valid (255). */
export function maskWith(n: number, masked: number[]): Uint8Array {
  const m = new Uint8Array(n).fill(255);
  for (const i of masked) m[i] = 0;
  return m;
}
