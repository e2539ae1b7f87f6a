/**
 * Statistics of a 32-bit band (float32, int32, uint32) without coverage weights, the common case
 * of GET /statistics on float data: the valid values are radix-sorted as keys in pooled scratch
 * (raster/sort-keys32.ts) and walked once, run by run of equal values, for count, sum, unique,
 * majority, minority, the histogram and the quantiles, then once more for the std. No table of
 * distinct values is built (float data has nearly one per pixel) and nothing proportional to
 * the band is allocated. Runs are visited in ascending order with the same float64 arithmetic
 * as the distinct-value path (raster/statistics.ts), so the results are the same numbers.
 */
import type { DType, TypedArray } from '../dtype.ts';
import { BUFFER_POOL } from '../util/buffer-pool.ts';
import { histogramOfSorted, type Histogram, type HistogramBins } from './histogram.ts';
import { sortValidKeys32 } from './sort-keys32.ts';

export interface SortedStatistics {
  min: number;
  max: number;
  mean: number;
  count: number;
  sum: number;
  std: number;
  median: number;
  majority: number;
  minority: number;
  unique: number;
  histogram: Histogram;
  /** The values at `percentiles`, in the order asked. */
  percentiles: number[];
  validPixels: number;
}

export const hasSortedStatistics = (dtype: DType): boolean => dtype === 'float32' || dtype === 'int32' || dtype === 'uint32';

export function sortedStatistics(
  values: TypedArray,
  mask: Uint8Array,
  dtype: DType,
  percentiles: readonly number[],
  bins: HistogramBins,
  range: readonly [number, number] | undefined,
): SortedStatistics {
  const npix = values.length;
  const scratchA = BUFFER_POOL.bytes(4 * npix);
  const scratchB = BUFFER_POOL.bytes(4 * npix);
  try {
    const keys = sortValidKeys32(
      values,
      mask,
      dtype,
      new Uint32Array(scratchA.buffer, scratchA.byteOffset, npix),
      new Uint32Array(scratchB.buffer, scratchB.byteOffset, npix),
    );
    return walkSortedValues(keysToValues(keys, dtype), dtype, percentiles, bins, range);
  } finally {
    BUFFER_POOL.release(scratchA.buffer, scratchB.buffer);
  }
}

/**
 * The sorted keys back to values in place (the order is kept): float32 and int32 keys decoded
 * into a view of their own buffer, uint32 keys are their values.
 */
function keysToValues(keys: Uint32Array, dtype: DType): Float32Array | Int32Array | Uint32Array {
  const n = keys.length;
  if (dtype === 'float32') {
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      keys[i] = k >>> 31 === 0 ? ~k >>> 0 : k & 0x7fffffff;
    }
    return new Float32Array(keys.buffer, keys.byteOffset, n);
  }
  if (dtype === 'int32') {
    for (let i = 0; i < n; i++) keys[i] = keys[i] ^ 0x80000000;
    return new Int32Array(keys.buffer, keys.byteOffset, n);
  }
  return keys;
}

/**
 * One walk over sorted values, run by run of equal values (-0 and +0 are equal: one value, as in
 * numpy.unique), then one more for the sum of squared deviations; quantiles are positions in the
 * sorted values and the histogram's counts distances between binary searches.
 */
function walkSortedValues(
  vals: Float32Array | Int32Array | Uint32Array,
  dtype: DType,
  percentiles: readonly number[],
  bins: HistogramBins,
  range: readonly [number, number] | undefined,
): SortedStatistics {
  const n = vals.length;
  const histogram = histogramOfSorted(vals, dtype, bins, range);
  const [unique, sum, majority, minority] = runs(vals, RUNS);
  const mean = n > 0 ? sum / n : NaN;
  return {
    min: n > 0 ? vals[0] : NaN,
    max: n > 0 ? vals[n - 1] : NaN,
    mean,
    count: n,
    sum,
    std: n > 0 ? Math.sqrt(squaredDeviations(vals, mean) / n) : NaN,
    median: quantile(vals, 0.5),
    majority,
    minority,
    unique,
    histogram,
    percentiles: percentiles.map((p) => quantile(vals, p / 100)),
    validPixels: n,
  };
}

/** Scratch for the results of `runs` (a small function of its own is optimised as a whole). */
const RUNS = new Float64Array(4);

/** [unique, sum, majority, minority] of sorted values: majority and minority the first of their counts. */
function runs(vals: Float32Array | Int32Array | Uint32Array, out: Float64Array): Float64Array {
  const n = vals.length;
  let unique = 0;
  let sum = 0;
  let majority = NaN;
  let minority = NaN;
  let maxCount = 0;
  let minCount = n + 1;
  // the run [start, i) holds v0; the NaN after the last value closes the last run
  let v0 = n > 0 ? vals[0] : NaN;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    const v = i < n ? vals[i] : NaN;
    if (v === v0) continue;
    const c = i - start;
    unique++;
    sum += v0 * c;
    if (c > maxCount) {
      maxCount = c;
      majority = v0;
    }
    if (c < minCount) {
      minCount = c;
      minority = v0;
    }
    v0 = v;
    start = i;
  }
  out[0] = unique;
  out[1] = sum;
  out[2] = majority;
  out[3] = minority;
  return out;
}

/**
 * The first value whose cumulative count reaches q·n (numpy searchsorted 'left' on the cumulative
 * counts of the distinct values, as rio-tiler's weighted quantile with unit weights): the value at
 * 0-based position ceil(q·n) − 1. q > 1 would index past the end in the reference (an error
 * there): the largest value.
 */
function quantile(vals: ArrayLike<number>, q: number): number {
  const n = vals.length;
  if (n === 0) return NaN;
  return vals[Math.min(Math.max(Math.ceil(q * n) - 1, 0), n - 1)];
}

/** Σ count·(v − mean)² over the runs of equal values, in ascending order. */
function squaredDeviations(vals: Float32Array | Int32Array | Uint32Array, mean: number): number {
  const n = vals.length;
  let ss = 0;
  let v0 = vals[0];
  let start = 0;
  for (let i = 1; i <= n; i++) {
    const v = i < n ? vals[i] : NaN;
    if (v === v0) continue;
    const dv = v0 - mean;
    ss += (i - start) * dv * dv;
    v0 = v;
    start = i;
  }
  return ss;
}
