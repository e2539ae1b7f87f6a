/**
 * numpy.histogram, bit-for-bit (numpy 1.24 semantics), over a sorted list of distinct values with
 * their multiplicities. Statistics already has the distinct values (it needs them for unique,
 * majority, quantiles), so binning each distinct value once instead of every pixel is much cheaper
 * and gives the same counts. Hand-written because no JS library reproduces numpy's edge and
 * bin-index rounding (float32 edges for float32 data, last bin closed, one-step index correction).
 */
import { Errors } from '../errors.ts';
import type { DType } from '../dtype.ts';

export interface Histogram {
  /** Number of values in each bin (integers). */
  counts: number[];
  /** Bin edges, `counts.length + 1` of them. */
  edges: number[];
}

/** Equal-width bin count, or explicit monotonically increasing bin edges. */
export type HistogramBins = number | readonly number[];

/**
 * Histogram of values given as sorted distinct `keys[0..nKeys)` with multiplicities `counts`.
 * `dtype` is the data type of the values: float32 data gets float32 bin edges, like numpy.
 * Errors (bad bins or range) are thrown as BadRequest with numpy's messages.
 */
export function histogramOfDistinct(
  keys: ArrayLike<number>,
  counts: ArrayLike<number>,
  nKeys: number,
  dtype: DType,
  bins: HistogramBins = 10,
  range?: readonly [number, number],
): Histogram {
  if (typeof bins !== 'number') return histogramWithEdges(keys, counts, nKeys, bins);
  if (!Number.isInteger(bins) || bins < 1) throw Errors.badRequest('`bins` must be positive, when an integer');
  const f32 = dtype === 'float32';

  let first: number;
  let last: number;
  if (range) {
    [first, last] = range;
    if (first > last) throw Errors.badRequest('max must be larger than min in range parameter.');
    if (!Number.isFinite(first) || !Number.isFinite(last)) {
      throw Errors.badRequest(`supplied range of [${first}, ${last}] is not finite`);
    }
  } else if (nKeys === 0) {
    first = 0;
    last = 1;
  } else {
    first = keys[0];
    last = keys[nKeys - 1];
  }
  if (first === last) {
    first -= 0.5;
    last += 0.5;
  }

  const edges = linspaceEdges(first, last, bins, f32);
  const out = new Array<number>(bins).fill(0);
  const lo = edges[0];
  const hi = edges[bins];
  // numpy computes a first guess of the bin index arithmetically (in the edge dtype), then moves
  // it by at most one bin so that edges[i] <= v < edges[i+1] holds (last bin closed).
  const denom = last - first;
  const firstF = f32 ? Math.fround(first) : first;
  const denomF = f32 ? Math.fround(denom) : denom;
  for (let k = 0; k < nKeys; k++) {
    const v = keys[k];
    if (!(v >= lo && v <= hi)) continue;
    let idx: number;
    if (f32) {
      idx = Math.trunc(Math.fround(Math.fround(Math.fround(v - firstF) / denomF) * bins));
    } else {
      idx = Math.trunc(((v - first) / denom) * bins);
    }
    if (idx >= bins) idx = bins - 1;
    if (idx < 0) idx = 0;
    if (v < edges[idx]) idx--;
    if (idx !== bins - 1 && v >= edges[idx + 1]) idx++;
    if (idx < 0) idx = 0;
    out[idx] += counts[k];
  }
  return { counts: out, edges };
}

/** numpy.linspace(first, last, n + 1) in float64, then cast to the bin dtype. */
function linspaceEdges(first: number, last: number, n: number, f32: boolean): number[] {
  const edges = new Array<number>(n + 1);
  const delta = last - first;
  const step = delta / n;
  for (let i = 0; i < n; i++) {
    const y = step === 0 ? (i / n) * delta + first : i * step + first;
    edges[i] = f32 ? Math.fround(y) : y;
  }
  edges[n] = f32 ? Math.fround(last) : last;
  return edges;
}

function histogramWithEdges(keys: ArrayLike<number>, counts: ArrayLike<number>, nKeys: number, edgesIn: readonly number[]): Histogram {
  const edges = edgesIn.map(Number);
  for (let i = 0; i + 1 < edges.length; i++) {
    if (edges[i] > edges[i + 1]) throw Errors.badRequest('`bins` must increase monotonically, when an array');
  }
  const nb = Math.max(edges.length - 1, 0);
  const out = new Array<number>(nb).fill(0);
  if (nb === 0) return { counts: out, edges };
  // Bin i holds edges[i] <= v < edges[i+1]; the last bin also holds v == edges[nb]. With a run of
  // equal edges the values land in the bin after the run (numpy's searchsorted semantics).
  let b = 0;
  for (let k = 0; k < nKeys; k++) {
    const v = keys[k];
    if (v < edges[0] || v > edges[nb]) continue;
    // keys are sorted, so the bin index only moves forward
    while (b < nb - 1 && v >= edges[b + 1]) b++;
    out[b] += counts[k];
  }
  return { counts: out, edges };
}

/** numpy.histogram of a plain array (NaN values must not be present). Convenience for callers without distinct values. */
export function histogram(values: ArrayLike<number>, dtype: DType, bins: HistogramBins = 10, range?: readonly [number, number]): Histogram {
  const sorted = Float64Array.from(values).sort();
  const keys = new Float64Array(sorted.length);
  const counts = new Float64Array(sorted.length);
  let n = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (n > 0 && keys[n - 1] === sorted[i]) counts[n - 1]++;
    else {
      keys[n] = sorted[i];
      counts[n++] = 1;
    }
  }
  return histogramOfDistinct(keys, counts, n, dtype, bins, range);
}
