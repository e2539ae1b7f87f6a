/** Band descriptions as numpy prints coordinate values (str()), checked against values Python printed. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pythonFloat } from '../../../src/formats/array/band-labels.ts';

test('pythonFloat is str() of a numpy float64/float32', () => {
  // [str(x) for x in [1000.0, 1e-05, 1.5e16, 0.1, -2.5, 123456.789]]
  assert.deepEqual(
    [1000.0, 1e-5, 1.5e16, 0.1, -2.5, 123456.789].map((x) => pythonFloat(x)),
    ['1000.0', '1e-05', '1.5e+16', '0.1', '-2.5', '123456.789'],
  );
  // str(np.float32(0.1)), str(np.float32(1013.25)), str(np.float32(3.3))
  assert.deepEqual(
    [0.1, 1013.25, 3.3].map((x) => pythonFloat(Math.fround(x), true)),
    ['0.1', '1013.25', '3.3'],
  );
});
