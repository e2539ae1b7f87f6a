import { LruCache } from '../util/lru-cache.ts';

interface CachedRange {
  start: number;
  end: number; // exclusive
  key: string;
}

/** LruCache that tells us when an entry leaves (eviction, replacement or clear). */
class ObservedLru extends LruCache<string, Uint8Array> {
  constructor(
    maxBytes: number,
    private readonly onDelete: (key: string) => void,
  ) {
    super(maxBytes, (v) => v.byteLength);
  }

  override delete(key: string): void {
    super.delete(key);
    this.onDelete(key);
  }
}

/**
 * Cached byte ranges of many sources in one LRU bounded in bytes. A read is a hit when one cached
 * range covers it (e.g. small IFD reads inside the 64 KiB header chunk), not only on equal ranges.
 * Each source keeps a sorted index of its ranges; entries leave it when the LRU evicts them.
 */
export class ByteCache {
  private readonly lru: ObservedLru;
  private readonly indexes = new Map<string, CachedRange[]>();

  constructor(maxBytes: number) {
    this.lru = new ObservedLru(maxBytes, (key) => this.unindex(key));
  }

  get stats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.lru.size, bytes: this.lru.usedBytes, maxBytes: this.lru.maxBytes };
  }

  /** A private copy of bytes [start, end) of `url` when a cached range covers it. */
  lookup(url: string, start: number, end: number): Uint8Array | undefined {
    const index = this.indexes.get(url);
    if (index === undefined) return undefined;
    // Last entry starting at or before `start`; look back a few entries for one reaching `end`.
    let lo = 0;
    let hi = index.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (index[mid]!.start <= start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1, n = 0; i >= 0 && n < 16; i--, n++) {
      const entry = index[i]!;
      if (entry.end < end) continue;
      const bytes = this.lru.get(entry.key);
      if (bytes === undefined) {
        index.splice(i, 1); // evicted behind our back: forget it
        continue;
      }
      return bytes.slice(start - entry.start, end - entry.start);
    }
    return undefined;
  }

  /** Keeps `bytes` as the range starting at `start` of `url` (the cache owns the array afterwards). */
  put(url: string, start: number, bytes: Uint8Array): void {
    if (bytes.byteLength === 0 || bytes.byteLength > this.lru.maxBytes) return;
    const end = start + bytes.byteLength;
    const key = `${url}\u0000${start}\u0000${end}`;
    this.lru.set(key, bytes);
    let index = this.indexes.get(url);
    if (index === undefined) {
      index = [];
      this.indexes.set(url, index);
    }
    let lo = 0;
    let hi = index.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (index[mid]!.start <= start) lo = mid + 1;
      else hi = mid;
    }
    index.splice(lo, 0, { start, end, key });
  }

  /** Drops every cached range of `url`. */
  forget(url: string): void {
    const index = this.indexes.get(url);
    if (index === undefined) return;
    for (const entry of [...index]) this.lru.delete(entry.key);
    this.indexes.delete(url);
  }

  clear(): void {
    for (const url of [...this.indexes.keys()]) this.forget(url);
  }

  private unindex(key: string): void {
    const b = key.lastIndexOf('\u0000');
    const a = key.lastIndexOf('\u0000', b - 1);
    if (a < 0) return;
    const url = key.slice(0, a);
    const start = Number(key.slice(a + 1, b));
    const index = this.indexes.get(url);
    if (index === undefined) return;
    for (let i = 0; i < index.length; i++) {
      if (index[i]!.start === start && index[i]!.key === key) {
        index.splice(i, 1);
        break;
      }
    }
    if (index.length === 0) this.indexes.delete(url);
  }
}
