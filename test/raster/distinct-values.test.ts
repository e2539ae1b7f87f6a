/**
 * distinctValues on bands large enough for the 32-bit radix path (float32 with NaN/±0/±Inf,
 * int32, uint32): the sorted distinct values and their counts equal a plain sort-and-count of the
 * valid values (numpy.unique's definition: NaN/Inf and masked pixels left out, -0 and +0 one value).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distinctValues } from '../../src/raster/distinct-values.ts';
import type { DType, TypedArray } from '../../src/dtype.ts';

function reference(values: TypedArray, mask: Uint8Array): { keys: number[]; counts: number[] } {
  const valid: number[] = [];
  for (let i = 0; i < values.length; i++) if (mask[i] !== 0 && Number.isFinite(values[i])) valid.push(values[i] === 0 ? 0 : values[i]);
  valid.sort((a, b) => a - b);
  const keys: number[] = [];
  const counts: number[] = [];
  for (const v of valid) {
    if (keys.length > 0 && keys[keys.length - 1] === v) counts[counts.length - 1]++;
    else {
      keys.push(v);
      counts.push(1);
    }
  }
  return { keys, counts };
}

const n = 300 * 301;
let seed = 7;
const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const mask = Uint8Array.from({ length: n }, () => (rand() < 0.1 ? 0 : 255));
const f32 = Float32Array.from({ length: n }, (_, i) => {
  const r = rand();
  if (r < 0.2) return NaN;
  if (r < 0.22) return i % 2 ? -0 : 0;
  if (r < 0.23) return i % 2 ? Infinity : -Infinity;
  if (r < 0.5) return Math.round(r * 40) - 20; // repeated values
  return (rand() - 0.5) * 1e6 * (r < 0.6 ? 1e-30 : 1); // many distinct, tiny and large, both signs
});
const i32 = Int32Array.from({ length: n }, () => Math.round((rand() - 0.5) * 2 ** 31 * (rand() < 0.5 ? 1 : 1e-6)));
const u32 = Uint32Array.from({ length: n }, () => Math.round(rand() * (rand() < 0.5 ? 2 ** 32 - 1 : 1000)));

for (const [dtype, values] of [
  ['float32', f32],
  ['int32', i32],
  ['uint32', u32],
] as Array<[DType, TypedArray]>) {
  test(`distinctValues ${dtype}, ${n} pixels: the sorted distinct values and counts of the valid ones`, () => {
    const d = distinctValues(values, mask, undefined, dtype);
    const ref = reference(values, mask);
    assert.equal(d.n, ref.keys.length);
    assert.equal(
      d.validPixels,
      ref.counts.reduce((a, b) => a + b, 0),
    );
    assert.deepEqual(
      Array.from(d.keys.subarray(0, d.n), (v) => (v === 0 ? 0 : v)),
      ref.keys,
    );
    assert.deepEqual(Array.from(d.counts.subarray(0, d.n)), ref.counts);
    assert.equal(d.weights, null);
  });
}

// 8/16-bit bands count into scratch the module keeps between calls: each call must see it empty.
const u16 = Uint16Array.from({ length: n }, () => Math.floor(rand() * (rand() < 0.5 ? 65536 : 50)));
const i16 = Int16Array.from({ length: n }, () => Math.floor((rand() - 0.5) * (rand() < 0.5 ? 65536 : 50)));
const i8 = Int8Array.from({ length: n }, () => Math.floor((rand() - 0.5) * 256));
const u8 = Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
const coverage = Float32Array.from({ length: n }, () => (rand() < 0.3 ? 1 : Math.fround(rand())));

/** Summed weights per key, in pixel order (the order distinctValues sums them in). */
function referenceWeights(values: TypedArray, keys: number[]): number[] {
  const sums = new Map<number, number>(keys.map((k) => [k, 0]));
  for (let i = 0; i < values.length; i++) if (mask[i] !== 0) sums.set(values[i]!, sums.get(values[i]!)! + coverage[i]!);
  return keys.map((k) => sums.get(k)!);
}

test('distinctValues 8/16-bit, repeated calls with and without coverage: counts and weights of each call alone', () => {
  for (let round = 0; round < 2; round++) {
    for (const [dtype, values] of [
      ['uint16', u16],
      ['int16', i16],
      ['int8', i8],
      ['uint8', u8],
    ] as Array<[DType, TypedArray]>) {
      const ref = reference(values, mask);
      for (const cov of [undefined, coverage]) {
        const d = distinctValues(values, mask, cov, dtype);
        assert.deepEqual(Array.from(d.keys), ref.keys, `${dtype} keys`);
        assert.deepEqual(Array.from(d.counts), ref.counts, `${dtype} counts`);
        assert.equal(
          d.validPixels,
          mask.reduce((a, m) => a + (m !== 0 ? 1 : 0), 0),
        );
        if (cov) assert.deepEqual(Array.from(d.weights!), referenceWeights(values, ref.keys), `${dtype} weights`);
        else assert.equal(d.weights, null);
      }
    }
  }
});
