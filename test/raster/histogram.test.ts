import { test } from 'node:test';
import assert from 'node:assert/strict';
import { histogram, histogramOfDistinct } from '../../src/raster/histogram.ts';
import { dtypeOf } from '../../src/dtype.ts';
import { isRastileError } from '../../src/errors.ts';
import { loadArray, loadJson, num, type ArrayRef } from './fixture-data.ts';

interface Case {
  name: string;
  data: ArrayRef;
  bins: number | number[];
  range: [number, number] | null;
  expected: { counts?: number[]; edges?: Array<number | string>; error?: string };
}

const { cases } = loadJson<{ cases: Case[] }>('histogram.json');

for (const c of cases) {
  test(`numpy.histogram: ${c.name}`, () => {
    const data = loadArray(c.data);
    const run = () => histogram(data, dtypeOf(data), c.bins, c.range ?? undefined);
    if (c.expected.error) {
      assert.throws(run, (err: unknown) => isRastileError(err, 'BadRequest') && (err as Error).message === c.expected.error);
      return;
    }
    const h = run();
    assert.deepEqual(h.counts, c.expected.counts);
    // edges bit-exact (float32 data gets float32-rounded edges, like numpy)
    assert.deepEqual(h.edges, (c.expected.edges as Array<number | string>).map(num));
  });
}

test('histogramOfDistinct weighs each distinct value by its count', () => {
  const h = histogramOfDistinct([1, 2, 10], [5, 1, 2], 3, 'uint8', 3);
  assert.deepEqual(h.counts, [6, 0, 2]);
  assert.deepEqual(h.edges, [1, 4, 7, 10]);
});

test('bins validation uses numpy messages', () => {
  assert.throws(() => histogram([1, 2], 'float64', 0), /`bins` must be positive, when an integer/);
  assert.throws(() => histogram([1, 2], 'float64', [2, 1]), /`bins` must increase monotonically, when an array/);
  assert.throws(() => histogram([1, 2], 'float64', 4, [0, Infinity]), /supplied range of \[0, Infinity\] is not finite/);
});
