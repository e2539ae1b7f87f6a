/**
 * numpy.histogram, bit-for-bit (numpy 1.24 semantics), filled one distinct value (with its
 * multiplicity) at a time. Statistics walks the sorted distinct values anyway (it needs them for
 * unique, majority, quantiles), so binning each distinct value once instead of every pixel is
 * much cheaper and gives the same counts. Hand-written because no JS library reproduces numpy's
 * edge and bin-index rounding (float32 edges for float32 data, last bin closed, one-step index
 * correction).
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

/** A histogram being filled: `add(v, count)` puts `count` values equal to `v` in v's bin (none when v is outside). */
export interface HistogramBinner extends Histogram {
  add(v: number, count: number): void;
  /** `add` for values coming in ascending order (the same bins; cheaper). */
  addAscending(v: number, count: number): void;
  /** Whether each value's bin is the last one whose lower edge is <= it (the last bin closed), as the edges say. */
  readonly byEdges: boolean;
}

/**
 * The bins numpy.histogram uses for values whose smallest and largest are `min` and `max` (NaN
 * when there are none). `dtype` is the data type of the values: float32 data gets float32 bin
 * edges, like numpy. Errors (bad bins or range) are thrown as BadRequest with numpy's messages.
 */
export function histogramBinner(min: number, max: number, dtype: DType, bins: HistogramBins = 10, range?: readonly [number, number]): HistogramBinner {
  if (typeof bins !== 'number') return new EdgeBins(bins);
  if (!Number.isInteger(bins) || bins < 1) throw Errors.badRequest('`bins` must be positive, when an integer');
  let first: number;
  let last: number;
  if (range) {
    [first, last] = range;
    if (first > last) throw Errors.badRequest('max must be larger than min in range parameter.');
    if (!Number.isFinite(first) || !Number.isFinite(last)) {
      throw Errors.badRequest(`supplied range of [${first}, ${last}] is not finite`);
    }
  } else if (Number.isNaN(min)) {
    first = 0;
    last = 1;
  } else {
    first = min;
    last = max;
  }
  if (first === last) {
    first -= 0.5;
    last += 0.5;
  }
  return new EqualWidthBins(first, last, bins, dtype === 'float32');
}

/**
 * numpy computes a first guess of the bin index arithmetically (in the edge dtype), then moves it
 * by at most one bin so that edges[i] <= v < edges[i+1] holds (last bin closed).
 */
class EqualWidthBins implements HistogramBinner {
  readonly counts: number[];
  readonly edges: number[];
  private readonly lo: number;
  private readonly hi: number;
  private readonly firstF: number;
  private readonly denomF: number;
  /** Ascending input: the bin of the previous value. */
  private bin = 0;
  readonly byEdges: boolean;

  constructor(
    private readonly first: number,
    last: number,
    private readonly bins: number,
    private readonly f32: boolean,
  ) {
    this.edges = linspaceEdges(first, last, bins, f32);
    this.counts = new Array<number>(bins).fill(0);
    this.lo = this.edges[0];
    this.hi = this.edges[bins];
    const denom = last - first;
    this.firstF = f32 ? Math.fround(first) : first;
    this.denomF = f32 ? Math.fround(denom) : denom;
    // numpy's guess is within one bin of the bin the edges define when the rounding of the guess
    // and of the edges (a few units in the last place of the edge dtype, relative to the
    // largest edge magnitude, in units of the bin width) stays well under one bin; the
    // correction then lands on that bin, which an ascending sweep of the edges finds directly
    const scale = (bins * Math.max(Math.abs(first), Math.abs(last), denom)) / denom;
    let increasing = true;
    for (let i = 0; i < bins; i++) if (!(this.edges[i] < this.edges[i + 1])) increasing = false;
    this.byEdges = increasing && scale < (f32 ? 2 ** 12 : 2 ** 40);
  }

  addAscending(v: number, count: number): void {
    if (!this.byEdges) return this.add(v, count);
    if (!(v >= this.lo && v <= this.hi)) return;
    const edges = this.edges;
    const last = this.bins - 1;
    let b = this.bin;
    while (b < last && v >= edges[b + 1]) b++;
    this.bin = b;
    this.counts[b] += count;
  }

  add(v: number, count: number): void {
    if (!(v >= this.lo && v <= this.hi)) return;
    const bins = this.bins;
    const edges = this.edges;
    let idx: number;
    if (this.f32) idx = Math.trunc(Math.fround(Math.fround(Math.fround(v - this.firstF) / this.denomF) * bins));
    else idx = Math.trunc(((v - this.first) / this.denomF) * bins);
    if (idx >= bins) idx = bins - 1;
    if (idx < 0) idx = 0;
    if (v < edges[idx]) idx--;
    if (idx !== bins - 1 && v >= edges[idx + 1]) idx++;
    if (idx < 0) idx = 0;
    this.counts[idx] += count;
  }
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

/**
 * Explicit edges: bin i holds edges[i] <= v < edges[i+1]; the last bin also holds v == edges[nb].
 * With a run of equal edges the values land in the bin after the run (numpy's searchsorted
 * semantics): the last bin whose lower edge is <= v.
 */
class EdgeBins implements HistogramBinner {
  readonly counts: number[];
  readonly edges: number[];
  readonly byEdges = true;
  private bin = 0;

  constructor(edgesIn: readonly number[]) {
    const edges = edgesIn.map(Number);
    for (let i = 0; i + 1 < edges.length; i++) {
      if (edges[i] > edges[i + 1]) throw Errors.badRequest('`bins` must increase monotonically, when an array');
    }
    this.edges = edges;
    this.counts = new Array<number>(Math.max(edges.length - 1, 0)).fill(0);
  }

  add(v: number, count: number): void {
    const edges = this.edges;
    const nb = this.counts.length;
    if (nb === 0 || v < edges[0] || v > edges[nb]) return;
    let lo = 0;
    let hi = nb - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (edges[mid] <= v) lo = mid;
      else hi = mid - 1;
    }
    this.counts[lo] += count;
  }

  addAscending(v: number, count: number): void {
    const edges = this.edges;
    const nb = this.counts.length;
    if (nb === 0 || v < edges[0] || v > edges[nb]) return;
    let b = this.bin;
    while (b < nb - 1 && v >= edges[b + 1]) b++;
    this.bin = b;
    this.counts[b] += count;
  }
}

/** Histogram of values given as sorted distinct `keys[0..nKeys)` with multiplicities `counts`. */
export function histogramOfDistinct(
  keys: ArrayLike<number>,
  counts: ArrayLike<number>,
  nKeys: number,
  dtype: DType,
  bins: HistogramBins = 10,
  range?: readonly [number, number],
): Histogram {
  const h = histogramBinner(nKeys > 0 ? keys[0] : NaN, nKeys > 0 ? keys[nKeys - 1] : NaN, dtype, bins, range);
  for (let k = 0; k < nKeys; k++) h.addAscending(keys[k], counts[k]);
  return { counts: h.counts, edges: h.edges };
}

/**
 * numpy.histogram of ascending values (no NaN): when the bins are what the edges say, each bin's
 * count is the distance between two binary searches (a few dozen steps for the whole histogram);
 * otherwise value by value.
 */
export function histogramOfSorted(sorted: ArrayLike<number>, dtype: DType, bins: HistogramBins = 10, range?: readonly [number, number]): Histogram {
  const n = sorted.length;
  const h = histogramBinner(n > 0 ? sorted[0] : NaN, n > 0 ? sorted[n - 1] : NaN, dtype, bins, range);
  const nb = h.counts.length;
  if (!h.byEdges) {
    for (let i = 0; i < n; i++) h.add(sorted[i], 1);
  } else if (nb > 0) {
    const e = h.edges;
    // bin b: e[b] <= v < e[b+1]; the last bin also holds v == e[nb]
    let from = lowerBound(sorted, e[0]);
    for (let b = 0; b < nb; b++) {
      const to = b < nb - 1 ? lowerBound(sorted, e[b + 1]) : upperBound(sorted, e[nb]);
      h.counts[b] = to - from;
      from = to;
    }
  }
  return { counts: h.counts, edges: h.edges };
}

/** The first index whose value is >= x. */
function lowerBound(a: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose value is > x. */
function upperBound(a: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
