import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScratchPool } from '../../src/util/scratch-pool.ts';

describe('ScratchPool', () => {
  it('hands back released arrays of the same length, and new ones otherwise', () => {
    const pool = new ScratchPool<Uint8Array>((n) => new Uint8Array(n), 2, 1024);
    const a = pool.acquire(100);
    pool.release(a);
    assert.equal(pool.acquire(100), a);
    assert.notEqual(pool.acquire(100), a);
    assert.equal(pool.acquire(50).length, 50);
  });

  it('keeps at most keepPerSize arrays per length and at most maxBytes in all', () => {
    const pool = new ScratchPool<Uint8Array>((n) => new Uint8Array(n), 2, 1000);
    pool.release(new Uint8Array(100), new Uint8Array(100), new Uint8Array(100));
    assert.equal(pool.bytes, 200);
    for (let n = 1; n <= 20; n++) pool.release(new Uint8Array(90 + n)); // odd sizes fill the budget, then are dropped
    assert.ok(pool.bytes <= 1000);
    const before = pool.bytes;
    pool.acquire(100);
    assert.equal(pool.bytes, before - 100);
  });
});
