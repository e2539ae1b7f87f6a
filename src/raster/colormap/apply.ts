/**
 * Applies a colormap to one band (rio-tiler apply_cmap / apply_discrete_cmap /
 * apply_intervals_cmap). Lookup tables index the value cast to uint8 with C wrap-around, as
 * numpy's `astype(uint8)` does on x86 (300 → 44, -1 → 255, NaN → 0); discrete and interval
 * maps compare raw values.
 */
import type { TypedArray } from '../../dtype.ts';
import { castUint8 } from '../numpy-cast.ts';
import type { ColorMap } from './types.ts';

export interface ColormapResult {
  /**
   * Band-sequential RGBA, 4 planes of `values.length` bytes: R, G, B, then A. A is the colormap
   * alpha where `mask` is valid (non-zero) and 0 where it is masked.
   */
  rgba: Uint8Array;
}

export function applyColormap(values: TypedArray, mask: Uint8Array, cmap: ColorMap | Uint8Array): ColormapResult {
  const n = values.length;
  const rgba = new Uint8Array(n * 4);
  if (cmap instanceof Uint8Array) applyLut(values, cmap, rgba, n);
  else if (cmap.kind === 'lut') applyLut(values, cmap.table, rgba, n);
  else if (cmap.kind === 'discrete') applyDiscrete(values, cmap.entries, rgba, n);
  else applyIntervals(values, cmap.entries, rgba, n);
  const a = 3 * n;
  for (let i = 0; i < n; i++) if (mask[i] === 0) rgba[a + i] = 0;
  return { rgba };
}

function applyLut(values: TypedArray, table: Uint8Array, out: Uint8Array, n: number): void {
  const isBytes = values instanceof Uint8Array;
  const isInt = !(values instanceof Float32Array || values instanceof Float64Array);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    const k = (isBytes ? v : isInt ? v & 255 : castUint8(v)) * 4;
    out[i] = table[k];
    out[n + i] = table[k + 1];
    out[2 * n + i] = table[k + 2];
    out[3 * n + i] = table[k + 3];
  }
}

function applyDiscrete(values: TypedArray, entries: Map<number, readonly number[]>, out: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const c = entries.get(values[i]);
    if (c === undefined) continue;
    out[i] = c[0];
    out[n + i] = c[1];
    out[2 * n + i] = c[2];
    out[3 * n + i] = c[3];
  }
}

function applyIntervals(values: TypedArray, entries: ReadonlyArray<readonly [readonly [number, number], readonly number[]]>, out: Uint8Array, n: number): void {
  const count = entries.length;
  const lo = new Float64Array(count);
  const hi = new Float64Array(count);
  const colours = new Uint8Array(count * 4);
  entries.forEach(([[a, b], c], k) => {
    lo[k] = a;
    hi[k] = b;
    colours.set(c, k * 4);
  });
  for (let i = 0; i < n; i++) {
    const v = values[i];
    // Later entries override earlier ones: search from the end.
    for (let k = count - 1; k >= 0; k--) {
      if (v >= lo[k] && v < hi[k]) {
        const o = k * 4;
        out[i] = colours[o];
        out[n + i] = colours[o + 1];
        out[2 * n + i] = colours[o + 2];
        out[3 * n + i] = colours[o + 3];
        break;
      }
    }
  }
}
