import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FaultedReserve, MIN_RESERVED_BYTES } from '../../src/util/faulted-reserve.ts';

const N = MIN_RESERVED_BYTES * 2;

test('a size is made ready after its first take, with zero bytes of exactly that size', async () => {
  const r = new FaultedReserve(16 * N, 1);
  assert.equal(r.take(N), null); // nothing ready yet: the caller allocates its own
  await r.settled();
  assert.equal(r.bytesReady, N);
  const buf = r.take(N);
  assert.ok(buf instanceof ArrayBuffer);
  assert.equal(buf.byteLength, N);
  assert.ok(new Uint8Array(buf).every((b) => b === 0));
  assert.equal(r.take(N), null, 'one buffer per size: the next is made when idle');
});

test('a buffer handed out is never handed out again, and its holder’s bytes are never touched', async () => {
  const r = new FaultedReserve(16 * N, 1);
  r.take(N);
  const held: Array<{ buf: ArrayBuffer; mark: number }> = [];
  for (let i = 0; i < 6; i++) {
    await r.settled();
    const buf = r.take(N);
    assert.ok(buf !== null);
    // the holder (a chunk cache entry) fills it and keeps it
    new Uint8Array(buf).fill(i + 1);
    held.push({ buf, mark: i + 1 });
  }
  await r.settled();
  assert.equal(new Set(held.map((h) => h.buf)).size, held.length, 'every take gave a new buffer');
  for (const h of held)
    assert.ok(
      new Uint8Array(h.buf).every((b) => b === h.mark),
      'a held buffer kept its holder’s bytes',
    );
  const next = r.take(N)!;
  assert.ok(!held.some((h) => h.buf === next));
  assert.ok(new Uint8Array(next).every((b) => b === 0));
  assert.equal(r.buffersMade, 7);
});

test('small and oversized requests are not served; the byte bound keeps the most recent sizes', async () => {
  const r = new FaultedReserve(3 * N, 1);
  assert.equal(r.take(MIN_RESERVED_BYTES - 1), null);
  assert.equal(r.take(4 * N), null);
  await r.settled();
  assert.equal(r.bytesReady, 0, 'neither size is kept');
  r.take(N);
  r.take(2 * N);
  await r.settled();
  assert.equal(r.bytesReady, 3 * N);
  r.take(N + 4096); // a third size: the oldest (N) is forgotten to stay within 3·N
  await r.settled();
  assert.ok(r.bytesReady <= 3 * N);
  assert.equal(r.take(N), null);
  const b = r.take(2 * N);
  assert.ok(b === null || b.byteLength === 2 * N);
});

test('refills run off the caller’s turn: a take returns at once, the buffer is made after the idle delay', async () => {
  const r = new FaultedReserve(16 * N, 20);
  r.take(N);
  assert.equal(r.buffersMade, 0);
  await new Promise((res) => setTimeout(res, 5));
  assert.equal(r.buffersMade, 0, 'not made before the idle delay');
  await r.settled();
  assert.equal(r.buffersMade, 1);
});
