import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { granuleArrayLayer, interpolateSel } from '../../src/http/factories/granule-array-params.ts';

test('{datetime} in sel: the start of temporal, as Python isoformat prints it (titiler-cmr §6.3 cases)', () => {
  assert.deepEqual(interpolateSel(['time={datetime}', 'lev=1000'], '2025-09-23T00:00:00+00:00'), ['time=2025-09-23T00:00:00+00:00', 'lev=1000']);
  assert.deepEqual(interpolateSel(['start_time={datetime}'], '2025-09-23T00:00:00Z'), ['start_time=2025-09-23T00:00:00+00:00']);
  assert.deepEqual(interpolateSel(['time=nearest::{datetime}'], '2010-01-01T00:00:00/2010-01-31T00:00:00'), ['time=nearest::2010-01-01T00:00:00']);
  assert.deepEqual(interpolateSel(['time={datetime}'], '2010-01-01'), ['time=2010-01-01T00:00:00']);
  assert.deepEqual(interpolateSel(['lev=1000'], '2010-01-01'), ['lev=1000']);
  assert.deepEqual(interpolateSel(undefined, undefined), []);
  assert.throws(
    () => interpolateSel(['lev=1000'], undefined),
    (e) => isRastileError(e, 'BadRequest') && e.message === "A 'temporal' parameter is required",
  );
  assert.throws(() => interpolateSel(['time={datetime}'], '../2010-01-01'), /open start/);
});

test('expressions naming variables are translated to their band positions', () => {
  const { layer, selection } = granuleArrayLayer({ variables: ['sst', 'ice'], decode_times: true, expression: 'sst*(1-ice)', temporal: undefined });
  assert.deepEqual(layer.expression?.bandIndexes, [1, 2]);
  assert.deepEqual(selection, { variables: ['sst', 'ice'], group: undefined, sel: [], decodeTimes: true, bandLabels: 'variable-index' });
});
