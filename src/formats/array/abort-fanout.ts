/**
 * Stop waiting when a signal aborts, for reads that fan out: opening an HDF5 file reads every
 * dense attribute of a group at once, a hyperslab waits on many chunks at once, all on the one
 * request signal. `raceAbort` adds one 'abort' listener per waiter (so a wide fan-out passes the
 * EventTarget limit of 10 and Node warns of a leak); here every waiter of a signal shares a
 * single listener, which calls the waiters still pending when it fires. A waiter leaves the set
 * as soon as it settles, so nothing accumulates on long-lived signals.
 */
import { abortError } from '../../sources/abort.ts';

const waiting = new WeakMap<AbortSignal, Set<() => void>>();

function waitersOf(signal: AbortSignal): Set<() => void> {
  let set = waiting.get(signal);
  if (set === undefined) {
    const s = new Set<() => void>();
    set = s;
    waiting.set(signal, s);
    signal.addEventListener(
      'abort',
      () => {
        for (const f of [...s]) f();
        s.clear();
      },
      { once: true },
    );
  }
  return set;
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbortShared<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal, what));
  const set = waitersOf(signal);
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => reject(abortError(signal, what));
    set.add(aborted);
    promise.then(
      (v) => {
        set.delete(aborted);
        resolve(v);
      },
      (e: unknown) => {
        set.delete(aborted);
        reject(e);
      },
    );
  });
}
