import { Errors } from '../errors.ts';

/**
 * The error to throw when a caller's AbortSignal fired: the signal's own reason, except that a
 * TimeoutError (AbortSignal.timeout) becomes UpstreamTimeout so HTTP maps it like our deadline.
 */
export function abortError(signal: AbortSignal, what: string): unknown {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return Errors.upstreamTimeout(`Reading ${what} timed out`);
  return reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Rejects as soon as `signal` aborts; otherwise settles like `promise`. Removes its listener when
 * done. `onAbort` runs when the signal fires while waiting, just before the rejection.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string, onAbort?: () => void): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal, what));
  return new Promise<T>((resolve, reject) => {
    const aborted = () => {
      onAbort?.();
      reject(abortError(signal, what));
    };
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', aborted);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(e);
      },
    );
  });
}

/**
 * One piece of upstream work shared by several waiters (in-flight de-duplication, coalesced
 * reads, concurrent opens). Each waiter may bring its own AbortSignal: a waiter that aborts gets
 * its rejection at once, and the shared work is aborted only when every waiter has gone.
 */
export class SharedWork<T> {
  readonly promise: Promise<T>;
  private readonly controller = new AbortController();
  private waiters = 0;
  private pinned = false;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.promise = run(this.controller.signal);
    this.promise.catch(() => {}); // a rejection is delivered to the waiters, never unhandled here
  }

  /** False once every waiter has aborted: start new work instead of joining this one. */
  get alive(): boolean {
    return !this.controller.signal.aborted;
  }

  join(signal: AbortSignal | undefined, what: string): Promise<T> {
    if (signal === undefined) {
      this.pinned = true; // a waiter that cannot abort keeps the work alive
      return this.promise;
    }
    if (signal.aborted) return Promise.reject(abortError(signal, what));
    this.waiters++;
    return raceAbort(this.promise, signal, what, () => this.leave());
  }

  private leave(): void {
    this.waiters--;
    if (this.waiters === 0 && !this.pinned) this.controller.abort(new DOMException('All readers went away', 'AbortError'));
  }
}

/**
 * In-flight SharedWork by key (concurrent reads of one range, concurrent opens of one location):
 * a caller joins the live work for its key or starts it; finished work leaves the map, so
 * failures are never remembered.
 */
export class SharedWorkMap<K, T> {
  private readonly running = new Map<K, SharedWork<T>>();

  /** Pieces of work in flight. */
  get size(): number {
    return this.running.size;
  }

  /**
   * Waits (with `signal`, see SharedWork.join) for the live work of `key`, or for new work that
   * runs `start`. `shared` tells whether the caller joined work that was already running.
   */
  join(key: K, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, what: string): { result: Promise<T>; shared: boolean } {
    const live = this.running.get(key);
    if (live !== undefined && live.alive) return { result: live.join(signal, what), shared: true };
    const work = new SharedWork(start);
    this.running.set(key, work);
    work.promise
      .finally(() => {
        if (this.running.get(key) === work) this.running.delete(key);
      })
      .catch(() => {}); // the rejection is delivered to the waiters
    return { result: work.join(signal, what), shared: false };
  }
}
