/**
 * The pixel-selection methods that need every item before they can answer: mean, median, stdev
 * and count (numpy masked-array reductions over the stack, rio-tiler semantics). Items are kept
 * by reference (never written to) and reduced once in `result()`, band by band, pixel by pixel,
 * with one scratch buffer for the samples of a pixel.
 */
import { allocate, bytesPerSample, isFloat, type DType, type TypedArray } from '../dtype.ts';
import { chargeRequest } from '../util/request-budget.ts';
import type { ImageData } from '../raster/image-data.ts';
import { assertSameBands, mosaicImage } from './mosaic-image.ts';
import type { PixelSelection } from './pixel-selection-type.ts';

type StackName = 'mean' | 'median' | 'stdev' | 'count';

export function createStackMethod(name: StackName): PixelSelection {
  const stack: ImageData[] = [];
  return {
    name,
    feed(img) {
      if (stack.length > 0) assertSameBands(stack[0], img);
      stack.push(img);
    },
    isDone: () => false,
    result() {
      if (stack.length === 0) return null;
      const first = stack[0];
      if (name === 'count') return countImage(stack);
      // numpy: mean/median cast back to the first item's dtype; std of integers is float64,
      // of floats keeps the float width.
      const dtype: DType = name === 'stdev' ? (first.dtype === 'float32' ? 'float32' : 'float64') : first.dtype;
      const n = first.width * first.height;
      // per band: the output and its mask; while a band is reduced: sums, counts, squares (mean/stdev)
      chargeRequest(
        first.bands.length * n * (bytesPerSample(dtype) + 1) + n * 20,
        `pixel_selection=${name} over ${stack.length} items of ${first.bands.length} band(s) of ${first.width}×${first.height}`,
      );
      const scratch = new Float64Array(stack.length);
      const bands: TypedArray[] = [];
      const masks: Uint8Array[] = [];
      for (let b = 0; b < first.bands.length; b++) {
        const out = allocate(dtype, n);
        const mask = new Uint8Array(n);
        const srcs = stack.map((img) => img.bands[b]);
        const srcMasks = stack.map((img) => img.masks[b]);
        reduceBand(name, srcs, srcMasks, out, mask, scratch, n, !isFloat(dtype));
        bands.push(out);
        masks.push(mask);
      }
      const out = mosaicImage(first, dtype, bands, masks);
      return name === 'stdev' ? { ...out, datasetStatistics: undefined } : out;
    },
  };
}

/**
 * One band of mean/median/stdev. Mean and stdev accumulate item by item over whole arrays
 * (sequential memory); the median gathers each pixel's valid samples into `scratch`.
 */
function reduceBand(
  name: 'mean' | 'median' | 'stdev',
  srcs: readonly TypedArray[],
  srcMasks: readonly Uint8Array[],
  out: TypedArray,
  mask: Uint8Array,
  scratch: Float64Array,
  n: number,
  integerOut: boolean,
): void {
  if (name === 'median') return medianBand(srcs, srcMasks, out, mask, scratch, n, integerOut);
  const sum = new Float64Array(n);
  const count = new Uint32Array(n);
  for (let j = 0; j < srcs.length; j++) {
    const src = srcs[j];
    const m = srcMasks[j];
    for (let i = 0; i < n; i++) {
      if (m[i] !== 0) {
        sum[i] += src[i];
        count[i]++;
      }
    }
  }
  for (let i = 0; i < n; i++) sum[i] = count[i] > 0 ? sum[i] / count[i] : 0; // now the mean
  if (name === 'mean') {
    for (let i = 0; i < n; i++) {
      if (count[i] === 0) continue;
      mask[i] = 255;
      // numpy astype float → int truncates towards zero
      out[i] = integerOut ? Math.trunc(sum[i]) : sum[i];
    }
    return;
  }
  const ss = new Float64Array(n);
  for (let j = 0; j < srcs.length; j++) {
    const src = srcs[j];
    const m = srcMasks[j];
    for (let i = 0; i < n; i++) {
      if (m[i] !== 0) {
        const d = src[i] - sum[i];
        ss[i] += d * d;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (count[i] === 0) continue;
    mask[i] = 255;
    out[i] = Math.sqrt(ss[i] / count[i]);
  }
}

function medianBand(
  srcs: readonly TypedArray[],
  srcMasks: readonly Uint8Array[],
  out: TypedArray,
  mask: Uint8Array,
  scratch: Float64Array,
  n: number,
  integerOut: boolean,
): void {
  const k = srcs.length;
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let j = 0; j < k; j++) if (srcMasks[j][i] !== 0) scratch[count++] = srcs[j][i];
    if (count === 0) continue;
    mask[i] = 255;
    insertionSort(scratch, count);
    const mid = count >> 1;
    const v = count % 2 === 1 ? scratch[mid] : (scratch[mid - 1] + scratch[mid]) / 2;
    out[i] = integerOut ? Math.trunc(v) : v;
  }
}

/** Sorts the first `count` entries in place (stacks are small: a handful of granules). */
function insertionSort(a: Float64Array, count: number): void {
  for (let i = 1; i < count; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/** Valid items per pixel on the first band; uint8 below 256 items (numpy: int64 above). */
function countImage(stack: readonly ImageData[]): ImageData {
  const first = stack[0];
  const n = first.width * first.height;
  const dtype: DType = stack.length < 256 ? 'uint8' : 'uint32';
  chargeRequest(n * (bytesPerSample(dtype) + 1), `pixel_selection=count over ${stack.length} items of ${first.width}×${first.height}`);
  const out = allocate(dtype, n);
  for (const img of stack) {
    const m = img.masks[0];
    if (m === undefined) continue;
    for (let i = 0; i < n; i++) if (m[i] !== 0) out[i]++;
  }
  return {
    ...mosaicImage(first, dtype, [out], [new Uint8Array(n).fill(255)], (i) => i === 0),
    bandDescriptions: ['count'],
    nodata: null,
    scales: [1],
    offsets: [0],
    datasetStatistics: undefined,
  };
}
