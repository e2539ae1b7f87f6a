/**
 * Per-band statistics with rio-tiler's `get_array_statistics` semantics (spec §3.2, §8.3).
 *
 * 32-bit bands without coverage (float data, nearly one distinct value per pixel) are walked
 * as sorted keys without a distinct-value table (raster/sorted-statistics.ts). Otherwise
 * everything is derived from the sorted distinct valid values with their pixel counts and summed
 * coverage weights: small-integer dtypes (8/16-bit) are counted in a direct-index array, other
 * dtypes are copied as sortable 32/64-bit keys and radix-sorted together with their weights.
 * No per-pixel allocation. Sum, mean, std and the weighted quantiles are computed per distinct
 * value, which gives numpy's results up to float64 rounding.
 *
 * Accumulation is float64. The reference multiplies the data by float32 coverage (POST) in
 * float32 and sums with numpy's pairwise float32 sum; here sums are float64 (more accurate,
 * equal to the reference when the coverage is float64, e.g. GET's all-ones coverage).
 */
import { Errors } from '../errors.ts';
import { histogramOfDistinct, type HistogramBins } from './histogram.ts';
import { allocate, dtypeOf, isFloat, type DType, type TypedArray } from '../dtype.ts';
import { pyRound } from '../util/python.ts';
import { distinctValues, type Distinct } from './distinct-values.ts';
import { hasSortedStatistics, sortedStatistics } from './sorted-statistics.ts';

export interface BandStatistics {
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
  histogram: [number[], number[]];
  valid_percent: number;
  masked_pixels: number;
  valid_pixels: number;
  [percentile: `percentile_${number}`]: number;
}

export interface StatisticsOptions {
  /** Treat values as categories: histogram = [counts, categories] instead of numpy.histogram. */
  categorical?: boolean;
  /** Categories to report (cast to the data dtype, like numpy `astype`); default: every distinct value. */
  categories?: readonly number[];
  /** Percentiles to report, default [2, 98]. Keys are `percentile_<trunc(p)>`. */
  percentiles?: readonly number[];
  /** numpy.histogram `bins`: a bin count or explicit edges. Default 10. */
  histogramBins?: HistogramBins;
  /** numpy.histogram `range`. */
  histogramRange?: readonly [number, number];
  /**
   * Per-pixel weights in [0, 1] (POST statistics coverage fractions). Default: all ones. Not
   * written once given here: its count of non-zero weights is kept per array (`coveredPixels`).
   */
  coverage?: Float32Array | Float64Array;
}

/** Non-zero weights of each coverage array seen: a time series gives every step one shared array (CoverageMemo). */
const coveredCounts = new WeakMap<Float32Array | Float64Array, number>();

/** Pixels of `coverage` with a non-zero weight, counted once per array. */
function coveredPixels(coverage: Float32Array | Float64Array): number {
  let n = coveredCounts.get(coverage);
  if (n === undefined) {
    n = 0;
    for (let i = 0; i < coverage.length; i++) if (coverage[i] !== 0) n++;
    coveredCounts.set(coverage, n);
  }
  return n;
}

/**
 * Statistics of one band. `mask`: 255 (any non-zero) = valid, 0 = masked. NaN and ±Inf are
 * always masked. Values that cannot be computed (no valid pixel) are NaN (the HTTP layer prints null).
 */
export function bandStatistics(values: TypedArray, mask: Uint8Array, options: StatisticsOptions = {}): BandStatistics {
  const npix = values.length;
  if (mask.length !== npix) throw Errors.internal(`mask length ${mask.length} != values length ${npix}`);
  const coverage = options.coverage;
  if (coverage && coverage.length !== npix) throw Errors.internal(`coverage length ${coverage.length} != values length ${npix}`);
  const dtype = dtypeOf(values);
  const percentiles = options.percentiles && options.percentiles.length > 0 ? options.percentiles : [2, 98];
  const validPercentOf = (validPixels: number): number => {
    const coveragePixels = coverage ? coveredPixels(coverage) : npix;
    return coveragePixels === 0 ? 0 : pyRound(Math.min(validPixels / coveragePixels, 1) * 100, 2);
  };

  if (!coverage && !options.categorical && hasSortedStatistics(dtype)) {
    const s = sortedStatistics(values, mask, dtype, percentiles, options.histogramBins ?? 10, options.histogramRange);
    const { histogram, validPixels, percentiles: pvalues, ...rest } = s;
    const out: BandStatistics = {
      ...rest,
      histogram: [histogram.counts, histogram.edges],
      valid_percent: validPercentOf(validPixels),
      masked_pixels: npix - validPixels,
      valid_pixels: validPixels,
    };
    for (let i = 0; i < percentiles.length; i++) out[`percentile_${Math.trunc(percentiles[i])}`] = pvalues[i];
    return out;
  }

  const d = distinctValues(values, mask, coverage, dtype);
  const { keys, counts, n, validPixels } = d;
  const weights = d.weights ?? counts;

  const validPercent = validPercentOf(validPixels);

  let histogram: [number[], number[]];
  if (options.categorical) histogram = categoricalHistogram(d, dtype, options.categories);
  else {
    const h = histogramOfDistinct(keys, counts, n, dtype, options.histogramBins ?? 10, options.histogramRange);
    histogram = [h.counts, h.edges];
  }

  let count = 0;
  let sum = 0;
  for (let k = 0; k < n; k++) {
    count += weights[k];
    sum += keys[k] * weights[k];
  }
  let mean = NaN;
  let std = NaN;
  let median = NaN;
  let majority = NaN;
  let minority = NaN;
  let min = NaN;
  let max = NaN;
  const pvalues: number[] = percentiles.map(() => NaN);
  if (n > 0) {
    min = keys[0];
    max = keys[n - 1];
    mean = sum / count;
    if (count > 0) {
      let ss = 0;
      for (let k = 0; k < n; k++) {
        const dv = keys[k] - mean;
        ss += weights[k] * dv * dv;
      }
      std = Math.sqrt(ss / count);
    }
    // Weighted quantiles: first value whose cumulative weight reaches q·Σw (left-sided search).
    const cum = new Float64Array(n);
    let c = 0;
    for (let k = 0; k < n; k++) cum[k] = c += weights[k];
    median = quantile(keys, cum, n, 0.5);
    for (let i = 0; i < percentiles.length; i++) pvalues[i] = quantile(keys, cum, n, percentiles[i] / 100);
    let maxK = 0;
    let minK = 0;
    for (let k = 1; k < n; k++) {
      if (counts[k] > counts[maxK]) maxK = k;
      if (counts[k] < counts[minK]) minK = k;
    }
    majority = keys[maxK];
    minority = keys[minK];
  }

  const out: BandStatistics = {
    min,
    max,
    mean,
    count,
    sum,
    std,
    median,
    majority,
    minority,
    unique: n,
    histogram,
    valid_percent: validPercent,
    masked_pixels: npix - validPixels,
    valid_pixels: validPixels,
  };
  for (let i = 0; i < percentiles.length; i++) out[`percentile_${Math.trunc(percentiles[i])}`] = pvalues[i];
  return out;
}

/** First key whose cumulative weight is >= q·total (numpy searchsorted 'left' on the cumsum). */
function quantile(keys: Float64Array, cum: Float64Array, n: number, q: number): number {
  const t = q * cum[n - 1];
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cum[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  // q > 1 would index past the end in the reference (an error there); clamp to the largest value.
  return keys[Math.min(lo, n - 1)];
}

function categoricalHistogram(d: Distinct, dtype: DType, categories: readonly number[] | undefined): [number[], number[]] {
  if (!categories || categories.length === 0) {
    return [Array.from(d.counts.subarray(0, d.n)), Array.from(d.keys.subarray(0, d.n))];
  }
  // numpy.array(categories).astype(dtype): truncation and wrap-around for integers, rounding to float32.
  const cast = allocate(dtype, categories.length);
  for (let i = 0; i < categories.length; i++) cast[i] = isFloat(dtype) ? categories[i] : Math.trunc(categories[i]);
  const cats = Array.from(cast, Number);
  const counts = cats.map((v) => {
    let lo = 0;
    let hi = d.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (d.keys[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo < d.n && d.keys[lo] === v ? d.counts[lo] : 0;
  });
  return [counts, cats];
}
