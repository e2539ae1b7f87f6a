/** Pixels for the GIF tests: what a decoder shows for an indexed frame, and seeded palette indices. */
import type { IndexedFrame } from '../../src/raster/render/encode-gif.ts';

/** RGBA a decoder must show for a frame drawn on a cleared canvas (transparent pixels: 0,0,0,0). */
export function rgbaOf(f: IndexedFrame): Uint8Array {
  const out = new Uint8Array(4 * f.width * f.height);
  for (let i = 0; i < f.width * f.height; i++) {
    const k = f.index[i]!;
    if (k === f.transparentIndex) continue;
    const c = f.palette[k]!;
    out.set([c[0]!, c[1]!, c[2]!, 255], 4 * i);
  }
  return out;
}

/** `n` indices below `symbols` from a seeded linear congruential generator (the same for a seed). */
export function random(n: number, symbols: number, seed: number): Uint8Array {
  const a = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    a[i] = (s >> 16) % symbols;
  }
  return a;
}
