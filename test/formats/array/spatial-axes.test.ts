import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { outputAxis } from '../../../src/formats/array/spatial-axes.ts';

/** The axis order by a stable sort (ties in index order): what the monotonic fast paths must equal. */
function sortedBySort(values: Float64Array, descending: boolean): number[] {
  const order = Array.from({ length: values.length }, (_, i) => i);
  return order.sort((a, b) => (descending ? values[b] - values[a] : values[a] - values[b]) || a - b);
}

test('outputAxis orders coordinates as a stable sort does (monotonic, reversed, ties, NaN, unsorted)', () => {
  const value = fc.oneof(fc.double({ min: -400, max: 400, noNaN: true }), fc.constantFrom(0, -0, 1, NaN));
  const coords = fc.oneof(
    fc.array(value, { maxLength: 40 }),
    fc.array(value, { maxLength: 40 }).map((a) => a.sort((x, y) => x - y)),
    fc.array(value, { maxLength: 40 }).map((a) => a.sort((x, y) => y - x)),
  );
  fc.assert(
    fc.property(coords, fc.boolean(), fc.boolean(), (list, descending, wrap) => {
      const axis = outputAxis(Float64Array.from(list), descending, wrap, 1);
      const wrapped = list.some((x) => x > 180) && wrap ? list.map((x) => ((((x + 180) % 360) + 360) % 360) - 180) : list;
      const order = sortedBySort(Float64Array.from(wrapped), descending);
      assert.deepEqual([...axis.map], order);
      assert.deepEqual(
        [...axis.centres],
        order.map((i) => wrapped[i]),
      );
    }),
    { numRuns: 2000 },
  );
});

test('outputAxis of an ascending latitude axis read north first is the reversed index', () => {
  const lat = Float64Array.from({ length: 7200 }, (_, i) => -90 + 0.025 * (i + 0.5));
  const y = outputAxis(lat, true, false, 1);
  assert.equal(y.map[0], 7199);
  assert.equal(y.map[7199], 0);
  assert.equal(y.centres[0], lat[7199]);
  assert.equal(y.step, (lat[0] - lat[7199]) / 7199);
});
