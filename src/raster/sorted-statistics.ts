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
import { sortValidBits32 } from './sort-keys32.ts';

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
    const bits = sortValidBits32(
      values,
      mask,
      dtype,
      new Uint32Array(scratchA.buffer, scratchA.byteOffset, npix),
      new Uint32Array(scratchB.buffer, scratchB.byteOffset, npix),
    );
    return walkSortedValues(asValues(bits, dtype), dtype, percentiles, bins, range);
  } finally {
    BUFFER_POOL.release(scratchA.buffer, scratchB.buffer);
  }
}

/** The sorted values' bits (sortValidBits32) viewed as values of `dtype`. */
function asValues(bits: Uint32Array, dtype: DType): Float32Array | Int32Array | Uint32Array {
  if (dtype === 'float32') return new Float32Array(bits.buffer, bits.byteOffset, bits.length);
  if (dtype === 'int32') return new Int32Array(bits.buffer, bits.byteOffset, bits.length);
  return bits;
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
  const r = runs(vals);
  const mean = n > 0 ? r[SUM] / n : NaN;
  return {
    min: n > 0 ? vals[0] : NaN,
    max: n > 0 ? vals[n - 1] : NaN,
    mean,
    count: n,
    sum: r[SUM],
    std: n > 0 ? Math.sqrt(squaredDeviations(vals, mean) / n) : NaN,
    median: quantile(vals, 0.5),
    majority: r[MAJORITY],
    minority: r[MINORITY],
    unique: r[UNIQUE],
    histogram,
    percentiles: percentiles.map((p) => quantile(vals, p / 100)),
    validPixels: n,
  };
}

/**
 * Values per call of the chunk functions below. Why chunks: V8 compiles a long loop while it runs
 * (on-stack replacement), and that code keeps the doubles carried from one iteration to the next
 * (the current value, the running sum) as heap numbers, one allocation each: 4 ms and ~14
 * scavenges per 450k float32 values, against 0.65 ms and none for the same loop in a function
 * called once per chunk, which V8 soon compiles as a whole. The state goes from chunk to chunk in
 * a Float64Array, so the arithmetic and its order are those of one loop over all the values.
 */
const CHUNK = 4096;

// runs' state: [sum, majority, minority, unique, largest count, smallest count, start of the open run]
const SUM = 0;
const MAJORITY = 1;
const MINORITY = 2;
const UNIQUE = 3;
const MAX_COUNT = 4;
const MIN_COUNT = 5;
const START = 6;
const RUNS = new Float64Array(7);

/** Sum, majority, minority (the first of their counts) and unique of sorted values, in RUNS. */
function runs(vals: Float32Array | Int32Array | Uint32Array): Float64Array {
  const n = vals.length;
  RUNS.set([0, NaN, NaN, 0, 0, n + 1, 0]);
  // the run [start, i) holds vals[start]; the NaN after the last value closes the last run
  for (let from = 1; from <= n; from += CHUNK) runsChunk(vals, from, Math.min(from + CHUNK, n + 1), RUNS);
  return RUNS;
}

function runsChunk(vals: Float32Array | Int32Array | Uint32Array, from: number, to: number, st: Float64Array): void {
  const n = vals.length;
  let sum = st[SUM];
  let unique = st[UNIQUE];
  let maxCount = st[MAX_COUNT];
  let minCount = st[MIN_COUNT];
  let start = st[START];
  let v0 = vals[start];
  for (let i = from; i < to; i++) {
    const v = i < n ? vals[i] : NaN;
    if (v === v0) continue;
    const c = i - start;
    unique++;
    sum += v0 * c;
    if (c > maxCount) {
      maxCount = c;
      st[MAJORITY] = v0;
    }
    if (c < minCount) {
      minCount = c;
      st[MINORITY] = v0;
    }
    v0 = v;
    start = i;
  }
  st[SUM] = sum;
  st[UNIQUE] = unique;
  st[MAX_COUNT] = maxCount;
  st[MIN_COUNT] = minCount;
  st[START] = start;
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

// squaredDeviations' state: [Σ, start of the open run]
const SS = new Float64Array(2);

/** Σ count·(v − mean)² over the runs of equal values, in ascending order. */
function squaredDeviations(vals: Float32Array | Int32Array | Uint32Array, mean: number): number {
  const n = vals.length;
  SS[0] = 0;
  SS[1] = 0;
  for (let from = 1; from <= n; from += CHUNK) squaredDeviationsChunk(vals, from, Math.min(from + CHUNK, n + 1), mean, SS);
  return SS[0];
}

function squaredDeviationsChunk(vals: Float32Array | Int32Array | Uint32Array, from: number, to: number, mean: number, st: Float64Array): void {
  const n = vals.length;
  let ss = st[0];
  let start = st[1];
  let v0 = vals[start];
  for (let i = from; i < to; i++) {
    const v = i < n ? vals[i] : NaN;
    if (v === v0) continue;
    const dv = v0 - mean;
    ss += (i - start) * dv * dv;
    v0 = v;
    start = i;
  }
  st[0] = ss;
  st[1] = start;
}
