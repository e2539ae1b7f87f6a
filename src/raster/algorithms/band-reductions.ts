/**
 * `min`, `max`, `median`, `mean`, `std`, `var`, `sum` (TiTiler's math algorithms): numpy.ma
 * reductions along the band axis. Masked values are ignored; a pixel is masked only when all
 * its bands are, with numpy.ma's extra rules: std/var (ddof=1) need 2 valid values; mean is
 * masked where it is not finite (NaN/±Inf input), and var/std are then 0; std is masked where
 * the variance is not finite. A valid NaN propagates through min/max/median/sum.
 * Result dtypes follow numpy: min/max keep the input dtype; sum keeps float32/float64 and is
 * float64 for integer input (numpy gives int64/uint64, which the image model has no typed array
 * for: float64 is exact up to 2^53); mean/std/var are float64; median is float32 for float32
 * input, else float64. float32 sums are accumulated in float32, band after band, as numpy does
 * along axis 0.
 */
import type { DType, TypedArray } from '../../dtype.ts';
import { allocate } from '../../dtype.ts';
import type { ImageData } from '../image-data.ts';
import { makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';

export type Reduction = 'min' | 'max' | 'median' | 'mean' | 'std' | 'var' | 'sum';

function outputDtype(kind: Reduction, input: DType): DType {
  switch (kind) {
    case 'min':
    case 'max':
      return input;
    case 'sum':
    case 'median':
      return input === 'float32' ? 'float32' : 'float64';
    default:
      return 'float64';
  }
}

function reduce(kind: Reduction, img: ImageData): ImageData {
  requireBands(kind, img, 1);
  const n = img.width * img.height;
  const dtype = outputDtype(kind, img.dtype);
  const out = allocate(dtype, n);
  const mask = new Uint8Array(n);
  const { bands, masks } = img;
  const f32 = img.dtype === 'float32';
  if (kind === 'min' || kind === 'max') minMax(kind === 'min', bands, masks, out, mask, n);
  else if (kind === 'median') median(bands, masks, out, mask, n, f32);
  else moments(kind, bands, masks, out, mask, n, f32);
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype,
    bands: [out],
    masks: [mask],
    bandDescriptions: [kind],
  });
}

function minMax(isMin: boolean, bands: TypedArray[], masks: Uint8Array[], out: TypedArray, mask: Uint8Array, n: number): void {
  const nb = bands.length;
  for (let i = 0; i < n; i++) {
    let seen = false;
    let acc = 0;
    for (let k = 0; k < nb; k++) {
      if (masks[k][i] === 0) continue;
      const v = bands[k][i];
      if (!seen) {
        acc = v;
        seen = true;
      } else if (v !== v || (isMin ? v < acc : v > acc)) {
        acc = v; // a NaN sticks: later comparisons with it are false
      }
    }
    if (seen) {
      out[i] = acc;
      mask[i] = 255;
    }
  }
}

/** sum, mean, std and var: one accumulation of the valid values per pixel. */
function moments(
  kind: 'sum' | 'mean' | 'std' | 'var',
  bands: TypedArray[],
  masks: Uint8Array[],
  out: TypedArray,
  mask: Uint8Array,
  n: number,
  f32: boolean,
): void {
  const nb = bands.length;
  for (let i = 0; i < n; i++) {
    let acc = 0;
    let cnt = 0;
    for (let k = 0; k < nb; k++) {
      if (masks[k][i] === 0) continue;
      acc = f32 ? Math.fround(acc + bands[k][i]) : acc + bands[k][i];
      cnt++;
    }
    if (cnt === 0) continue;
    if (kind === 'sum') {
      out[i] = acc;
      mask[i] = 255;
      continue;
    }
    const mean = acc / cnt;
    if (kind === 'mean') {
      // numpy.ma's division masks a non-finite mean
      if (Number.isFinite(mean)) {
        out[i] = mean;
        mask[i] = 255;
      }
      continue;
    }
    if (cnt < 2) continue;
    // numpy.ma: a masked (non-finite) mean masks every anomaly, whose sum is then 0; var's
    // mask is reset to "fewer than 2 valid", so var is 0 there, and std = sqrt(0) too.
    let ss = 0;
    if (Number.isFinite(mean)) {
      for (let k = 0; k < nb; k++) {
        if (masks[k][i] === 0) continue;
        const d = bands[k][i] - mean;
        ss += d * d;
      }
    }
    const variance = ss / (cnt - 1);
    const v = kind === 'var' ? variance : Math.sqrt(variance);
    out[i] = v;
    if (kind === 'var' || Number.isFinite(v)) mask[i] = 255;
  }
}

function median(bands: TypedArray[], masks: Uint8Array[], out: TypedArray, mask: Uint8Array, n: number, f32: boolean): void {
  const nb = bands.length;
  const scratch = new Float64Array(nb);
  for (let i = 0; i < n; i++) {
    let cnt = 0;
    let nan = false;
    for (let k = 0; k < nb; k++) {
      if (masks[k][i] === 0) continue;
      const v = bands[k][i];
      if (v !== v) nan = true;
      // insertion sort into scratch[0..cnt)
      let j = cnt++;
      while (j > 0 && scratch[j - 1] > v) {
        scratch[j] = scratch[j - 1];
        j--;
      }
      scratch[j] = v;
    }
    if (cnt === 0) continue;
    mask[i] = 255;
    if (nan) {
      out[i] = NaN;
      continue;
    }
    const h = cnt >> 1;
    const lo = cnt % 2 === 1 ? scratch[h] : scratch[h - 1];
    const hi = scratch[h];
    out[i] = f32 ? Math.fround(Math.fround(lo + hi) / 2) : (lo + hi) / 2;
  }
}

export const reduction =
  (kind: Reduction) =>
  (_p: AlgorithmParams, img: ImageData): ImageData =>
    reduce(kind, img);
