/** Building the ImageData an algorithm returns (rio-tiler `ImageData(array, crs=, bounds=, …)`). */
import type { Bounds } from '../../geo/bounds.ts';
import { Errors } from '../../errors.ts';
import type { DType, TypedArray } from '../../dtype.ts';
import type { ImageData } from '../image-data.ts';

export interface OutputParts {
  width: number;
  height: number;
  dtype: DType;
  bands: TypedArray[];
  masks: Uint8Array[];
  bandDescriptions: string[];
  /** Defaults to `b1..bN`. */
  bandNames?: string[];
  /** Defaults to the input bounds. */
  bounds?: Bounds;
}

/**
 * A fresh image on the input's CRS: default band names, no nodata, unit scales, zero offsets,
 * and none of the input's alpha, palette or dataset statistics (TiTiler's algorithms build a
 * new ImageData from the array alone).
 */
export function makeOutput(img: ImageData, p: OutputParts): ImageData {
  const n = p.bands.length;
  return {
    width: p.width,
    height: p.height,
    dtype: p.dtype,
    bands: p.bands,
    masks: p.masks,
    bounds: p.bounds ?? [...img.bounds],
    crs: img.crs,
    bandNames: p.bandNames ?? Array.from({ length: n }, (_, i) => `b${i + 1}`),
    bandDescriptions: p.bandDescriptions,
    nodata: null,
    scales: new Array<number>(n).fill(1),
    offsets: new Array<number>(n).fill(0),
  };
}

export function requireBands(id: string, img: ImageData, min: number): void {
  if (img.bands.length < min) {
    throw Errors.badRequest(`Cannot apply \`${id}\` algorithm on image with ${img.bands.length} bands.`);
  }
}

/**
 * Bounds of the image after removing `buffer` pixels from every side: rasterio's
 * `windows.bounds(Window(buffer, buffer, w, h), from_bounds(*bounds, width, height))`,
 * with the same floating-point operations.
 */
export function croppedBounds(img: ImageData, buffer: number, outWidth: number, outHeight: number): Bounds {
  const [west, south, east, north] = img.bounds;
  const a = (east - west) / img.width;
  const e = (south - north) / img.height;
  const left = buffer * a + west;
  const right = (buffer + outWidth) * a + west;
  const top = buffer * e + north;
  const bottom = (buffer + outHeight) * e + north;
  return [left, bottom, right, top];
}
