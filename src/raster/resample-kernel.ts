/**
 * Kernel resampling of one band from a fractional source window to an output grid, in the
 * spirit of GDAL's RasterIOResampled: kernels are stretched by the decimation factor when
 * downsampling; masked source pixels are left out and the weights renormalised.
 *
 * Nearest never comes here: nearest reads (and every mask, which stays 0/255) are sampled with
 * sample-index.ts (raster-io.ts reproduces GDAL exactly). These kernels follow GDAL's
 * definitions but do not reproduce its chunking, so values can differ from GDAL by rounding at
 * the edges of kernels.
 */
import type { Window } from '../geo/bounds.ts';
import { allocate, dtypeRange, isFloat, roundToRange, type DType, type TypedArray } from '../dtype.ts';
import { kernelRadius, kernelWeight, type InterpolationKernel } from './kernels.ts';
import type { ReadResampling } from './resampling.ts';

/** The read resamplings this module handles (all but nearest). */
export type KernelResampling = Exclude<ReadResampling, 'nearest'>;

type BoxResampling = 'average' | 'mode' | 'rms';

interface Taps {
  start: Int32Array;
  count: Int32Array;
  weights: Float64Array; // row-major, `maxTaps` per output position
  maxTaps: number;
}

function isBox(name: KernelResampling): name is BoxResampling {
  return name === 'average' || name === 'mode' || name === 'rms';
}

/** 1-D taps for output positions along one axis. Box kernels use exact pixel-footprint overlap. */
function taps(name: KernelResampling, off: number, size: number, n: number, limit: number): Taps {
  const scale = size / n;
  const stretch = Math.max(1, scale);
  const kernel: InterpolationKernel | null = isBox(name) ? null : name;
  const half = kernel === null ? Math.max(0.5, scale / 2) : kernelRadius(kernel) * stretch;
  const maxTaps = Math.ceil(2 * half) + 2;
  const start = new Int32Array(n);
  const count = new Int32Array(n);
  const weights = new Float64Array(n * maxTaps);
  for (let i = 0; i < n; i++) {
    const centre = off + (i + 0.5) * scale;
    let k0 = Math.floor(centre - half);
    let k1 = Math.ceil(centre + half);
    if (k0 < 0) k0 = 0;
    if (k1 > limit) k1 = limit;
    let c = 0;
    for (let k = k0; k < k1 && c < maxTaps; k++) {
      let w: number;
      if (kernel === null) {
        // overlap of source pixel [k, k+1) with the footprint [centre-half, centre+half)
        w = Math.min(k + 1, centre + half) - Math.max(k, centre - half);
        if (w <= 0) continue;
      } else {
        w = kernelWeight(kernel, (k + 0.5 - centre) / stretch);
      }
      if (c === 0) start[i] = k;
      weights[i * maxTaps + c] = w;
      c++;
    }
    count[i] = c;
  }
  return { start, count, weights, maxTaps };
}

/**
 * @param name any read resampling but nearest (a RangeError otherwise: nearest reads sample
 *   with sample-index.ts)
 */
export function resampleKernel(
  src: TypedArray,
  srcWidth: number,
  srcHeight: number,
  win: Window,
  outWidth: number,
  outHeight: number,
  name: ReadResampling,
  valid: Uint8Array | null,
  dtype: DType,
  fill: number,
): TypedArray {
  if (name === 'nearest') throw new RangeError('resampleKernel: nearest reads sample with nearestIndexes (sample-index.ts)');
  const out = allocate(dtype, outWidth * outHeight);
  const tx = taps(name, win.col, win.width, outWidth, srcWidth);
  const ty = taps(name, win.row, win.height, outHeight, srcHeight);
  const integer = !isFloat(dtype);
  const [lo, hi] = dtypeRange(dtype);
  const modeCounts = name === 'mode' ? new Map<number, number>() : null;
  for (let i = 0; i < outHeight; i++) {
    const ny = ty.count[i];
    for (let j = 0; j < outWidth; j++) {
      const nx = tx.count[j];
      let acc = 0;
      let wsum = 0;
      modeCounts?.clear();
      for (let a = 0; a < ny; a++) {
        const r = ty.start[i] + a;
        const wy = ty.weights[i * ty.maxTaps + a];
        const rowBase = r * srcWidth;
        for (let b = 0; b < nx; b++) {
          const c = tx.start[j] + b;
          const idx = rowBase + c;
          if (valid !== null && valid[idx] === 0) continue;
          const v = src[idx];
          if (v !== v) continue; // NaN never contributes
          const w = wy * tx.weights[j * tx.maxTaps + b];
          if (modeCounts) {
            modeCounts.set(v, (modeCounts.get(v) ?? 0) + w);
            wsum += w;
          } else if (name === 'rms') {
            acc += w * v * v;
            wsum += w;
          } else {
            acc += w * v;
            wsum += w;
          }
        }
      }
      const o = i * outWidth + j;
      if (wsum === 0) {
        out[o] = fill;
        continue;
      }
      let value: number;
      if (modeCounts) {
        let best = 0;
        let bestW = -1;
        for (const [v, w] of modeCounts) {
          if (w > bestW) {
            best = v;
            bestW = w;
          }
        }
        value = best;
      } else if (name === 'rms') value = Math.sqrt(acc / wsum);
      else value = acc / wsum;
      out[o] = integer ? roundToRange(value, lo, hi) : value;
    }
  }
  return out;
}
