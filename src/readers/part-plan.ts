/**
 * Pure planning of a `part` read (rio-tiler's `part` + `get_vrt_transform`): from requested
 * bounds and size options to the exact grid to produce. No I/O here, so every rule is testable.
 */
import { type GeoTransform, geoTransformFromBounds, invertGeoTransform } from '../geo/affine.ts';
import type { Bounds, Window } from '../geo/bounds.ts';
import { pyRound } from '../util/python.ts';

export interface SizeOptions {
  width?: number;
  height?: number;
  maxSize?: number;
}

/** rio-tiler `_get_width_height`: fit the longest side to max_size keeping the aspect ratio. */
export function fitMaxSize(maxSize: number, height: number, width: number): [height: number, width: number] {
  if (Math.max(height, width) < maxSize) return [height, width];
  const ratio = height / width;
  if (ratio > 1) return [maxSize, Math.ceil(maxSize / ratio)];
  return [Math.ceil(maxSize * ratio), maxSize];
}

/**
 * Output size for a source extent of `srcHeight × srcWidth` pixels (may be fractional):
 * max_size wins, else a single given side fixes the other by aspect ratio, else native size.
 */
export function outputSize(size: SizeOptions, srcHeight: number, srcWidth: number, roundSrc: boolean): [number, number] {
  if (size.maxSize && !(size.width && size.height)) {
    return fitMaxSize(size.maxSize, roundSrc ? pyRound(srcHeight) : srcHeight, roundSrc ? pyRound(srcWidth) : srcWidth);
  }
  let { width, height } = size;
  if ((width && !height) || (height && !width)) {
    const ratio = srcHeight / srcWidth;
    if (width) height = Math.ceil(width * ratio);
    else width = Math.ceil(height! / ratio);
  }
  return [height ?? Math.max(1, pyRound(srcHeight)), width ?? Math.max(1, pyRound(srcWidth))];
}

/** rasterio windows.from_bounds: the pixel window spanned by `bounds` (any affine geotransform). */
export function windowFromBounds(bounds: Bounds, gt: GeoTransform): Window {
  const inv = invertGeoTransform(gt);
  const xs = [bounds[0], bounds[2], bounds[2], bounds[0]];
  const ys = [bounds[3], bounds[3], bounds[1], bounds[1]];
  const cols = xs.map((x, i) => inv[0] + x * inv[1] + ys[i] * inv[2]);
  const rows = xs.map((x, i) => inv[3] + x * inv[4] + ys[i] * inv[5]);
  const col = Math.min(...cols);
  const row = Math.min(...rows);
  return { col, row, width: Math.max(...cols) - col, height: Math.max(...rows) - row };
}

/** rasterio windows.bounds. */
export function boundsOfWindow(w: Window, gt: GeoTransform): Bounds {
  const x0 = gt[0] + w.col * gt[1];
  const x1 = gt[0] + (w.col + w.width) * gt[1];
  const y0 = gt[3] + w.row * gt[5];
  const y1 = gt[3] + (w.row + w.height) * gt[5];
  return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

/** rio-tiler `_round_window`: floor the start, ceil the stop. */
export function roundWindowOutward(w: Window): Window {
  const c0 = Math.floor(w.col);
  const r0 = Math.floor(w.row);
  const c1 = Math.ceil(w.col + w.width);
  const r1 = Math.ceil(w.row + w.height);
  return { col: c0, row: r0, width: Math.max(c1 - c0, 0), height: Math.max(r1 - r0, 0) };
}

/** rio-tiler `_apply_buffer`: grow bounds by `buffer` output pixels on each side. */
export function applyBuffer(buffer: number, bounds: Bounds, height: number, width: number): { bounds: Bounds; height: number; width: number } {
  const xRes = (bounds[2] - bounds[0]) / width;
  const yRes = (bounds[3] - bounds[1]) / height;
  return {
    bounds: [bounds[0] - xRes * buffer, bounds[1] - yRes * buffer, bounds[2] + xRes * buffer, bounds[3] + yRes * buffer],
    height: height + Math.trunc(buffer * 2),
    width: width + Math.trunc(buffer * 2),
  };
}

/**
 * rio-tiler `get_vrt_transform`: the grid of a warped read. `nativeGt` is the dataset's
 * resolution expressed in the destination CRS (suggested warp output). With an output size,
 * the grid uses the finer of native and output resolution (over-zoom keeps output resolution).
 */
export function vrtGrid(
  bounds: Bounds,
  nativeGt: GeoTransform,
  size: { width?: number; height?: number },
  alignBoundsWithDataset: boolean,
): { bounds: Bounds; geoTransform: GeoTransform; width: number; height: number } {
  const b = alignBoundsWithDataset ? boundsOfWindow(roundWindowOutward(windowFromBounds(bounds, nativeGt)), nativeGt) : bounds;
  let wRes = nativeGt[1];
  let hRes = nativeGt[5];
  if (size.width && size.height) {
    const out = geoTransformFromBounds(b, size.width, size.height);
    if (Math.abs(nativeGt[1]) > Math.abs(out[1])) wRes = out[1];
    if (Math.abs(nativeGt[5]) > Math.abs(out[5])) hRes = out[5];
  }
  const width = Math.max(1, pyRound((b[2] - b[0]) / wRes));
  const height = Math.max(1, pyRound((b[1] - b[3]) / hRes));
  return { bounds: b, geoTransform: geoTransformFromBounds(b, width, height), width, height };
}
