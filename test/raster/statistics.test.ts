import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bandStatistics, type BandStatistics, type StatisticsOptions } from '../../src/raster/statistics.ts';
import { pyRound } from '../../src/util/python.ts';
import { loadArray, loadJson, num, type ArrayRef } from './fixture-data.ts';

interface Case {
  name: string;
  data: ArrayRef;
  mask: ArrayRef;
  coverage?: ArrayRef;
  options: {
    categorical?: boolean;
    categories?: number[];
    percentiles?: number[];
    histogramBins?: number | number[];
    histogramRange?: [number, number];
  };
  expected: Record<string, number | string | [number[], Array<number | string>]>;
}

const { cases } = loadJson<{ cases: Case[] }>('statistics.json');

/** Sums, means and std differ from numpy's pairwise float64 summation by rounding only. */
const APPROX = new Set(['mean', 'sum', 'std', 'count']);

function assertClose(got: number, want: number, key: string): void {
  if (Number.isNaN(want)) return assert.ok(Number.isNaN(got), `${key}: ${got} should be NaN`);
  if (!APPROX.has(key)) return assert.equal(got, want, key);
  assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${key}: ${got} vs ${want}`);
}

for (const c of cases) {
  test(`statistics vs numpy reference: ${c.name}`, () => {
    const values = loadArray(c.data);
    const mask = loadArray(c.mask) as Uint8Array;
    const options: StatisticsOptions = { ...c.options };
    if (c.coverage) options.coverage = loadArray(c.coverage) as Float32Array;
    const got = bandStatistics(values, mask, options);
    const keys = Object.keys(c.expected);
    assert.deepEqual(Object.keys(got), keys, 'key order');
    for (const key of keys) {
      const want = c.expected[key];
      const g = got[key as keyof BandStatistics];
      if (key === 'histogram') {
        const [wc, we] = want as [number[], Array<number | string>];
        const [gc, ge] = g as [number[], number[]];
        assert.deepEqual(gc, wc, 'histogram counts');
        assert.deepEqual(ge, we.map(num), 'histogram edges / categories');
      } else {
        assertClose(g as number, num(want as number | string), key);
      }
    }
  });
}

test('pinned example: weights [0.5, 0, 1, 0.25] on [1, 2, 3, 4]', () => {
  const s = bandStatistics(new Float64Array([1, 2, 3, 4]), new Uint8Array(4).fill(255), {
    coverage: new Float32Array([0.5, 0, 1, 0.25]),
  });
  assert.equal(s.min, 1);
  assert.equal(s.max, 4);
  assert.equal(s.count, 1.75);
  assert.equal(s.sum, 4.5);
  assert.ok(Math.abs(s.mean - 4.5 / 1.75) < 1e-15);
  assert.equal(Number(s.mean.toFixed(4)), 2.5714);
  assert.equal(s.median, 3);
  assert.equal(Number(s.std.toFixed(2)), 1.05);
  assert.equal(s.valid_percent, 100);
});

test('pinned example: 3x3 with centre-weighted coverage', () => {
  const s = bandStatistics(new Int32Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), new Uint8Array(9).fill(255), {
    coverage: new Float32Array([0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.25]),
    percentiles: [25, 75],
  });
  assert.equal(s.count, 4);
  assert.equal(s.mean, 5);
  assert.equal(s.median, 5);
  assert.equal(s.percentile_25, 3);
  assert.equal(s.percentile_75, 6);
  assert.equal(s.minority, 1);
  assert.equal(s.majority, 1);
  assert.ok(Math.abs(s.std - Math.sqrt(5)) < 1e-12);
  assert.equal(s.percentile_2, undefined);
});

test('pinned example: masked pixels and zero coverage in valid_percent', () => {
  // [[x, 1], [x, 5]] with coverage [[0, .5], [.75, 1]]: 2 valid of 3 covered pixels
  const s = bandStatistics(new Uint8Array([0, 1, 0, 5]), new Uint8Array([0, 255, 0, 255]), {
    coverage: new Float32Array([0, 0.5, 0.75, 1]),
  });
  assert.equal(s.valid_percent, 66.67);
  assert.equal(s.valid_pixels, 2);
  assert.equal(s.masked_pixels, 2);
  assert.equal(s.count, 1.5);
});

test('one coverage array shared by several calls (a series step each) gives each its own valid_percent', () => {
  const coverage = new Float32Array([0, 0.5, 0.75, 1]); // 3 covered pixels, counted once for the array
  const a = bandStatistics(new Uint8Array([0, 1, 0, 5]), new Uint8Array([0, 255, 0, 255]), { coverage });
  const b = bandStatistics(new Uint16Array([7, 1, 2, 5]), new Uint8Array([255, 255, 255, 255]), { coverage });
  assert.equal(a.valid_percent, 66.67);
  assert.equal(b.valid_percent, 100);
});

test('fully masked 256x256 uint8: count 0, sum 0, the rest NaN', () => {
  const n = 256 * 256;
  const s = bandStatistics(new Uint8Array(n), new Uint8Array(n), {});
  assert.equal(s.count, 0);
  assert.equal(s.sum, 0);
  for (const k of ['min', 'max', 'mean', 'std', 'median', 'majority', 'minority', 'percentile_2', 'percentile_98'] as const) {
    assert.ok(Number.isNaN(s[k]), k);
  }
  assert.equal(s.unique, 0);
  assert.equal(s.valid_pixels, 0);
  assert.equal(s.masked_pixels, n);
  assert.equal(s.valid_percent, 0);
  assert.deepEqual(s.histogram, [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9, 1],
  ]);
});

test('median of an even count is the lower middle value; NaN/Inf are masked', () => {
  const s = bandStatistics(new Float32Array([4, 1, NaN, 3, 2, Infinity, -Infinity]), new Uint8Array(7).fill(255), {});
  assert.equal(s.median, 2);
  assert.equal(s.valid_pixels, 4);
  assert.equal(s.masked_pixels, 3);
  assert.equal(s.unique, 4);
  assert.equal(s.mean, 2.5);
});

test('percentile keys use int(p) and requested order', () => {
  const s = bandStatistics(new Uint16Array([5, 1, 9, 3]), new Uint8Array(4).fill(255), { percentiles: [50.5, 0, 100] });
  assert.deepEqual(Object.keys(s).slice(-3), ['percentile_50', 'percentile_0', 'percentile_100']);
  assert.equal(s.percentile_50, 5);
  assert.equal(s.percentile_0, 1);
  assert.equal(s.percentile_100, 9);
});

test('categorical counts with requested categories cast to the data dtype', () => {
  const s = bandStatistics(new Uint8Array([1, 2, 2, 3, 3, 3]), new Uint8Array(6).fill(255), {
    categorical: true,
    categories: [1, 2, 3, 4],
  });
  assert.deepEqual(s.histogram, [
    [1, 2, 3, 0],
    [1, 2, 3, 4],
  ]);
  const t = bandStatistics(new Int16Array([1, 2, 2]), new Uint8Array(3).fill(255), { categorical: true, categories: [1.5, 2.9] });
  assert.deepEqual(t.histogram, [
    [1, 2],
    [1, 2],
  ]);
});

test('pyRound rounds like Python (exact binary value, ties to even)', () => {
  assert.equal(pyRound(66.66666666666667, 2), 66.67);
  assert.equal(pyRound(0.125, 2), 0.12);
  assert.equal(pyRound(0.375, 2), 0.38);
  assert.equal(pyRound(2.675, 2), 2.67);
  assert.equal(pyRound(100, 2), 100);
  assert.equal(pyRound(99.995, 2), 100);
  assert.equal(pyRound(1.005, 2), 1);
});

test('large uint16 band uses the counting path (10000x1000 stays fast enough to run in a test)', () => {
  const n = 10_000 * 1_000;
  const v = new Uint16Array(n);
  for (let i = 0; i < n; i++) v[i] = (i * 2654435761) % 4096;
  const m = new Uint8Array(n).fill(255);
  const s = bandStatistics(v, m, { percentiles: [2, 98] });
  assert.equal(s.valid_pixels, n);
  assert.equal(s.min, 0);
  assert.equal(s.max, 4095);
  assert.equal(s.unique, 4096);
  assert.equal(
    s.histogram[0].reduce((a, b) => a + b, 0),
    n,
  );
});
