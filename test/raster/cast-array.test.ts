import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { castArray } from '../../src/raster/cast-array.ts';

describe('castArray', () => {
  it('converts by value into the wider dtype, and returns the input when the dtype already matches', () => {
    const u8 = Uint8Array.of(0, 7, 255);
    const f32 = castArray(u8, 'float32');
    assert.ok(f32 instanceof Float32Array, 'float32 array');
    assert.deepEqual([...f32], [0, 7, 255], 'values kept');
    const i32 = castArray(Int16Array.of(-32768, -1, 32767), 'int32');
    assert.ok(i32 instanceof Int32Array, 'int32 array');
    assert.deepEqual([...i32], [-32768, -1, 32767], 'signed values kept');
    assert.equal(castArray(u8, 'uint8'), u8, 'same dtype: the input itself');
  });

  it('copy: true always gives a new array the caller may write into', () => {
    const u16 = Uint16Array.of(1, 2, 3);
    const copy = castArray(u16, 'uint16', { copy: true });
    assert.notEqual(copy, u16, 'a new array');
    copy[0] = 99;
    assert.deepEqual([...u16], [1, 2, 3], 'the input is untouched');
  });
});
