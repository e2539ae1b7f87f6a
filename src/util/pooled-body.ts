/**
 * Response bodies in recycled buffers. A large body the server writes once and drops (an `.npy`
 * tile is 512 KiB) would otherwise be a fresh allocation per request: with `npm start`'s
 * `MALLOC_MMAP_THRESHOLD_=131072` every buffer ≥ 128 KiB is a fresh mmap whose pages are
 * faulted in on first write, ~130 faults and ~3 ms of CPU per `.npy` tile on this VM
 * (BENCHMARKS.md, arrays, "Warm CPU per tile").
 *
 * The lifecycle: the encoder takes a body with `pooledBody`; the HTTP layer gives it back with
 * `returnBodyAfter` once the response has been written out (`finish`; an aborted response keeps
 * it and the garbage collector frees it); anything that keeps a body beyond its response (the
 * response cache, which also shares one body between concurrent requests) takes `keepBody`'s
 * copy instead, and the pooled one goes back at once. A body nobody gives back is only a missed
 * recycle: the pool forgets it and the garbage collector frees it.
 */
import { BUFFER_POOL } from './buffer-pool.ts';

/** Bodies lent from BUFFER_POOL that may go back once written. */
const returnable = new WeakSet<object>();

/** A Buffer of exactly `n` bytes with stale contents (the caller writes every byte), from the pool when large. */
export function pooledBody(n: number): Buffer {
  const bytes = BUFFER_POOL.bytes(n);
  if (!BUFFER_POOL.owns(bytes.buffer)) return Buffer.from(bytes.buffer, bytes.byteOffset, n);
  const body = Buffer.from(bytes.buffer, 0, n);
  returnable.add(body);
  return body;
}

/**
 * The body to keep beyond its response (the response cache stores and shares it): a pooled body
 * is copied into an exact-size buffer of its own (a pooled one spans its power-of-two size class,
 * which the cache's byte count would not see) and goes back to the pool; any other is itself.
 */
export function keepBody<T>(body: T): T | Buffer {
  if (!returnableBuffer(body)) return body;
  returnable.delete(body);
  const own = Buffer.from(body);
  BUFFER_POOL.releaseLater([body.buffer]);
  return own;
}

/** Whether `body` is a pooled body nothing else keeps. */
export function isReturnableBody(body: unknown): boolean {
  return returnableBuffer(body);
}

const returnableBuffer = (body: unknown): body is Buffer => typeof body === 'object' && body !== null && returnable.has(body);

/**
 * Gives `body` back to the pool once `response` has been written out (its `finish` event: the
 * socket has taken every byte), unless something kept it meanwhile. Reusable from the next turn
 * of the event loop (`releaseLater`), after every reaction already queued has run.
 */
export function returnBodyAfter(response: { once(event: 'finish', listener: () => void): unknown }, body: unknown): void {
  if (!returnableBuffer(body)) return;
  response.once('finish', () => {
    if (!returnable.delete(body)) return;
    BUFFER_POOL.releaseLater([body.buffer]);
  });
}
