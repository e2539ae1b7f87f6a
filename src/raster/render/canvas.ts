/** The working image of the render pipeline: bands, per-band masks and the output alpha. */
import type { DType, TypedArray } from '../../dtype.ts';
import { combinedMask, type ImageData } from '../image-data.ts';

export interface Canvas {
  width: number;
  height: number;
  dtype: DType;
  bands: TypedArray[];
  /** Per-band validity (255/0), used by rescales to zero masked samples. */
  masks: Uint8Array[];
  /** Output alpha 0..255: 0 = transparent. */
  alpha: Uint8Array;
}

/** Output alpha of an image: 255 where any band is valid, or the source alpha band's values. */
export function baseAlpha(img: ImageData): Uint8Array {
  const valid = combinedMask(img);
  if (!img.alpha) return valid;
  const src = img.alpha;
  const out = new Uint8Array(valid.length);
  for (let i = 0; i < out.length; i++) out[i] = valid[i] === 0 ? 0 : src[i];
  return out;
}

export function toCanvas(img: ImageData): Canvas {
  const n = img.width * img.height;
  const masks = img.bands.map((_, k) => img.masks[k] ?? img.masks[0] ?? new Uint8Array(n).fill(255));
  return { width: img.width, height: img.height, dtype: img.dtype, bands: img.bands, masks, alpha: baseAlpha(img) };
}

export function hasTransparentPixel(alpha: Uint8Array): boolean {
  return alpha.indexOf(0) !== -1;
}
