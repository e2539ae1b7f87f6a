/**
 * Memory budgets of requests, so that no input and no parameter combination makes one request,
 * or all of them together, allocate without bound.
 *
 * - A `RequestBudget` per request (RASTILE_MAX_REQUEST_MB): every allocation proportional to
 *   bands × pixels is charged to it *before* it is made (`chargeRequest(bytes, what)`); going
 *   over throws a MaxSizeExceeded error (HTTP 400) naming what and the limit. Buffers the request
 *   gives back while it runs are credited (`releaseRequest`), so the budget bounds what one
 *   request holds at once, not what it allocates over its life.
 * - A `ProcessBudget` shared by all requests (RASTILE_MAX_INFLIGHT_MB): a request may hold up to
 *   `freeBytes` without asking it (small requests never wait); beyond that it holds a
 *   reservation, taken at admission for requests estimated heavy (they queue for it) and grown
 *   on the fly otherwise. A reservation that cannot grow fails the request with Overloaded
 *   (HTTP 503 + Retry-After) instead of overcommitting the machine.
 *
 * The current request's budget travels in an AsyncLocalStorage, entered once by the HTTP layer,
 * so the allocation sites deep in the readers need no parameter threading. Code running outside
 * any request (tests, the CLI) charges nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Errors } from '../errors.ts';

const MiB = 1024 * 1024;

const mib = (bytes: number): string => `${(bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0)} MiB`;

export class ProcessBudget {
  private reservedBytes = 0;
  private readonly waiters: Array<{ bytes: number; grant: () => void }> = [];

  /**
   * @param capacityBytes reservations held at once, all requests together
   * @param maxQueue requests allowed to wait for a reservation (more get Overloaded at once)
   * @param freeBytes what a request may hold without a reservation
   */
  constructor(
    readonly capacityBytes: number,
    readonly maxQueue: number,
    readonly freeBytes: number,
  ) {}

  get reserved(): number {
    return this.reservedBytes;
  }

  get queued(): number {
    return this.waiters.length;
  }

  /** Reserve `bytes` now if they fit (and nobody waits before us). */
  tryReserve(bytes: number): boolean {
    if (this.waiters.length > 0 || !this.fits(bytes)) return false;
    this.reservedBytes += bytes;
    return true;
  }

  /** Reserve `bytes` on top of a reservation already held (no queue: now or never). */
  tryGrow(bytes: number): boolean {
    if (!this.fits(bytes)) return false;
    this.reservedBytes += bytes;
    return true;
  }

  /**
   * Wait for `bytes` (first come, first served). Rejects with Overloaded when the queue is full,
   * or with the signal's reason when it aborts while waiting.
   */
  reserve(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.tryReserve(bytes)) return Promise.resolve();
    if (this.waiters.length >= this.maxQueue) {
      return Promise.reject(
        Errors.overloaded(`Server busy: ${this.waiters.length} large requests already wait for memory (RASTILE_MAX_QUEUE=${this.maxQueue})`),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        bytes,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        this.drain();
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(bytes: number): void {
    this.reservedBytes = Math.max(0, this.reservedBytes - bytes);
    this.drain();
  }

  /** A request bigger than the whole capacity still runs, alone. */
  private fits(bytes: number): boolean {
    return this.reservedBytes + bytes <= this.capacityBytes || this.reservedBytes === 0;
  }

  private drain(): void {
    while (this.waiters.length > 0 && this.fits(this.waiters[0].bytes)) {
      const w = this.waiters.shift()!;
      this.reservedBytes += w.bytes;
      w.grant();
    }
  }
}

/** Request budgets made and not closed in this thread (requests being served). */
let openBudgets = 0;

/** Requests this thread is serving now (their budgets are open): work deferred until idle waits for 0. */
export function openRequestBudgets(): number {
  return openBudgets;
}

export class RequestBudget {
  private liveBytes = 0;
  private peakBytes = 0;
  private reservedBytes = 0;
  private closed = false;

  /**
   * @param limitBytes most this request may hold at once
   * @param processBudget the shared budget reservations come from (none: no process limit)
   */
  constructor(
    readonly limitBytes: number,
    private readonly processBudget?: ProcessBudget,
  ) {
    openBudgets++;
  }

  /** Bytes charged and not released. */
  get live(): number {
    return this.liveBytes;
  }

  /** Most bytes held at once. */
  get peak(): number {
    return this.peakBytes;
  }

  /** The process reservation held. */
  get reservation(): number {
    return this.reservedBytes;
  }

  /** Take a process reservation of `bytes`, waiting in the queue (the admission of a heavy request). */
  async reserve(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.processBudget === undefined || bytes <= 0) return;
    await this.processBudget.reserve(bytes, signal);
    if (this.closed) {
      this.processBudget.release(bytes);
      return;
    }
    this.reservedBytes += bytes;
  }

  /** Charge `bytes` about to be allocated for `what`; throws when over a budget. */
  charge(bytes: number, what: string): void {
    const total = this.liveBytes + bytes;
    if (!(total <= this.limitBytes)) {
      throw Errors.maxSize(
        `${what} needs ${Number.isFinite(bytes) ? mib(bytes) : `${bytes} bytes`}, which would bring this request to ${Number.isFinite(total) ? mib(total) : 'an unbounded size'}, over its memory budget of ${mib(this.limitBytes)} (RASTILE_MAX_REQUEST_MB)`,
      );
    }
    const p = this.processBudget;
    if (p !== undefined) {
      const beyond = total - p.freeBytes - this.reservedBytes;
      if (beyond > 0) {
        if (!p.tryGrow(beyond)) {
          throw Errors.overloaded(
            `Server busy: ${what} needs ${mib(bytes)} and the memory for requests in flight (RASTILE_MAX_INFLIGHT_MB=${Math.round(p.capacityBytes / MiB)}) is taken; retry later`,
          );
        }
        this.reservedBytes += beyond;
      }
    }
    this.liveBytes = total;
    if (total > this.peakBytes) this.peakBytes = total;
  }

  /** Credit bytes given back while the request runs. */
  release(bytes: number): void {
    this.liveBytes = Math.max(0, this.liveBytes - bytes);
  }

  /** The request is over: its reservation goes back to the process budget (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    openBudgets--;
    if (this.reservedBytes > 0) this.processBudget?.release(this.reservedBytes);
    this.reservedBytes = 0;
  }
}

const storage = new AsyncLocalStorage<RequestBudget>();

/** Run `fn` (and everything it starts) under `budget`. */
export function runWithBudget<T>(budget: RequestBudget, fn: () => T): T {
  return storage.run(budget, fn);
}

/** The budget of the request being served, if any. */
export function currentBudget(): RequestBudget | undefined {
  return storage.getStore();
}

/** Charge the current request for `bytes` about to be allocated for `what` (no-op outside requests). */
export function chargeRequest(bytes: number, what: string): void {
  storage.getStore()?.charge(bytes, what);
}

/** Credit the current request with `bytes` it no longer holds. */
export function releaseRequest(bytes: number): void {
  storage.getStore()?.release(bytes);
}
