import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FaultedReserve, MIN_RESERVED_BYTES } from '../../src/util/faulted-reserve.ts';
import { openRequestBudgets, RequestBudget } from '../../src/util/request-budget.ts';

const N = MIN_RESERVED_BYTES * 2;

/** One chunk read of `n` bytes: take, then done (what StreamedChunk does). */
function read(r: FaultedReserve, n: number): ArrayBuffer | null {
  const buf = r.take(n);
  r.done(n);
  return buf;
}

test('a size is made ready after its first read, with zero bytes of exactly that size', async () => {
  const r = new FaultedReserve(16 * N, 1);
  assert.equal(read(r, N), null); // nothing ready yet: the caller allocates its own
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
  read(r, N);
  const held: Array<{ buf: ArrayBuffer; mark: number }> = [];
  for (let i = 0; i < 6; i++) {
    await r.settled();
    const buf = read(r, N);
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
  assert.equal(read(r, MIN_RESERVED_BYTES - 1), null);
  assert.equal(read(r, 4 * N), null);
  await r.settled();
  assert.equal(r.bytesReady, 0, 'neither size is kept');
  read(r, N);
  read(r, 2 * N);
  await r.settled();
  assert.equal(r.bytesReady, 3 * N);
  read(r, N + 4096); // a third size: older ones are forgotten to stay within 3·N
  await r.settled();
  assert.ok(r.bytesReady <= 3 * N);
  assert.equal(r.take(N), null);
});

test('refills wait until no read is running, and stop when one starts', async () => {
  const r = new FaultedReserve(16 * N, 5);
  r.take(N); // a read in progress
  await new Promise((res) => setTimeout(res, 20));
  assert.equal(r.buffersMade, 0, 'nothing is made while a read runs');
  r.done(N);
  assert.equal(r.buffersMade, 0, 'done returns at once');
  await new Promise((res) => setTimeout(res, 8)); // the idle delay passed: the refill started
  r.take(2 * N); // another read starts mid-refill: the refill stops
  const made = r.buffersMade;
  await new Promise((res) => setTimeout(res, 20));
  assert.equal(r.buffersMade, made, 'no buffer finished while the read ran');
  r.done(2 * N);
  await r.settled();
  assert.equal(r.bytesReady, 3 * N, 'both sizes ready once idle');
});

test('refills wait while requests are being served (their budgets are open), and stop when one comes in', async () => {
  let serving = true;
  const r = new FaultedReserve(16 * N, 1, () => serving);
  read(r, N);
  await new Promise((res) => setTimeout(res, 20));
  assert.equal(r.buffersMade, 0, 'nothing is made while a request is served');
  serving = false;
  await new Promise((res) => setTimeout(res, 30));
  assert.equal(r.buffersMade, 1, 'made once idle');
  read(r, 8 * N); // 16 slices
  await new Promise((res) => setTimeout(res, 3)); // the refill has started
  serving = true;
  const made = r.buffersMade;
  await new Promise((res) => setTimeout(res, 40));
  assert.equal(r.buffersMade, made, 'stopped when a request came in');
  serving = false;
  await r.settled();
  assert.equal(r.bytesReady, 9 * N);
});

test('open request budgets are counted until closed (once each)', () => {
  const before = openRequestBudgets();
  const a = new RequestBudget(1024);
  const b = new RequestBudget(1024);
  assert.equal(openRequestBudgets(), before + 2);
  a.close();
  a.close();
  assert.equal(openRequestBudgets(), before + 1);
  b.close();
  assert.equal(openRequestBudgets(), before);
});

test('the start-up slab serves one read of any size up to it, as an exact-length view, once', async () => {
  const r = new FaultedReserve(16 * N, 1);
  r.seed(4 * N);
  assert.equal(r.slabBytes, 4 * N);
  assert.equal(r.takeBytes(MIN_RESERVED_BYTES - 1), null, 'too small to be served');
  r.done(MIN_RESERVED_BYTES - 1);
  assert.equal(r.takeBytes(4 * N + 1), null, 'larger than the slab');
  r.done(4 * N + 1);
  const first = r.takeBytes(3 * N + 4096);
  assert.ok(first !== null);
  assert.equal(first.length, 3 * N + 4096);
  assert.equal(first.byteOffset, 0);
  assert.ok(first.every((b) => b === 0));
  first.fill(7); // the holder keeps it
  r.done(3 * N + 4096);
  assert.equal(r.slabBytes, 0, 'handed out once');
  const second = r.takeBytes(N);
  assert.equal(second, null, 'no slab any more, and nothing of that size ready yet');
  r.done(N);
  await r.settled();
  const exact = r.takeBytes(3 * N + 4096);
  assert.ok(exact !== null && exact.buffer !== first.buffer);
  assert.equal(exact.buffer.byteLength, 3 * N + 4096, 'later buffers are exact, from the refill');
  r.done(3 * N + 4096);
  assert.ok(
    first.every((b) => b === 7),
    'the slab’s holder kept its bytes',
  );
});
