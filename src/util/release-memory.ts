/**
 * Gives the memory of a finished large request back to the system promptly. V8 frees dead
 * ArrayBuffers only in a full garbage collection, and an idle server may not run one for a long
 * time: one 4096² tile left ~450 MB resident after it was answered. After a request that held
 * more than the heavy threshold, one full collection runs shortly after (at most one per second).
 *
 * The collection needs node's `--expose-gc` (`npm start` sets it); without the flag nothing happens
 * and V8 collects on its own schedule. (Setting the flag at run time with v8.setFlagsFromString is
 * documented as undefined behaviour, so we do not.)
 */
import { openRequestBudgets } from './request-budget.ts';

let last = 0;
let scheduled = false;
/** At most one `collectYoungWhileWaiting` collection per this many ms (concurrent or back-to-back reads share one). */
const YOUNG_WHILE_WAITING_INTERVAL_MS = 20;
let lastYoung = -Infinity;

function collector(): ((options?: { type: 'minor' | 'major' }) => void) | undefined {
  return (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
}

/**
 * One young-generation collection now (~1–2 ms), for an idle moment after a request: the dead
 * Buffers of its HTTP bodies (socket reads and their per-piece copies, 2 × the body's size) go
 * back to malloc, where — with `npm start`'s MALLOC_TRIM_THRESHOLD_ — the next request's bodies
 * reuse their pages instead of faulting in fresh ones (~15 µs per 4 KiB page on the bench VM:
 * ~10 ms of a 1.8 MB chunk's body). Nothing without `--expose-gc`.
 */
export function collectYoung(): void {
  collector()?.({ type: 'minor' });
}

/**
 * One young collection in the round trip of a large read, once its request is written (a
 * setImmediate runs after the request's nextTick write): the event loop would only wait there. It
 * frees the dead Buffers of earlier bodies (the file's head, metadata pages) so that the coming
 * body's ~30 per-piece copies of 64 KiB reuse their pages instead of faulting fresh ones (~480
 * faults per 1.8 MB body on the bench VM, ~8–15 µs each, all on the body's critical path), and no
 * scavenge falls inside the body. ~1 ms; nothing without `--expose-gc`. Only when one request is
 * being served: with others open the wait is not idle.
 */
export function collectYoungWhileWaiting(): void {
  if (openRequestBudgets() > 1) return;
  const now = performance.now();
  if (now - lastYoung < YOUNG_WHILE_WAITING_INTERVAL_MS) return;
  lastYoung = now;
  setImmediate(collectYoung);
}

/** Schedule one full collection soon (debounced to one per second). */
export function collectSoon(): void {
  if (scheduled) return;
  scheduled = true;
  const wait = Math.max(50, 1000 - (Date.now() - last));
  setTimeout(() => {
    scheduled = false;
    last = Date.now();
    collector()?.();
  }, wait).unref();
}
