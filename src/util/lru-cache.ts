/**
 * A least-recently-used map bounded by a byte budget (each entry weighs `sizeOf(value)`),
 * and a promise-sharing front for it: concurrent callers of the same key share one in-flight
 * promise; a rejected promise is dropped so the next caller retries.
 */
/** What SharedPromiseCache needs from the cache behind it. */
export interface ValueCache<K, V> {
  readonly size: number;
  readonly usedBytes: number;
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
}

export class LruCache<K, V> implements ValueCache<K, V> {
  private readonly map = new Map<K, { value: V; size: number }>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
    /** Called for entries pushed out by the byte budget (not for delete/clear/replace). */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  /** Keys from least to most recently used. */
  keysFromOldest(): IterableIterator<K> {
    return this.map.keys();
  }

  /** Bytes charged for `key` (0 when absent). */
  sizeOfKey(key: K): number {
    return this.map.get(key)?.size ?? 0;
  }

  get size(): number {
    return this.map.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const size = this.sizeOf(value);
    this.delete(key);
    if (size > this.maxBytes) return; // never cache something bigger than the whole budget
    this.map.set(key, { value, size });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const oldest = this.map.entries().next();
      if (oldest.done) break;
      const [k, entry] = oldest.value;
      this.delete(k);
      this.onEvict?.(k, entry.value);
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.bytes -= entry.size;
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
}

export class SharedPromiseCache<K, V> {
  private readonly inFlight = new Map<K, Promise<V>>();

  constructor(private readonly lru: ValueCache<K, V>) {}

  get stats(): { entries: number; bytes: number; inFlight: number } {
    return { entries: this.lru.size, bytes: this.lru.usedBytes, inFlight: this.inFlight.size };
  }

  peek(key: K): V | undefined {
    return this.lru.get(key);
  }

  getOrCreate(key: K, create: () => Promise<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const promise = create().then(
      (value) => {
        this.inFlight.delete(key);
        this.lru.set(key, value);
        return value;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  delete(key: K): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }
}
