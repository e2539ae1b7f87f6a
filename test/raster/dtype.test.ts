/** dtype helpers and numpy's casts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { representableNodata, roundToRange } from '../../src/dtype.ts';
import { castInt32, castUint8 } from '../../src/raster/numpy-cast.ts';

test('representableNodata: GDAL drops a nodata an integer band cannot hold', () => {
  assert.equal(representableNodata(-10000, 'uint8'), null);
  assert.equal(representableNodata(255, 'uint8'), 255);
  assert.equal(representableNodata(256, 'uint8'), null);
  assert.equal(representableNodata(1.5, 'int16'), null);
  assert.equal(representableNodata(-32768, 'int16'), -32768);
  assert.equal(representableNodata(-10000, 'float32'), -10000);
  assert.ok(Number.isNaN(representableNodata(NaN, 'float64')));
  assert.equal(representableNodata(NaN, 'uint16'), null);
  assert.equal(representableNodata(null, 'int32'), null);
});

test('roundToRange rounds halves up and clamps', () => {
  assert.equal(roundToRange(2.5, 0, 255), 3);
  assert.equal(roundToRange(-2.5, -128, 127), -2);
  assert.equal(roundToRange(300, 0, 255), 255);
  assert.equal(roundToRange(-0.6, 0, 255), 0);
});

test('castUint8 is the low byte of castInt32 (numpy x86-64 astype)', () => {
  for (const v of [0, 1.9, -1.5, 255.9, 300.7, -129.2, 2 ** 31, -(2 ** 31) - 1, NaN, Infinity, -Infinity]) {
    assert.equal(castUint8(v), castInt32(v) & 255, String(v));
  }
  assert.deepEqual([300.7, -1.5, NaN, 2 ** 40].map(castUint8), [44, 255, 0, 0]);
  assert.deepEqual([NaN, 2 ** 31, -2.9].map(castInt32), [-2147483648, -2147483648, -2]);
});
