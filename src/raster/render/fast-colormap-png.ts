/**
 * Fast path for the most common tile: one band, optionally rescaled, through a 256-entry
 * colormap, to RGBA PNG. Rescale, colormap lookup, mask and interleaving are fused into one pass
 * that writes the PNG's interleaved RGBA directly (the generic pipeline allocates a uint8 band,
 * four colour planes and an interleave buffer, and walks the pixels four times). Results are
 * byte-identical to the generic path (test/raster/render/fast-path.test.ts).
 */
import type { TypedArray } from '../../dtype.ts';
import type { ImageData } from '../image-data.ts';
import { combinedMask } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import { rescaleValue, rescaleValueF32 } from './rescale.ts';

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Writes the RGBA pixels into `rgba` (4 × pixels bytes, 4-byte aligned, every byte written); returns whether any
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
  // one 32-bit store per pixel: the table's RGBA entries as words in the platform's byte order,
  // entries with alpha 0 made fully transparent
  if (rgba.byteOffset % 4 !== 0) throw new Error('colormapToRgba: the RGBA buffer must be 4-byte aligned');
  const words = new Uint32Array(256);
  for (let k = 0; k < 256; k++) {
    const [r, g, b, a] = [table[k * 4], table[k * 4 + 1], table[k * 4 + 2], table[k * 4 + 3]];
    words[k] = a === 0 ? 0 : LITTLE_ENDIAN ? (r | (g << 8) | (b << 16) | (a << 24)) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | a) >>> 0;
  }
  const out = new Uint32Array(rgba.buffer, rgba.byteOffset, n);
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) {
      transparent = true;
      out[i] = 0;
      continue;
    }
    const v = values[i];
    let byte: number;
    if (rescale) byte = float32 ? rescaleValueF32(v, lo32, hi32, span) : rescaleValue(v, lo, hi, span);
    else byte = isInt ? v & 255 : castUint8(v);
    const w = words[byte];
    if (w === 0) transparent = true;
    out[i] = w;
  }
  return transparent;
}
