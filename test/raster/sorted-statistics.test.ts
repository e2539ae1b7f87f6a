/**
 * Statistics of 32-bit bands without coverage (raster/sorted-statistics.ts: radix-sorted keys
 * walked run by run, quantiles by position, histogram by binary searches) against exact values
 * from a plain sort of the valid values, and against the distinct-value path (the same band with
 * an all-ones coverage), on bands large enough for the radix sort and on small ones.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DType, TypedArray } from '../../src/dtype.ts';
import { histogramBinner, histogramOfSorted } from '../../src/raster/histogram.ts';
import { bandStatistics, type BandStatistics } from '../../src/raster/statistics.ts';

let seed = 11;
const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;

function bands(n: number): Array<[DType, TypedArray, Uint8Array]> {
  const mask = Uint8Array.from({ length: n }, () => (rand() < 0.1 ? 0 : 255));
  const f32 = Float32Array.from({ length: n }, (_, i) => {
    const r = rand();
    if (r < 0.2) return NaN;
    if (r < 0.22) return i % 2 ? -0 : 0;
    if (r < 0.23) return i % 2 ? Infinity : -Infinity;
    if (r < 0.5) return Math.round(r * 40) - 20; // repeated values
    return (rand() - 0.5) * 1000; // nearly all distinct
  });
  const i32 = Int32Array.from({ length: n }, () => Math.round((rand() - 0.5) * (rand() < 0.5 ? 2 ** 31 : 500)));
  const u32 = Uint32Array.from({ length: n }, () => Math.round(rand() * (rand() < 0.5 ? 2 ** 32 - 1 : 300)));
  return [
    ['float32', f32, mask],
    ['int32', i32, mask],
    ['uint32', u32, mask],
  ];
}

/** Exact expectations from a plain sort of the valid (finite, unmasked) values. */
function reference(values: TypedArray, mask: Uint8Array, dtype: DType, percentiles: number[]) {
  const valid: number[] = [];
  for (let i = 0; i < values.length; i++) if (mask[i] !== 0 && Number.isFinite(values[i])) valid.push(values[i]);
  valid.sort((a, b) => a - b);
  const n = valid.length;
  const runs: Array<[number, number]> = [];
  for (const v of valid) {
    if (runs.length > 0 && runs[runs.length - 1][0] === v) runs[runs.length - 1][1]++;
    else runs.push([v, 1]);
  }
  let maj = runs[0];
  let min = runs[0];
  for (const r of runs) {
    if (r[1] > maj[1]) maj = r;
    if (r[1] < min[1]) min = r;
  }
  // rio-tiler's quantile with unit weights: the first value whose cumulative count reaches q·n
  const quantile = (q: number): number => valid[Math.min(Math.max(Math.ceil(q * n) - 1, 0), n - 1)];
  const h = histogramBinner(valid[0], valid[n - 1], dtype, 10);
  for (const v of valid) h.add(v, 1); // numpy's arithmetic bin of every value
  const mean = valid.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(valid.reduce((a, v) => a + (v - mean) ** 2, 0) / n);
  return {
    n,
    min: valid[0],
    max: valid[n - 1],
    unique: runs.length,
    majority: maj[0],
    minority: min[0],
    median: quantile(0.5),
    pv: percentiles.map((p) => quantile(p / 100)),
    histogram: [h.counts, h.edges],
    mean,
    std,
  };
}

const near = (got: number, want: number, what: string): void =>
  assert.ok(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: ${got} vs ${want}`);

for (const [size, label] of [
  [300 * 301, 'radix-sorted'],
  [50 * 61, 'small'],
] as const) {
  for (const [dtype, values, mask] of bands(size)) {
    test(`sorted statistics, ${label} ${dtype} band of ${size} pixels: exact values of a plain sort`, () => {
      const percentiles = [2, 98, 0, 100, 33.3, 50];
      const s = bandStatistics(values, mask, { percentiles });
      const r = reference(values, mask, dtype, percentiles);
      assert.equal(s.valid_pixels, r.n);
      assert.equal(s.count, r.n);
      assert.equal(s.masked_pixels, size - r.n);
      assert.equal(s.min, r.min);
      assert.equal(s.max, r.max);
      assert.equal(s.unique, r.unique);
      assert.equal(s.majority, r.majority);
      assert.equal(s.minority, r.minority);
      assert.equal(s.median, r.median);
      assert.deepEqual(
        percentiles.map((p) => s[`percentile_${Math.trunc(p)}`]),
        r.pv,
      );
      assert.deepEqual(s.histogram, r.histogram);
      near(s.mean, r.mean, 'mean');
      near(s.std, r.std, 'std');
    });

    test(`sorted statistics, ${label} ${dtype}: the same numbers as the distinct-value path (all-ones coverage)`, () => {
      const opts = { percentiles: [5, 95], histogramBins: [-300, -10, 0, 0, 7, 1e9] };
      const plain = bandStatistics(values, mask, opts);
      const viaDistinct = bandStatistics(values, mask, { ...opts, coverage: new Float64Array(values.length).fill(1) });
      assert.deepEqual(plain, viaDistinct as BandStatistics);
    });
  }
}

test('sorted statistics, radix-sized bands whose keys share a digit (passes skipped, values decoded by the other pass or in place)', () => {
  const n = 300 * 301;
  const mask = new Uint8Array(n).fill(255);
  const cases: Array<[string, TypedArray, DType]> = [
    ['constant float32 (no pass)', new Float32Array(n).fill(-3.25), 'float32'],
    ['small non-negative integers as float32 (one low digit)', Float32Array.from({ length: n }, () => Math.round(rand() * 60)), 'float32'],
    ['float32 in [1, 1.0078) (one high digit)', Float32Array.from({ length: n }, () => 1 + Math.floor(rand() * 65536) * 2 ** -23), 'float32'],
    ['negative float32 in one high digit', Float32Array.from({ length: n }, () => -1 - Math.floor(rand() * 65536) * 2 ** -23), 'float32'],
    ['int32 multiples of 65536 (one low digit)', Int32Array.from({ length: n }, () => Math.round((rand() - 0.5) * 2000) * 65536), 'int32'],
    ['int32 in one high digit', Int32Array.from({ length: n }, () => Math.floor(rand() * 65536) - 65536 * 3), 'int32'],
    ['constant uint32 (no pass)', new Uint32Array(n).fill(4e9), 'uint32'],
  ];
  for (const [what, values, dtype] of cases) {
    const s = bandStatistics(values, mask, { percentiles: [2, 50, 98] });
    const r = reference(values, mask, dtype, [2, 50, 98]);
    assert.deepEqual(
      [s.min, s.max, s.unique, s.majority, s.minority, s.median, s.percentile_2, s.percentile_50, s.percentile_98, s.histogram],
      [r.min, r.max, r.unique, r.majority, r.minority, r.median, ...r.pv, r.histogram],
      what,
    );
    near(s.mean, r.mean, `${what} mean`);
    near(s.std, r.std, `${what} std`);
  }
});

test('histogramOfSorted: bins from binary searches equal numpy arithmetic per value, and the fallback when edges are too fine', () => {
  const sorted = Float32Array.from({ length: 5000 }, () => Math.fround((rand() - 0.3) * 77)).sort();
  for (const [bins, dtype] of [
    [10, 'float32'],
    [7, 'float64'],
    [1000, 'float32'],
  ] as const) {
    const h = histogramBinner(sorted[0], sorted[sorted.length - 1], dtype, bins);
    for (const v of sorted) h.add(v, 1);
    assert.deepEqual(histogramOfSorted(sorted, dtype, bins), { counts: h.counts, edges: h.edges });
  }
  // values a million times the bin width from zero: float32 edges too coarse to sweep safely
  const big = Float32Array.from({ length: 3000 }, (_, i) => Math.fround(1e6 + (i % 97) * 0.0625)).sort();
  const h = histogramBinner(big[0], big[big.length - 1], 'float32', 50);
  assert.equal(h.byEdges, false);
  for (const v of big) h.add(v, 1);
  assert.deepEqual(histogramOfSorted(big, 'float32', 50), { counts: h.counts, edges: h.edges });
});
