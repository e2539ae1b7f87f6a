import { isRastileError } from '../errors.ts';
import { observeCacheSize } from '../util/metrics.ts';
import { LruCache } from '../util/lru-cache.ts';
import { SharedWorkMap } from './abort.ts';
import { ByteCache } from './byte-cache.ts';
import { CachingSource } from './caching-source.ts';
import { CoalescingSource } from './coalescing-source.ts';
import { FileHandlePool } from './file-handle-pool.ts';
import { FileSource } from './file-source.ts';
import { safeUrl } from './http-request.ts';
import { HttpTransport } from './http-source.ts';
import { LocalRoots } from './local-roots.ts';
import { locationKey, parseLocation, type ParsedLocation } from './location.ts';
import { assertUrlAllowed, defaultResolveHost, type NetworkPolicy } from './network-policy.ts';
import { resolveSourceOptions, type SourceOptions } from './options.ts';
import { RemoteRangeSource, type RangeTransport } from './remote-range-source.ts';
import { RetryingSource } from './retry.ts';
import { S3Transport } from './s3-source.ts';
import { createSourceStats, type Source, type SourceStats } from './source.ts';
import { sourceCacheKey } from './version.ts';

/** An opened source kept for reuse, with how to tell whether it still reads the current version. */
interface OpenedSource {
  source: Source;
  /** Still the current version? (local: one stat of the path; remote: no response showed another) */
  current(): Promise<boolean> | boolean;
  /** Lets go of what the old version holds (byte cache entries, the pooled file handle). */
  retire(): void;
}

export interface SourceOpenerStats {
  /** Opened sources kept for reuse. */
  sources: number;
  cache: { entries: number; bytes: number; maxBytes: number };
  /** Local file handles currently open (in use or idle). */
  openFiles: number;
}

/** The bytes a caller reads first: a remote open reads these (into the byte cache) instead of the header. */
export interface FirstRead {
  offset: number;
  length: number;
}

export interface SourceOpener {
  /**
   * Validates the location (policy) and returns a cached, deduplicated Source. Throws RastileError.
   * `first`: the range the caller reads next (a Zarr chunk, an HDF5 head): a new remote source reads
   * it to learn its version instead of the first `headerBytes`, so the caller's read is a cache hit
   * and costs no second request.
   */
  open(location: string, signal?: AbortSignal, first?: FirstRead): Promise<Source>;
  /** Like open but resolves null instead of throwing SourceNotFound (used to probe `<file>.ovr`/.msk sidecars). */
  openIfExists(location: string, signal?: AbortSignal, first?: FirstRead): Promise<Source | null>;
}

/** What createSourceOpener returns: a SourceOpener plus counters and shutdown. */
export interface ManagedSourceOpener extends SourceOpener {
  readonly stats: SourceOpenerStats;
  /** Forgets cached sources and bytes and closes pooled file handles. */
  close(): Promise<void>;
}

/**
 * Turns dataset locations into Sources.
 *
 * - Local paths and file:// URLs: only under `localRoots` (after realpath); no byte cache (the
 *   OS page cache does that job), handles from a bounded pool.
 * - http(s):// (network policy checked on open and on every redirect hop) and s3://bucket/key
 *   (SigV4): CachingSource → CoalescingSource → RetryingSource → RemoteRangeSource. Opening reads
 *   the first `headerBytes` (64 KiB) into the cache — or the caller's own first range (`first`) —
 *   which proves the object exists, learns its version (ETag/Last-Modified) and answers the
 *   caller's first reads (the TIFF header, a Zarr chunk): one request, not a probe and then the read.
 *
 * Concurrent opens of one remote location share one attempt; failures are not cached.
 *
 * Versions (src/sources/version.ts): a Source reads one version of the bytes. A kept source is
 * handed out again only while it is current — a local file is stat'ed on every open (device,
 * inode, size, mtime), a remote source until one of its responses showed another ETag /
 * Last-Modified / size (or never, when the server sends no validator, unless the opt-in
 * `unvalidatedReuseMs` window allows it) — else a new Source is opened for the new version and
 * the old one's cached bytes and file handle are let go.
 */
export function createSourceOpener(options: SourceOptions): ManagedSourceOpener {
  const o = resolveSourceOptions(options);
  const cache = new ByteCache(o.cacheBytes);
  observeCacheSize('bytes', () => cache.stats);
  const sources = new LruCache<string, OpenedSource>(o.maxSources, () => 1);
  const opening = new SharedWorkMap<string, Source>();
  const pool = new FileHandlePool(o.maxOpenFiles);
  const roots = new LocalRoots(o.localRoots);
  const regionCache = new Map<string, string>();
  const policy: NetworkPolicy = {
    allowPrivateHosts: o.allowPrivateHosts,
    allowedHosts: o.allowedHosts,
    resolveHost: o.resolveHost ?? defaultResolveHost,
  };

  function remote(transport: RangeTransport, label: string, stats: SourceStats): OpenedSource {
    const base = new RemoteRangeSource(
      transport,
      {
        maxWholeBodyBytes: o.maxWholeBodyBytes,
        onWholeBody: (bytes, version) => cache.put(sourceCacheKey({ url: transport.url, version }), 0, bytes),
      },
      stats,
    );
    const retrying = new RetryingSource(base, { retries: o.retries, baseDelayMs: o.retryBaseDelayMs, timeoutMs: o.requestTimeoutMs, label }, stats);
    const coalescing = new CoalescingSource(retrying, { maxGapBytes: o.coalesceGapBytes, maxMergedBytes: o.coalesceMaxBytes }, stats);
    const source = new CachingSource(coalescing, cache, stats);
    const state = base.versionState;
    const openedAt = Date.now();
    let probe: Promise<boolean> | undefined;
    return {
      source,
      current: () => {
        if (state.changed || state.version === undefined) return false;
        // No validator: reused only within the opt-in window from the open (never extended by reads).
        if (!state.validated) return o.unvalidatedReuseMs > 0 && Date.now() - openedAt <= o.unvalidatedReuseMs;
        if (Date.now() - state.confirmedAt <= o.revalidateMs) return true;
        // Not heard from for a while: one conditional 1-byte read past the byte cache, shared by
        // the uses waiting for it. A failure means "open again" (which reports it properly).
        probe ??= retrying
          .fetch(0, 1)
          .then(
            () => !state.changed,
            () => false,
          )
          .finally(() => (probe = undefined));
        return probe;
      },
      retire: () => cache.forget(sourceCacheKey(source)),
    };
  }

  async function create(loc: ParsedLocation, shown: string, signal: AbortSignal, first: FirstRead | undefined): Promise<OpenedSource> {
    const stats = createSourceStats();
    if (loc.kind === 'file') {
      const file = await FileSource.open(loc.path, shown, roots, pool, stats);
      return { source: file, current: () => file.isCurrent(), retire: () => file.retire() };
    }
    let opened: OpenedSource;
    if (loc.kind === 'http') {
      await assertUrlAllowed(loc.url, policy);
      const transport = new HttpTransport(
        loc.url,
        { policy, maxRedirects: o.maxRedirects, userAgent: o.userAgent, ...(o.authHeaders !== undefined ? { authHeaders: o.authHeaders } : {}) },
        stats,
      );
      opened = remote(transport, loc.url.host, stats);
    } else {
      const transport = new S3Transport(loc.bucket, loc.key, { s3: o.s3, userAgent: o.userAgent, regionCache }, stats);
      opened = remote(transport, `s3://${loc.bucket}`, stats);
    }
    // only to fill the byte cache: the cached array itself, no copy of it (Source.fetchShared)
    const warm = (offset: number, length: number) => (opened.source.fetchShared ?? opened.source.fetch).call(opened.source, offset, length, signal);
    if (first !== undefined && first.length > 0) await warm(first.offset, first.length);
    else if (o.headerBytes > 0) await warm(0, o.headerBytes);
    return opened;
  }

  async function open(location: string, signal?: AbortSignal, first?: FirstRead): Promise<Source> {
    const loc = parseLocation(location);
    const key = locationKey(loc);
    const hit = sources.get(key);
    if (hit !== undefined) {
      if (await hit.current()) return hit.source;
      if (sources.get(key) === hit) {
        sources.delete(key);
        hit.retire();
      }
    }
    const start = async (s: AbortSignal): Promise<Source> => {
      const opened = await create(loc, location, s, first);
      const old = sources.get(key);
      if (old !== undefined && old.source.version !== opened.source.version) old.retire();
      sources.set(key, opened);
      return opened.source;
    };
    // A local open is one stat: not shared, so an open that began before a change is never joined after it.
    if (loc.kind === 'file') return start(signal ?? new AbortController().signal);
    return opening.join(key, start, signal, loc.kind === 'http' ? safeUrl(loc.url) : key).result;
  }

  return {
    open,
    async openIfExists(location, signal, first) {
      try {
        return await open(location, signal, first);
      } catch (err) {
        if (isRastileError(err, 'SourceNotFound')) return null;
        throw err;
      }
    },
    get stats() {
      return { sources: sources.size, cache: cache.stats, openFiles: pool.openCount };
    },
    async close() {
      sources.clear();
      cache.clear();
      await pool.closeAll();
    },
  };
}
