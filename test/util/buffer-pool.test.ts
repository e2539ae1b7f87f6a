import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BufferPool } from '../../src/util/buffer-pool.ts';

const KiB = 1024;
const turn = () => new Promise((r) => setImmediate(r));

describe('BufferPool', () => {
  it('lends power-of-two buffers from 64 KiB and takes back only its own, once', () => {
    const pool = new BufferPool(4096 * KiB);
    const a = pool.bytes(100 * KiB);
    assert.equal(a.length, 100 * KiB);
    assert.equal(a.buffer.byteLength, 128 * KiB);
    assert.ok(pool.owns(a.buffer));
    const small = pool.bytes(1000);
    assert.equal(small.buffer.byteLength, 1000);
    assert.ok(!pool.owns(small.buffer), 'small arrays are plain');
    pool.release(a.buffer, a.buffer, new ArrayBuffer(128 * KiB));
    assert.equal(pool.bytesKept, 128 * KiB, 'one buffer kept: the foreign one and the repeat are ignored');
    const f = pool.array('float32', 30 * KiB); // 120 KiB → the same class
    assert.equal(f.buffer, a.buffer);
    assert.ok(f instanceof Float32Array && f.length === 30 * KiB);
    assert.equal(pool.bytesKept, 0);
    assert.notEqual(pool.bytes(100 * KiB).buffer, a.buffer, 'a buffer is lent to one user at a time');
  });

  it('never keeps more than its budget, whatever sizes come back', () => {
    const pool = new BufferPool(1000 * KiB);
    const lent = Array.from({ length: 40 }, (_, i) => pool.bytes((64 + 7 * i) * KiB));
    pool.release(...lent.map((l) => l.buffer));
    assert.ok(pool.bytesKept <= 1000 * KiB && pool.bytesKept > 0, `kept ${pool.bytesKept}`);
    const before = pool.bytesKept;
    const newest = lent[lent.length - 1];
    assert.equal(pool.bytes(newest.length).buffer, newest.buffer, 'the newest returned buffer is kept and reused');
    assert.equal(pool.bytesKept, before - newest.buffer.byteLength);
  });

  it('resize: a smaller budget lets the oldest kept buffers go at once and caps what it keeps', () => {
    const pool = new BufferPool(1024 * KiB);
    const lent = Array.from({ length: 8 }, () => pool.bytes(128 * KiB));
    pool.release(...lent.map((l) => l.buffer));
    assert.equal(pool.bytesKept, 1024 * KiB);
    pool.resize(300 * KiB);
    assert.equal(pool.budget, 300 * KiB);
    assert.equal(pool.bytesKept, 256 * KiB, 'the two newest 128 KiB buffers stay');
    assert.equal(pool.bytes(128 * KiB).buffer, lent[7]!.buffer);
    const big = pool.bytes(512 * KiB);
    assert.ok(!pool.owns(big.buffer), 'over the new budget: a plain allocation');
  });

  it('releaseLater makes buffers reusable only at the next turn of the event loop', async () => {
    const pool = new BufferPool(4096 * KiB);
    const a = pool.bytes(256 * KiB);
    pool.releaseLater([a.buffer]);
    await Promise.resolve();
    assert.notEqual(pool.bytes(256 * KiB).buffer, a.buffer, 'not reused within the same turn');
    await turn();
    assert.equal(pool.bytes(256 * KiB).buffer, a.buffer);
  });

  it('when full, lets the oldest kept buffers go', () => {
    const pool = new BufferPool(1024 * KiB);
    const olds = [pool.bytes(512 * KiB), pool.bytes(512 * KiB)];
    const big = pool.bytes(1024 * KiB);
    pool.release(...olds.map((o) => o.buffer));
    assert.equal(pool.bytesKept, 1024 * KiB);
    pool.release(big.buffer);
    assert.equal(pool.bytesKept, 1024 * KiB);
    assert.equal(pool.bytes(1000 * KiB).buffer, big.buffer, 'the newest is kept');
    assert.notEqual(pool.bytes(512 * KiB).buffer, olds[0].buffer);
  });
});

describe('BufferPool, large buffers', () => {
  it('allocates buffers bigger than its budget at their exact size and never keeps them', () => {
    const pool = new BufferPool(1024 * KiB);
    const big = pool.bytes(3000 * KiB);
    assert.equal(big.buffer.byteLength, 3000 * KiB, 'not rounded up to 4 MiB');
    assert.ok(!pool.owns(big.buffer));
    pool.release(big.buffer);
    pool.releaseLater([big.buffer]);
    assert.equal(pool.bytesKept, 0);
    const f = pool.array('float64', 300 * KiB);
    assert.equal(f.buffer.byteLength, 2400 * KiB);
  });

  it('zeroed: a kept buffer is cleared, a new one (or one larger than the pool) is zero as made', () => {
    const pool = new BufferPool(1024 * KiB);
    const a = pool.array('uint16', 100 * KiB);
    a.fill(7);
    pool.release(a.buffer);
    const b = pool.zeroed('uint16', 90 * KiB);
    assert.equal(b.buffer, a.buffer, 'the kept buffer is reused');
    assert.ok(b.every((v) => v === 0));
    assert.equal(b.length, 90 * KiB);
    const big = pool.zeroed('float32', 512 * KiB); // 2 MiB: more than the pool keeps
    assert.ok(big instanceof Float32Array && big.length === 512 * KiB && big.every((v) => v === 0));
    const small = pool.zeroed('uint8', 100);
    assert.ok(small instanceof Uint8Array && small.every((v) => v === 0));
  });
});
