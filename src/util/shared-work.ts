/**
 * Work shared by the reads of one time series: pure computations whose inputs the steps repeat
 * (a warp's source coordinates over the same grid, a feature's cutline in the same pixel space)
 * are done once per series instead of once per distinct mosaic. The scope travels in an
 * AsyncLocalStorage entered by the series route around its steps, so the raster code finds it
 * without parameter threading; outside a scope (every single-step request) nothing is kept and
 * each read computes its own, as before.
 *
 * Values are keyed by a string that must name every input of the computation exactly; they are
 * shared read-only. Kept bytes are bounded (least recently used dropped first) and charged to the request's
 * budget; a value that would not fit, or that the budget refuses, is computed and not kept.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LruCache } from './lru-cache.ts';
import { chargeRequest } from './request-budget.ts';

/** What one series may keep (two 512² warps' coordinates are 8 MiB). */
export const SHARED_WORK_BYTES = 32 * 1024 * 1024;

export class SharedWork {
  /** Byte-bounded, least recently used dropped first (the project's LruCache). */
  private readonly kept: LruCache<string, { value: unknown; bytes: number }>;
  /** Values served from the scope instead of computed (tests, benches). */
  hits = 0;
  /**
   * The series' steps as one CMR temporal range (`a/b`, their union) and their number: the steps'
   * granule searches may then share one search over it (src/search/series-search.ts).
   */
  searchRange?: { temporal: string; steps: number };
  /**
   * Deflate blocks inflate on libuv's thread pool instead of the calling thread (set by a series
   * that reads several granule sets at once on the main thread: the inflates overlap its other work).
   */
  inflateOffThread = false;

  constructor(maxBytes = SHARED_WORK_BYTES) {
    this.kept = new LruCache(maxBytes, (e) => e.bytes);
  }

  /**
   * The value kept for `key`, else `compute()` — kept when its `bytes` (known before computing)
   * fit. An async `compute` is kept as its promise, so concurrent steps wait for one computation;
   * a rejected one is forgotten.
   */
  get<T>(key: string, bytes: number, compute: () => T): T {
    const found = this.kept.get(key);
    if (found !== undefined) {
      this.hits++;
      return found.value as T;
    }
    if (bytes > this.kept.maxBytes || !this.charge(bytes)) return compute();
    const value = compute();
    this.kept.set(key, { value, bytes });
    if (value instanceof Promise) value.catch(() => this.kept.get(key)?.value === value && this.kept.delete(key));
    return value;
  }

  get bytesKept(): number {
    return this.kept.usedBytes;
  }

  private charge(bytes: number): boolean {
    try {
      chargeRequest(bytes, 'values shared by the steps of a time series');
      return true;
    } catch {
      return false;
    }
  }
}

const storage = new AsyncLocalStorage<SharedWork>();

/** Run `fn` (and everything it starts) sharing repeated computations through `work`. */
export function runWithSharedWork<T>(fn: () => T, work: SharedWork = new SharedWork()): T {
  return storage.run(work, fn);
}

/** The current series' shared work, if any (undefined in single-step requests). */
export function currentSharedWork(): SharedWork | undefined {
  return storage.getStore();
}
