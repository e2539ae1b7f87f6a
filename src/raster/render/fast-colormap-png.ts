/**
 * Fast path for the most common tile: one band, optionally rescaled, through a 256-entry
 * colormap, to RGBA PNG. Rescale, colormap lookup, mask and interleaving are fused into one pass
 * that writes the PNG's interleaved RGBA directly (the generic pipeline allocates a uint8 band,
 * four colour planes and an interleave buffer, and walks the pixels four times). Results are
 * byte-identical to the generic path (test/raster/render/fast-path.test.ts).
 */
import type { TypedArray } from '../dtype.ts';
import type { ImageData } from '../image-data.ts';
import { combinedMask } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import { rescaleValue, rescaleValueF32 } from './rescale.ts';

/**
 * Writes the RGBA pixels into `rgba` (4 × pixels bytes, every byte written); returns whether any
 * pixel is transparent (the caller then keeps PNG for the automatic format).
 */
export function colormapToRgba(img: ImageData, table: Uint8Array, rescale: readonly [number, number] | undefined, rgba: Uint8Array): boolean {
  const values: TypedArray = img.bands[0];
  const mask = combinedMask(img);
  const n = img.width * img.height;
  let transparent = false;
  const float32 = values instanceof Float32Array;
  const isInt = !(float32 || values instanceof Float64Array);
  const lo = rescale ? rescale[0] : 0;
  const hi = rescale ? rescale[1] : 0;
  const span = hi - lo;
  const lo32 = Math.fround(lo);
  const hi32 = Math.fround(hi);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    if (mask[i] === 0) {
      transparent = true;
      rgba[o] = rgba[o + 1] = rgba[o + 2] = rgba[o + 3] = 0;
      continue;
    }
    const v = values[i];
    let byte: number;
    if (rescale) byte = float32 ? rescaleValueF32(v, lo32, hi32, span) : rescaleValue(v, lo, hi, span);
    else byte = isInt ? v & 255 : castUint8(v);
    const k = byte * 4;
    const a = table[k + 3];
    if (a === 0) {
      transparent = true;
      rgba[o] = rgba[o + 1] = rgba[o + 2] = rgba[o + 3] = 0;
      continue;
    }
    rgba[o] = table[k];
    rgba[o + 1] = table[k + 1];
    rgba[o + 2] = table[k + 2];
    rgba[o + 3] = a;
  }
  return transparent;
}
