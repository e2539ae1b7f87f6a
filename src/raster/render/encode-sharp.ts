/**
 * PNG, JPEG and WebP through sharp (libvips), one call per image from raw interleaved samples.
 * Profiles follow TiTiler: PNG zlib level 6 (`pngraw` 1), JPEG quality 85, WebP lossy quality 75.
 * Grey images are written as grey (1 channel, or grey+alpha); 16-bit PNG for uint16 data.
 */
import { loadSharp } from '../../util/sharp-module.ts';
import type { TypedArray } from '../dtype.ts';
import { interleave, interleaveWithAlpha } from './interleave.ts';

export type SharpFormat = 'png' | 'jpeg' | 'webp';

export interface RasterPlanes {
  width: number;
  height: number;
  /** uint8 planes, or uint16 planes for 16-bit PNG. */
  planes: ReadonlyArray<Uint8Array | Uint16Array>;
  /** Alpha plane (same depth as the planes), appended as the last channel. */
  alpha?: Uint8Array | Uint16Array;
  /** Write colour 0 where alpha is 0 (PNG, like GDAL). */
  zeroTransparent?: boolean;
}

export async function encodeWithSharp(
  img: RasterPlanes,
  format: SharpFormat,
  opts: { pngLevel?: number; pngAdaptiveFiltering?: boolean } = {},
): Promise<Buffer> {
  const all: ReadonlyArray<Uint8Array | Uint16Array> = img.alpha ? [...img.planes, img.alpha] : img.planes;
  const channels = all.length as 1 | 2 | 3 | 4;
  const n = img.width * img.height;
  const sixteen = all[0] instanceof Uint16Array;
  const out = sixteen ? new Uint16Array(n * channels) : new Uint8Array(n * channels);
  const raw: TypedArray =
    img.alpha && img.zeroTransparent ? interleaveWithAlpha(out, img.planes, img.alpha, n) : interleave(out, all, n);
  const sharp = await loadSharp();
  let pipeline = sharp(raw, { raw: { width: img.width, height: img.height, channels } });
  // Without an explicit colourspace libvips would expand grey to sRGB and 16-bit to 8-bit.
  // Like GDAL, the interpretation follows the channel count: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  // (so 2 data bands + mask become R, G and B = mask, as in TiTiler).
  const grey = channels <= 2;
  pipeline = pipeline.toColourspace(sixteen ? (grey ? 'grey16' : 'rgb16') : grey ? 'b-w' : 'srgb');
  if (format === 'png') {
    return pipeline.png({ compressionLevel: opts.pngLevel ?? 6, adaptiveFiltering: opts.pngAdaptiveFiltering ?? false }).toBuffer();
  }
  if (format === 'jpeg') return pipeline.jpeg({ quality: 85 }).toBuffer();
  return pipeline.webp({ quality: 75, lossless: false }).toBuffer();
}
