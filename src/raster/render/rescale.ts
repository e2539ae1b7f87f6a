/**
 * Linear rescale of one band to uint8 (rio-tiler `rescale_image` + `linear_rescale`):
 * `trunc((clip(v, lo, hi) − lo) / (hi − lo) · 255)`, masked pixels → 0.
 *
 * Numerics follow numpy 2 as TiTiler runs it: float32 bands are clipped and shifted in float32,
 * divided in float64, stored back into a float32 array (rounded) and then cast to uint8; every
 * other dtype is computed in float64. The final cast is numpy's x86 `astype(uint8)` (castUint8),
 * so NaN, ±inf and a zero-width range give 0.
 */
import type { TypedArray } from '../../dtype.ts';
import { castUint8 } from '../numpy-cast.ts';
import type { Canvas } from './canvas.ts';

/** One sample of a non-float32 band, range [lo, hi], span = hi − lo. */
export function rescaleValue(v: number, lo: number, hi: number, span: number): number {
  const c = Math.min(Math.max(v, lo), hi);
  return castUint8(((c - lo) / span) * 255);
}

/** One sample of a float32 band: lo32/hi32 = Math.fround(lo/hi), span = hi − lo (float64). */
export function rescaleValueF32(v: number, lo32: number, hi32: number, span: number): number {
  const c = Math.min(Math.max(v, lo32), hi32);
  return castUint8(Math.fround((Math.fround(c - lo32) / span) * 255));
}

export function rescaleBand(values: TypedArray, mask: Uint8Array, range: readonly [number, number]): Uint8Array {
  const n = values.length;
  const out = new Uint8Array(n);
  const [lo, hi] = range;
  const span = hi - lo;
  if (values instanceof Float32Array) {
    const lo32 = Math.fround(lo);
    const hi32 = Math.fround(hi);
    for (let i = 0; i < n; i++) if (mask[i] !== 0) out[i] = rescaleValueF32(values[i], lo32, hi32, span);
    return out;
  }
  for (let i = 0; i < n; i++) if (mask[i] !== 0) out[i] = rescaleValue(values[i], lo, hi, span);
  return out;
}

/** One range per band, or the first range for every band when the counts differ (rio-tiler). */
export function rangeForBand(ranges: ReadonlyArray<readonly [number, number]>, band: number, count: number) {
  return ranges.length === count ? ranges[band] : ranges[0];
}

/** Every band of the canvas rescaled to uint8 with its range (see rangeForBand). */
export function rescaleCanvas(canvas: Canvas, ranges: ReadonlyArray<readonly [number, number]>): Canvas {
  const count = canvas.bands.length;
  const bands = canvas.bands.map((b, k) => rescaleBand(b, canvas.masks[k], rangeForBand(ranges, k, count)));
  return { ...canvas, dtype: 'uint8', bands };
}
