/** Band-sequential planes (+ optional alpha plane) → one pixel-interleaved array, as encoders want. */
import type { TypedArray } from '../../dtype.ts';

export function interleave<T extends TypedArray>(out: T, planes: readonly ArrayLike<number>[], n: number): T {
  const c = planes.length;
  if (c === 1) {
    out.set(planes[0] as ArrayLike<number>);
    return out;
  }
  for (let k = 0; k < c; k++) {
    const p = planes[k];
    for (let i = 0, o = k; i < n; i++, o += c) out[o] = p[i];
  }
  return out;
}

/**
 * Colour planes + alpha → interleaved samples with the colour of fully transparent pixels set
 * to 0 (GDAL's PNG output has 0 there; it also compresses better). Every sample of `out` is written.
 */
export function interleaveWithAlpha<T extends Uint8Array | Uint16Array>(
  out: T,
  planes: ReadonlyArray<ArrayLike<number>>,
  alpha: ArrayLike<number>,
  n: number,
): T {
  const bands = planes.length;
  const c = bands + 1;
  for (let i = 0, o = 0; i < n; i++, o += c) {
    const a = alpha[i];
    if (a === 0) {
      for (let k = 0; k <= bands; k++) out[o + k] = 0;
      continue;
    }
    for (let k = 0; k < bands; k++) out[o + k] = planes[k][i];
    out[o + bands] = a;
  }
  return out;
}
