/**
 * One row run of a window read (array-grid.ts): source samples at an affine index into the output
 * band, raw or CF-decoded (missing values → NaN, then `raw * scale + offset`).
 *
 * Small sync functions on purpose: inside the async `readBlock` these loops made V8 optimise the
 * whole async function (165 ms of its concurrent compiler on the first tile of a new file in a warm
 * server, load 10; its OSR copy another 25 ms), on the helper threads that share the cores with
 * the request. A loop on its own compiles in a few ms.
 */
import type { TypedArray } from '../../dtype.ts';

/** `dst[at + c] = src[s + c * step]` for c in [0, n). */
export function copyRun(dst: TypedArray, at: number, src: TypedArray, s: number, step: number, n: number): void {
  for (let c = 0; c < n; c++, s += step) dst[at + c] = src[s]!;
}

/** CF-decoded copy with at most two missing values (`m0`, `m1`; NaN when none). */
export function decodeRun(
  dst: TypedArray,
  at: number,
  src: TypedArray,
  s: number,
  step: number,
  n: number,
  m0: number,
  m1: number,
  scale: number,
  offset: number,
): void {
  for (let c = 0; c < n; c++, s += step) {
    const raw = src[s]!;
    dst[at + c] = raw === m0 || raw === m1 || raw !== raw ? NaN : raw * scale + offset;
  }
}

/** CF-decoded copy with more missing values (`m0`, `m1` are the first two of `missing`). */
export function decodeRunMany(
  dst: TypedArray,
  at: number,
  src: TypedArray,
  s: number,
  step: number,
  n: number,
  m0: number,
  m1: number,
  missing: readonly number[],
  scale: number,
  offset: number,
): void {
  for (let c = 0; c < n; c++, s += step) {
    const raw = src[s]!;
    dst[at + c] = raw === m0 || raw === m1 || raw !== raw || missing.includes(raw) ? NaN : raw * scale + offset;
  }
}
