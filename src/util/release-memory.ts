/**
 * Gives the memory of a finished large request back to the system promptly. V8 frees dead
 * ArrayBuffers only in a full garbage collection, and an idle server may not run one for a long
 * time: one 4096² tile left ~450 MB resident after it was answered. After a request that held
 * more than the heavy threshold, one full collection runs shortly after (at most one per second).
 *
 * Why the `--expose-gc` flag set at run time: Node has no other API to ask for a collection, and
 * the start script's flags are not ours to change. Without it (the flag refused), nothing happens.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;
let scheduled = false;
let last = 0;

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  } catch {
    gc = null;
  }
  return gc;
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
