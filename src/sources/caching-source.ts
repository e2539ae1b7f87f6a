import { Errors } from '../errors.ts';
import { SharedWork } from './abort.ts';
import type { ByteCache } from './byte-cache.ts';
import type { Source, SourceStats } from './source.ts';

const EMPTY = new Uint8Array(0);

/**
 * Serves reads from the shared ByteCache; misses go to the inner source once even when several
 * callers ask for the same range at the same time (in-flight de-duplication). Every caller gets
 * its own copy of the bytes, so nobody can corrupt the cache by writing into a returned array.
 */
export class CachingSource implements Source {
  private readonly inFlight = new Map<string, SharedWork<Uint8Array>>();

  constructor(
    private readonly inner: Source,
    private readonly cache: ByteCache,
    readonly stats: SourceStats,
  ) {}

  get url(): string {
    return this.inner.url;
  }

  get size(): number | undefined {
    return this.inner.size;
  }

  async fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw Errors.badRequest(`Invalid byte range offset=${offset} length=${length}`);
    }
    this.stats.reads++;
    const size = this.inner.size;
    if (length === 0 || (size !== undefined && offset >= size)) return EMPTY.slice();
    const end = size !== undefined ? Math.min(offset + length, size) : offset + length;
    const hit = this.cache.lookup(this.url, offset, end);
    if (hit !== undefined) {
      this.stats.cacheHits++;
      return hit;
    }

    const key = `${offset}:${length}`;
    let work = this.inFlight.get(key);
    if (work !== undefined && work.alive) {
      this.stats.cacheHits++;
    } else {
      const created = new SharedWork((s) => this.inner.fetch(offset, length, s));
      work = created;
      this.inFlight.set(key, created);
      created.promise
        .then(
          (bytes) => this.cache.put(this.url, offset, bytes),
          () => {},
        )
        .finally(() => {
          if (this.inFlight.get(key) === created) this.inFlight.delete(key);
        });
    }
    const bytes = await work.join(signal, this.url);
    return bytes.slice();
  }
}
