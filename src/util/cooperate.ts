/**
 * Cooperative yielding for long CPU-bound loops (warp blocks, algorithms, encoders, statistics),
 * so that /healthz and small requests are answered while a big render runs.
 *
 * Node runs every request on one thread: a 4096² hillshade computed in one go holds the event
 * loop for seconds. Loops call `if (mustYield()) await yieldToLoop();` between steps of a few
 * thousand pixels (a row, a block). `mustYield` is one `performance.now()` compared with the
 * moment this thread last came back from a yield, so it costs nothing measurable; `yieldToLoop`
 * waits for one `setImmediate`, which lets the poll phase accept connections and run the other
 * requests' I/O callbacks before the loop goes on. When nothing waits, a yield costs one turn of
 * the event loop (a few µs) every SLICE_MS of work. Worker threads would also free the loop but
 * copy (or transfer) every band in and out and need their own module graph; see
 * notes/decisions.md.
 */

/** Work done between two yields, in ms. */
export const SLICE_MS = 10;

let sliceStart = performance.now();

/** True when the current slice has run SLICE_MS or more since the last yield. */
export function mustYield(): boolean {
  return performance.now() - sliceStart >= SLICE_MS;
}

/** Lets the event loop run pending I/O (one setImmediate turn); a new slice starts after it. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      sliceStart = performance.now();
      resolve();
    }),
  );
}

/** `array.fill(value)` a slice at a time (1 Mi samples), yielding between slices when due. */
export async function fillCooperative<T extends { length: number; fill(value: number, start?: number, end?: number): unknown }>(
  array: T,
  value: number,
): Promise<T> {
  const step = 1 << 20;
  for (let i = 0; i < array.length; i += step) {
    array.fill(value, i, Math.min(array.length, i + step));
    if (mustYield()) await yieldToLoop();
  }
  return array;
}
