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

/** Alpha written as it is (the default `alphaTable`). */
const SAME_ALPHA = Uint8Array.from({ length: 256 }, (_, a) => a);

/**
 * Colour planes + alpha → interleaved samples with the colour of fully transparent pixels set
 * to 0 (GDAL's PNG output has 0 there; it also compresses better). Every sample of `out` is written.
 * One and three colour planes (grey, RGB) have loops of their own: a 4096² tile interleaves
 * 16.7 M pixels, and the general loop's per-pixel band loop cost ~10× more.
 * `alphaTable` maps each 8-bit alpha to the alpha written (mask-band.ts's ALPHA16 for 16-bit
 * output: no separate 16-bit alpha plane, 33 MB of new memory for a 4096² tile); a table must
 * map 0, and only 0, to 0.
 */
export function interleaveWithAlpha<T extends Uint8Array | Uint16Array>(
  out: T,
  planes: ReadonlyArray<ArrayLike<number>>,
  alpha: Uint8Array,
  n: number,
  alphaTable: Uint8Array | Uint16Array = SAME_ALPHA,
): T {
  const bands = planes.length;
  if (bands === 1) greyAlpha(out, planes[0], alpha, n, alphaTable);
  else if (bands === 3) rgbAlpha(out, planes[0], planes[1], planes[2], alpha, n, alphaTable);
  else anyAlpha(out, planes, alpha, n, alphaTable);
  return out;
}

function greyAlpha(out: Uint8Array | Uint16Array, g: ArrayLike<number>, alpha: Uint8Array, n: number, table: Uint8Array | Uint16Array): void {
  for (let i = 0, o = 0; i < n; i++, o += 2) {
    const a = alpha[i];
    out[o] = a === 0 ? 0 : g[i];
    out[o + 1] = table[a];
  }
}

function rgbAlpha(
  out: Uint8Array | Uint16Array,
  r: ArrayLike<number>,
  g: ArrayLike<number>,
  b: ArrayLike<number>,
  alpha: Uint8Array,
  n: number,
  table: Uint8Array | Uint16Array,
): void {
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const a = alpha[i];
    if (a === 0) {
      out[o] = 0;
      out[o + 1] = 0;
      out[o + 2] = 0;
    } else {
      out[o] = r[i];
      out[o + 1] = g[i];
      out[o + 2] = b[i];
    }
    out[o + 3] = table[a];
  }
}

function anyAlpha(
  out: Uint8Array | Uint16Array,
  planes: ReadonlyArray<ArrayLike<number>>,
  alpha: Uint8Array,
  n: number,
  table: Uint8Array | Uint16Array,
): void {
  const bands = planes.length;
  const c = bands + 1;
  for (let i = 0, o = 0; i < n; i++, o += c) {
    const a = alpha[i];
    if (a === 0) {
      for (let k = 0; k <= bands; k++) out[o + k] = 0;
      continue;
    }
    for (let k = 0; k < bands; k++) out[o + k] = planes[k][i];
    out[o + bands] = table[a];
  }
}
