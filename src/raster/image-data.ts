import type { Rgba } from '../color.ts';
import type { Bounds } from '../geo/bounds.ts';
import type { Crs } from '../geo/crs.ts';
import type { DType, TypedArray } from '../dtype.ts';
import { BUFFER_POOL } from '../util/buffer-pool.ts';

export type { Rgba };

/**
 * The one image model (rio-tiler's ImageData): every reader returns it, every renderer takes it.
 * Band-sequential typed arrays of `width*height` samples, row-major, plus per-band validity masks.
 */
export interface ImageData {
  width: number;
  height: number;
  dtype: DType;
  /** One typed array per band. */
  bands: TypedArray[];
  /**
   * One mask per band: 255 = valid, 0 = masked (nodata, outside footprint, mask band, alpha ≠ max…).
   * Entries may be the same array object when the mask is per-dataset.
   */
  masks: Uint8Array[];
  /**
   * Output alpha 0..255, for producers that know a real transparency (the colormap legend's
   * colormap alpha); the renderer uses it where the masks say valid. Dataset readers do not set
   * it: a source alpha band is folded into `masks` (alpha 0 → masked), as rio-tiler does.
   */
  alpha?: Uint8Array;
  /** Bounds of the image in `crs` (outer pixel edges). */
  bounds: Bounds;
  crs: Crs;
  bandNames: string[];
  bandDescriptions: string[];
  nodata: number | null;
  scales: number[];
  offsets: number[];
  /** Per-band [min, max] from dataset metadata (STATISTICS_MINIMUM/MAXIMUM or STAC), used by auto-rescale. */
  datasetStatistics?: Array<[number, number]>;
  /** Palette of the source (band 1 colour table), applied when the user gives no colormap. */
  colormap?: Map<number, Rgba>;
}

/** Combined output mask: a pixel is valid (255) when any band is valid. */
export function combinedMask(img: ImageData): Uint8Array {
  const n = img.width * img.height;
  if (img.masks.length === 0) return new Uint8Array(n).fill(255);
  const first = img.masks[0];
  if (img.masks.every((m) => m === first)) return first;
  const out = new Uint8Array(n);
  for (const m of img.masks) for (let i = 0; i < n; i++) out[i] |= m[i];
  return out;
}

/**
 * Gives the image's pooled buffers back (src/util/buffer-pool.ts) once nothing reads the image
 * any more, e.g. after a tile has been encoded. Arrays not from the pool are left alone.
 */
export function releaseImage(img: ImageData): void {
  BUFFER_POOL.release(...img.bands.map((b) => b.buffer), ...img.masks.map((m) => m.buffer));
}

/**
 * The image at a new size, each band and mask made by `remap` (a resize, a crop…); a mask shared
 * by several bands stays shared (remapped once).
 */
export function remapImage(img: ImageData, width: number, height: number, remap: <T extends TypedArray>(src: T) => T): ImageData {
  const masks = new Map<Uint8Array, Uint8Array>();
  return {
    ...img,
    width,
    height,
    bands: img.bands.map((b) => remap(b)),
    masks: img.masks.map((m) => masks.get(m) ?? masks.set(m, remap(m)).get(m)!),
  };
}
