/**
 * The pixel-selection methods that keep one running mosaic and overwrite some of its samples
 * with each new item: first, highest, lowest, lastbandhigh, lastbandlow (numpy.ma.where on the
 * decision `pidex`, rio-tiler semantics):
 *
 *   first:        take the new sample where the mosaic is masked and the new one is valid
 *   highest:      take it where the mosaic is masked, or the new one is valid and greater
 *   lowest:       … valid and smaller
 *   lastband*:    as highest/lowest, the comparison made on the last band for every band
 *
 * A taken sample brings its own mask. Items of a wider dtype promote the mosaic (numpy result
 * type). The mosaic owns its arrays: inputs are never written to.
 */
import type { DType, TypedArray } from '../dtype.ts';
import type { ImageData } from '../raster/image-data.ts';
import { castArray } from '../raster/cast-array.ts';
import { promoteDtypes } from '../raster/dtype-promote.ts';
import { Errors } from '../errors.ts';
import { bytesPerSample } from '../dtype.ts';
import { chargeRequest } from '../util/request-budget.ts';
import { assertSameBands, mosaicImage } from './mosaic-image.ts';
import type { PixelSelection } from './pixel-selection-type.ts';

type ReplaceName = 'first' | 'highest' | 'lowest' | 'lastbandhigh' | 'lastbandlow';

export function createReplaceMethod(name: ReplaceName): PixelSelection {
  let first: ImageData | null = null;
  let dtype: DType = 'uint8';
  let bands: TypedArray[] = [];
  let masks: Uint8Array[] = [];
  /** Per-pixel decision of the last-band methods (1 = the new item wins where valid). */
  let better: Uint8Array | null = null;

  const promote = (to: DType): void => {
    bands = bands.map((b) => castArray(b, to));
    dtype = to;
  };

  return {
    name,
    feed(img) {
      if (first === null) {
        if ((name === 'lastbandhigh' || name === 'lastbandlow') && img.bands.length < 2) {
          throw Errors.badRequest(`pixel_selection=${name} needs at least 2 bands (the last band decides), got ${img.bands.length}`);
        }
        first = img;
        dtype = img.dtype;
        // the mosaic's own copy of the bands and masks (+ the decision mask of lastband*)
        chargeRequest(
          img.width * img.height * (img.bands.length * (bytesPerSample(dtype) + 1) + 1),
          `pixel_selection=${name} mosaic of ${img.bands.length} band(s) of ${img.width}×${img.height}`,
        );
        bands = img.bands.map((b) => castArray(b, dtype, { copy: true })); // the mosaic owns its arrays
        masks = img.masks.map((m) => m.slice());
        return;
      }
      assertSameBands(first, img);
      if (img.dtype !== dtype) {
        const to = promoteDtypes([dtype, img.dtype]);
        if (to !== dtype) promote(to);
      }
      const n = img.width * img.height;
      if (name === 'lastbandhigh' || name === 'lastbandlow') {
        better ??= new Uint8Array(n);
        const last = bands.length - 1;
        lastBandDecision(img.bands[last], bands[last], better, name === 'lastbandhigh');
      }
      for (let b = 0; b < bands.length; b++) {
        const out = bands[b];
        const mask = masks[b];
        const src = img.bands[b];
        const srcMask = img.masks[b];
        switch (name) {
          case 'first':
            feedFirst(out, mask, src, srcMask, n);
            break;
          case 'highest':
            feedHighest(out, mask, src, srcMask, n);
            break;
          case 'lowest':
            feedLowest(out, mask, src, srcMask, n);
            break;
          default:
            feedDecided(out, mask, src, srcMask, better!, n);
        }
      }
    },
    isDone(cutline) {
      if (name !== 'first' || first === null) return false;
      for (const mask of masks) {
        if (cutline) {
          for (let i = 0; i < mask.length; i++) if (mask[i] === 0 && cutline[i] !== 0) return false;
        } else {
          for (let i = 0; i < mask.length; i++) if (mask[i] === 0) return false;
        }
      }
      return true;
    },
    result() {
      if (first === null) return null;
      if (name === 'lastbandhigh' || name === 'lastbandlow') {
        const keep = (i: number) => i < bands.length - 1;
        return mosaicImage(
          first,
          dtype,
          bands.filter((_, i) => keep(i)),
          masks.filter((_, i) => keep(i)),
          keep,
        );
      }
      return mosaicImage(first, dtype, bands, masks);
    },
  };
}

function feedFirst(out: TypedArray, mask: Uint8Array, src: TypedArray, srcMask: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0 && srcMask[i] !== 0) {
      out[i] = src[i];
      mask[i] = 255;
    }
  }
}

function feedHighest(out: TypedArray, mask: Uint8Array, src: TypedArray, srcMask: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0 || (srcMask[i] !== 0 && src[i] > out[i])) {
      out[i] = src[i];
      mask[i] = srcMask[i];
    }
  }
}

function feedLowest(out: TypedArray, mask: Uint8Array, src: TypedArray, srcMask: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0 || (srcMask[i] !== 0 && src[i] < out[i])) {
      out[i] = src[i];
      mask[i] = srcMask[i];
    }
  }
}

function lastBandDecision(src: TypedArray, current: TypedArray, out: Uint8Array, high: boolean): void {
  const n = out.length;
  if (high) for (let i = 0; i < n; i++) out[i] = src[i] > current[i] ? 1 : 0;
  else for (let i = 0; i < n; i++) out[i] = src[i] < current[i] ? 1 : 0;
}

function feedDecided(out: TypedArray, mask: Uint8Array, src: TypedArray, srcMask: Uint8Array, better: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0 || (srcMask[i] !== 0 && better[i] !== 0)) {
      out[i] = src[i];
      mask[i] = srcMask[i];
    }
  }
}
