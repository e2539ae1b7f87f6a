import { LruCache } from '../util/lru-cache.ts';

/** One cached byte range; the object itself is the LRU key. */
interface CachedRange {
  readonly url: string;
  readonly start: number;
  readonly end: number; // exclusive
}

/** How many ranges starting at or before a read are tried for one that also reaches its end. */
const LOOK_BACK = 16;

/** Index of the first range of `index` (sorted by start) that starts after `start`. */
function upperBound(index: readonly CachedRange[], start: number): number {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index[mid]!.start <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cached byte ranges of many sources in one LRU bounded in bytes. A read is a hit when one cached
 * range covers it (e.g. small IFD reads inside the 64 KiB header chunk), not only on equal ranges.
 * Each source keeps a sorted index of its ranges; the LRU's eviction callback removes entries from it.
 */
export class ByteCache {
  private readonly lru: LruCache<CachedRange, Uint8Array>;
  private readonly indexes = new Map<string, CachedRange[]>();

  constructor(maxBytes: number) {
    this.lru = new LruCache(
      maxBytes,
      (v) => v.byteLength,
      (range) => this.unindex(range),
    );
  }

  get stats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.lru.size, bytes: this.lru.usedBytes, maxBytes: this.lru.maxBytes };
  }

  /**
   * Bytes [start, end) of `url` when a cached range covers it: a view of the cached array, which
   * the caller only reads (CachingSource copies it for callers that may write).
   */
  lookup(url: string, start: number, end: number): Uint8Array | undefined {
    const range = this.covering(url, start, end);
    if (range === undefined) return undefined;
    const bytes = this.lru.get(range)!; // indexed ranges are always in the LRU (eviction unindexes them)
    return bytes.subarray(start - range.start, end - range.start);
  }

  /**
   * Keeps `bytes` as the range starting at `start` of `url` (the cache owns the array afterwards).
   * A range already covered by a cached one only refreshes that one.
   */
  put(url: string, start: number, bytes: Uint8Array): void {
    if (bytes.byteLength === 0 || bytes.byteLength > this.lru.maxBytes) return;
    const end = start + bytes.byteLength;
    const covered = this.covering(url, start, end);
    if (covered !== undefined) {
      this.lru.get(covered); // mark as most recently used
      return;
    }
    const range: CachedRange = { url, start, end };
    let index = this.indexes.get(url);
    if (index === undefined) {
      index = [];
      this.indexes.set(url, index);
    }
    index.splice(upperBound(index, start), 0, range);
    this.lru.set(range, bytes); // may evict older ranges, never this one (it fits the budget)
  }

  /** Drops every cached range of `url`. */
  forget(url: string): void {
    const index = this.indexes.get(url);
    if (index === undefined) return;
    this.indexes.delete(url);
    for (const range of index) this.lru.delete(range);
  }

  clear(): void {
    this.indexes.clear();
    this.lru.clear();
  }

  /** The cached range of `url` covering [start, end): the last few starting at or before `start`. */
  private covering(url: string, start: number, end: number): CachedRange | undefined {
    const index = this.indexes.get(url);
    if (index === undefined) return undefined;
    for (let i = upperBound(index, start) - 1, n = 0; i >= 0 && n < LOOK_BACK; i--, n++) {
      if (index[i]!.end >= end) return index[i];
    }
    return undefined;
  }

  /** Removes an evicted range from its url's index. */
  private unindex(range: CachedRange): void {
    const index = this.indexes.get(range.url);
    if (index === undefined) return;
    // Ranges with the same start sit just before upperBound(start).
    for (let i = upperBound(index, range.start) - 1; i >= 0 && index[i]!.start === range.start; i--) {
      if (index[i] === range) {
        index.splice(i, 1);
        break;
      }
    }
    if (index.length === 0) this.indexes.delete(range.url);
  }
}
