import { Errors } from '../errors.ts';
import { cacheMetrics } from '../util/metrics.ts';
import { SharedWorkMap } from './abort.ts';
import type { ByteCache } from './byte-cache.ts';
import type { ByteSink, Source, SourceStats } from './source.ts';
import { streamRead } from './stream-read.ts';
import { sourceCacheKey, sourceChanged } from './version.ts';

const EMPTY = new Uint8Array(0);
const METRICS = cacheMetrics('bytes');

/**
 * Serves reads from the shared ByteCache; misses go to the inner source once even when several
 * callers ask for the same range at the same time (in-flight de-duplication). Every caller gets
 * its own copy of the bytes, so nobody can corrupt the cache by writing into a returned array;
 * `fetchShared` callers (who only read, Source.fetchShared) get a view of the cached array instead.
 * Cached ranges are keyed by url and version (`sourceCacheKey`): bytes of another version of the
 * object can never be served. A remote source learns its version from its first response, which
 * is before anything is put in the cache.
 */
export class CachingSource implements Source {
  private readonly inFlight = new SharedWorkMap<string, Uint8Array>();

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

  get version(): string | undefined {
    return this.inner.version;
  }

  get changed(): boolean {
    return this.inner.changed === true;
  }

  /**
   * The start of every read: validates the range and counts it; answers an empty array when there
   * is nothing to read, the cached bytes (a view: `fetch` copies it) on a hit, undefined on a miss.
   */
  private fromCache(offset: number, length: number): Uint8Array | undefined {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      // Format readers validate ranges from file structures (cog-source.ts): this is a bug of ours.
      throw Errors.internal(`Invalid byte range offset=${offset} length=${length}`);
    }
    this.stats.reads++;
    const size = this.inner.size;
    if (length === 0 || (size !== undefined && offset >= size)) return EMPTY;
    const end = size !== undefined ? Math.min(offset + length, size) : offset + length;
    if (this.inner.changed === true) throw sourceChanged(this.url, 'another version was seen');
    const hit = this.cache.lookup(sourceCacheKey(this.inner), offset, end);
    if (hit !== undefined) {
      this.stats.cacheHits++;
      METRICS.hit(hit.length);
    }
    return hit;
  }

  async fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    return (this.fromCache(offset, length) ?? (await this.miss(offset, length, signal))).slice();
  }

  /** As fetch, without the copy: the array the cache keeps (or a view of it), which the caller only reads. */
  async fetchShared(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    return this.fromCache(offset, length) ?? this.miss(offset, length, signal);
  }

  /** A miss: read once from the inner source (callers of the same range join it) and cached; the array is shared. */
  private miss(offset: number, length: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const { result, shared } = this.inFlight.join(
      `${offset}:${length}`,
      async (s) => {
        const bytes = await this.inner.fetch(offset, length, s);
        this.cache.put(sourceCacheKey(this.inner), offset, bytes);
        return bytes;
      },
      signal,
      this.url,
    );
    if (shared) this.stats.cacheHits++;
    else METRICS.miss();
    return result;
  }

  /**
   * A cached range is delivered from the cache; a miss streams from the inner source and is not
   * cached (the caller keeps what it decodes from it: caching the stored bytes too would hold a
   * chunk twice and cost a copy of it).
   */
  async stream(offset: number, length: number, sink: ByteSink, signal?: AbortSignal): Promise<number> {
    if (this.inner.stream === undefined) return streamRead({ url: this.url, fetch: (o, l, s) => this.fetchShared(o, l, s) }, offset, length, sink, signal); // the sink copies what it keeps
    const known = this.fromCache(offset, length);
    if (known !== undefined) {
      sink.restart();
      if (known.length > 0) sink.write(known);
      return known.length;
    }
    METRICS.miss();
    return this.inner.stream(offset, length, sink, signal);
  }
}
