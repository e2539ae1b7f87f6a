/**
 * JPEG and WebP through sharp (libvips), one call per image from raw uint8 samples. Profiles
 * follow TiTiler: JPEG quality 85, WebP lossy quality 75. Grey images are written as grey
 * (1 channel, or grey+alpha). PNG has its own writer (png-encoder.ts).
 */
import { loadSharp } from '../../util/sharp-module.ts';
import { interleave } from './interleave.ts';

export type SharpFormat = 'jpeg' | 'webp';

export interface RasterPlanes {
  width: number;
  height: number;
  /** uint8 planes. */
  planes: ReadonlyArray<Uint8Array>;
  /** Alpha plane, appended as the last channel. */
  alpha?: Uint8Array;
}

export async function encodeWithSharp(img: RasterPlanes, format: SharpFormat): Promise<Buffer> {
  const all: ReadonlyArray<Uint8Array> = img.alpha ? [...img.planes, img.alpha] : img.planes;
  const n = img.width * img.height;
  const raw = interleave(new Uint8Array(n * all.length), all, n);
  return encodeInterleavedWithSharp(raw, img.width, img.height, all.length as 1 | 2 | 3 | 4, format);
}

/**
 * Pixel-interleaved uint8 samples (`channels` per pixel) → JPEG / WebP. sharp reads `raw`
 * asynchronously: it must not be reused before the returned promise settles.
 */
export async function encodeInterleavedWithSharp(
  raw: Uint8Array,
  width: number,
  height: number,
  channels: 1 | 2 | 3 | 4,
  format: SharpFormat,
): Promise<Buffer> {
  const sharp = await loadSharp();
  // Without an explicit colourspace libvips would expand grey to sRGB.
  // Like GDAL, the interpretation follows the channel count: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  // (so 2 data bands + mask become R, G and B = mask, as in TiTiler).
  const pipeline = sharp(raw, { raw: { width, height, channels } }).toColourspace(channels <= 2 ? 'b-w' : 'srgb');
  if (format === 'jpeg') return pipeline.jpeg({ quality: 85 }).toBuffer();
  return pipeline.webp({ quality: 75, lossless: false }).toBuffer();
}
