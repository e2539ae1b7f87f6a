/**
 * The response cache in front of rendering. A request's key (cache-key.ts) finds the record of
 * what it read last time (which datasets); their current versions — a stat per local file, the
 * revalidation interval for remote objects (RASTILE_REVALIDATE_MS) — make the response key, which
 * is the ETag: a matching If-None-Match answers 304 before anything is read, a stored response
 * is served as is. A miss renders with a ReadSet recording the versions read; a response whose
 * inputs all have versions is stored under the key of those versions, so nothing stale can be
 * served: a changed file is another key.
 *
 * Concurrent misses of one key render once: in process through a promise map, across processes
 * through a Redis lock (one renders, the others poll for its result until the lock goes away or
 * the deadline passes, then render themselves).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReadSet, runWithReadSet, type ReadDep } from '../../util/read-set.ts';
import type { HandlerResult } from '../handler-result.ts';
import { etagOf, ifNoneMatchHits, requestKey, responseKey, type RequestKeyParts } from './cache-key.ts';
import { RedisStore, type RedisStoreOptions } from './redis-store.ts';
import { responseCacheMetrics, trackConnection, untrackConnection, type ResponseCacheMetrics } from './cache-metrics.ts';
import { MemoryStore, type CacheMeta, type CachedResponse } from './store.ts';

/** The current version of an input (undefined: unknown, so no cached answer can be trusted). */
export type VersionOf = (kind: string, location: string, signal?: AbortSignal) => Promise<string | undefined>;

/** `VersionOf` when a synchronous check can tell (a local file's stats); undefined: ask `VersionOf`. */
export type PeekVersion = (kind: string, location: string) => string | undefined;

export interface ResponseCacheOptions {
  /** In-process store, bytes (RASTILE_RESPONSE_CACHE_MB). */
  memoryBytes: number;
  /** Largest response stored, bytes. */
  maxEntryBytes: number;
  /** The shared Redis store, when RASTILE_CACHE_URL is set. */
  redis?: Omit<RedisStoreOptions, 'maxEntryBytes'>;
  /** Render lock lifetime and the longest wait for another process's render, ms. */
  lockMs: number;
}

export interface CacheRequest extends RequestKeyParts {
  baseUrl: string;
  ifNoneMatch: string | undefined;
  signal: AbortSignal;
}

export type CacheOutcome =
  | { status: 'hit' | 'miss' | 'wait-hit'; result: HandlerResult & { kind: 'body' }; etag: string; reqKey: string }
  | { status: 'uncacheable'; result: HandlerResult }
  | { status: 'not-modified'; etag: string; image: boolean; reqKey: string };

/** What `serveStored` answers without waiting: a stored response or a 304. */
export type StoredOutcome = { status: 'hit'; response: CachedResponse; etag: string } | { status: 'not-modified'; etag: string; image: boolean };

export interface ResponseCacheStats {
  hits: { memory: number; redis: number };
  misses: number;
  notModified: number;
  stored: number;
  /** Rendered responses not stored: unversioned inputs, errors, over the entry cap. */
  uncacheable: number;
  /** Misses that waited for another process's render. */
  lockWaits: number;
}

/** A meta record meaning "this request's answer is not cacheable": render without locking. */
const NOT_CACHEABLE: CacheMeta = { deps: [], base: false };

const POLL_MS = [5, 10, 20, 40, 80, 100];

export class ResponseCache {
  readonly memory: MemoryStore;
  readonly redis: RedisStore | undefined;
  readonly stats: ResponseCacheStats = { hits: { memory: 0, redis: 0 }, misses: 0, notModified: 0, stored: 0, uncacheable: 0, lockWaits: 0 };
  private readonly inflight = new Map<string, Promise<CacheOutcome>>();
  private readonly token = randomBytes(9).toString('base64url');
  private readonly metrics: ResponseCacheMetrics;
  /** `serveStored`'s last response key per request record, with the versions it was computed from. */
  private readonly lastKeys = new WeakMap<CacheMeta, { deps: ReadDep[]; respKey: string }>();

  constructor(
    private readonly options: ResponseCacheOptions,
    private readonly versionOf: VersionOf,
    private readonly peekVersion?: PeekVersion,
  ) {
    this.memory = new MemoryStore(options.memoryBytes);
    this.metrics = responseCacheMetrics(this.memory, options.memoryBytes);
    const metrics = this.metrics;
    this.redis = options.redis ? new RedisStore({ ...options.redis, maxEntryBytes: options.maxEntryBytes, onError: () => metrics.redisError() }) : undefined;
    if (this.redis !== undefined) trackConnection(this.redis);
  }

  async serve(req: CacheRequest, render: () => Promise<HandlerResult>): Promise<CacheOutcome> {
    const reqKey = requestKey(req);
    const found = await this.lookup(reqKey, req);
    if (found !== undefined) return found;
    const flightKey = `${reqKey}\u0000${req.baseUrl}`;
    const running = this.inflight.get(flightKey);
    if (running !== undefined) {
      const shared = await running.catch(() => undefined);
      if (shared !== undefined) return this.conditional(shared, req);
      // the leader failed (its client may have gone away): render on our own
    }
    const work = this.renderOnce(reqKey, req, render);
    this.inflight.set(flightKey, work);
    try {
      return this.conditional(await work, req);
    } finally {
      if (this.inflight.get(flightKey) === work) this.inflight.delete(flightKey);
    }
  }

  /**
   * The stored answer for a request key from the in-process store, decided synchronously (the
   * HTTP fast path, src/http/response-cache/fast-path.ts): every input's current version from
   * `peekVersion` (a stat per local file, as `serve` does), so a changed file is another key at
   * once. Undefined whenever `serve` is needed: an unknown key, an input only an async check can
   * version (remote objects), links built from the request's host, a response not in memory, or
   * one `accept` refuses (before anything is counted).
   */
  serveStored(reqKey: string, ifNoneMatch: string | undefined, accept: (r: CachedResponse, etag: string) => boolean = () => true): StoredOutcome | undefined {
    const meta = this.memory.getMeta(reqKey);
    if (meta === undefined || meta === NOT_CACHEABLE || meta.base || meta.deps.length === 0 || this.peekVersion === undefined) return undefined;
    const deps: ReadDep[] = [];
    try {
      for (const [kind, location] of meta.deps) {
        const version = this.peekVersion(kind, location);
        if (version === undefined) return undefined;
        deps.push({ kind, location, version });
      }
    } catch {
      return undefined; // e.g. a stat refused: `serve` reports it properly
    }
    // The digest of the same versions as last time is the same response key.
    const memo = this.lastKeys.get(meta);
    let respKey: string;
    if (memo !== undefined && memo.deps.length === deps.length && memo.deps.every((d, i) => d.version === deps[i].version)) respKey = memo.respKey;
    else {
      respKey = responseKey(reqKey, deps, undefined);
      this.lastKeys.set(meta, { deps, respKey });
    }
    const etag = etagOf(respKey);
    if (ifNoneMatchHits(ifNoneMatch, etag)) {
      this.stats.notModified++;
      this.metrics.outcome('not_modified');
      return { status: 'not-modified', etag, image: meta.image === true };
    }
    const response = this.memory.getResponse(respKey);
    if (response === undefined || !accept(response, etag)) return undefined;
    this.stats.hits.memory++;
    this.metrics.outcome('hit_memory', response.body.length);
    return { status: 'hit', response, etag };
  }

  async close(): Promise<void> {
    if (this.redis !== undefined) untrackConnection(this.redis);
    await this.redis?.close();
  }

  /** A stored answer (or 304) for the request, if its inputs are unchanged. */
  private async lookup(reqKey: string, req: CacheRequest): Promise<CacheOutcome | undefined> {
    let meta = this.memory.getMeta(reqKey);
    let tier: 'memory' | 'redis' = 'memory';
    if (meta === NOT_CACHEABLE) return undefined;
    if (meta === undefined && this.redis !== undefined) {
      meta = await this.redis.getMeta(reqKey);
      tier = 'redis';
    }
    if (meta === undefined || meta.deps.length === 0) return undefined;
    const respKey = await this.currentKey(reqKey, meta, req);
    if (respKey === undefined) return undefined;
    const etag = etagOf(respKey);
    if (ifNoneMatchHits(req.ifNoneMatch, etag)) {
      this.stats.notModified++;
      this.metrics.outcome('not_modified');
      return { status: 'not-modified', etag, image: meta.image === true, reqKey };
    }
    let response = this.memory.getResponse(respKey);
    if (response === undefined && this.redis !== undefined) {
      response = await this.redis.getResponse(respKey);
      tier = 'redis';
      if (response !== undefined) {
        this.memory.putMeta(reqKey, meta);
        if (response.body.length <= this.options.maxEntryBytes) this.memory.putResponse(respKey, response);
      }
    }
    if (response === undefined) return undefined;
    this.stats.hits[tier]++;
    this.metrics.outcome(tier === 'memory' ? 'hit_memory' : 'hit_redis', response.body.length);
    return { status: 'hit', result: toResult(response), etag, reqKey };
  }

  /** The response key from the current versions of what the request read last time. */
  private async currentKey(reqKey: string, meta: CacheMeta, req: CacheRequest): Promise<string | undefined> {
    try {
      const versions = await Promise.all(meta.deps.map(([kind, location]) => this.versionOf(kind, location, req.signal)));
      const deps: ReadDep[] = [];
      for (let i = 0; i < versions.length; i++) {
        const version = versions[i];
        if (version === undefined) return undefined;
        deps.push({ kind: meta.deps[i][0], location: meta.deps[i][1], version });
      }
      return responseKey(reqKey, deps, meta.base ? req.baseUrl : undefined);
    } catch {
      return undefined; // e.g. the file is gone: rendering reports it properly
    }
  }

  private async renderOnce(reqKey: string, req: CacheRequest, render: () => Promise<HandlerResult>): Promise<CacheOutcome> {
    const redis = this.redis?.ready && this.memory.getMeta(reqKey) !== NOT_CACHEABLE ? this.redis : undefined;
    let locked = false;
    if (redis !== undefined) {
      const got = await redis.lock(reqKey, this.token, this.options.lockMs);
      if (got === false) {
        const waited = await this.waitForOther(reqKey, req, redis);
        if (waited !== undefined) return waited;
        locked = (await redis.lock(reqKey, this.token, this.options.lockMs)) === true;
      } else locked = got === true;
    }
    try {
      return await this.renderAndStore(reqKey, req, render);
    } finally {
      if (locked) void redis!.unlock(reqKey, this.token);
    }
  }

  /** Polls for another process's result until its lock goes away or the deadline passes. */
  private async waitForOther(reqKey: string, req: CacheRequest, redis: RedisStore): Promise<CacheOutcome | undefined> {
    const deadline = Date.now() + this.options.lockMs;
    this.stats.lockWaits++;
    this.metrics.outcome('lock_wait');
    for (let i = 0; Date.now() < deadline && !req.signal.aborted; i++) {
      await sleep(POLL_MS[Math.min(i, POLL_MS.length - 1)]);
      const found = await this.lookup(reqKey, { ...req, ifNoneMatch: undefined });
      if (found !== undefined && found.status === 'hit') {
        this.metrics.outcome('wait_hit');
        return { ...found, status: 'wait-hit' };
      }
      if ((await redis.locked(reqKey)) !== true) return this.lookup(reqKey, { ...req, ifNoneMatch: undefined });
    }
    return undefined;
  }

  private async renderAndStore(reqKey: string, req: CacheRequest, render: () => Promise<HandlerResult>): Promise<CacheOutcome> {
    const set = new ReadSet();
    const result = await runWithReadSet(set, render);
    this.stats.misses++;
    this.metrics.outcome('miss');
    const deps = set.deps();
    if (result.kind === 'redirect' || (result.status ?? 200) !== 200 || set.uncacheable !== undefined || deps.length === 0) {
      this.stats.uncacheable++;
      this.memory.putMeta(reqKey, NOT_CACHEABLE);
      return { status: 'uncacheable', result };
    }
    const response: CachedResponse =
      result.kind === 'json'
        ? { contentType: result.contentType ?? 'application/json', headers: result.headers ?? {}, body: Buffer.from(JSON.stringify(result.data)) }
        : { contentType: result.contentType, headers: result.headers ?? {}, body: Buffer.isBuffer(result.body) ? result.body : Buffer.from(result.body) };
    const base = set.inputs.has('base');
    const respKey = responseKey(reqKey, deps, base ? req.baseUrl : undefined);
    const meta: CacheMeta = { deps: deps.map((d) => [d.kind, d.location]), base, image: isImageType(response.contentType) };
    // The record is kept even for a response over the cap: it is enough to answer 304.
    this.memory.putMeta(reqKey, meta);
    let stored = response.body.length <= this.options.maxEntryBytes;
    if (stored) this.memory.putResponse(respKey, response);
    if (this.redis !== undefined) stored = (await this.redis.put(reqKey, meta, respKey, response)) && stored;
    this.metrics.outcome(stored ? 'stored' : 'not_stored');
    if (stored) this.stats.stored++;
    else this.stats.uncacheable++;
    return { status: 'miss', result: toResult(response), etag: etagOf(respKey), reqKey };
  }

  /** A shared answer seen through this request's If-None-Match. */
  private conditional(outcome: CacheOutcome, req: CacheRequest): CacheOutcome {
    if ((outcome.status === 'miss' || outcome.status === 'wait-hit' || outcome.status === 'hit') && ifNoneMatchHits(req.ifNoneMatch, outcome.etag)) {
      this.stats.notModified++;
      this.metrics.outcome('not_modified');
      return { status: 'not-modified', etag: outcome.etag, image: isImageType(outcome.result.contentType), reqKey: outcome.reqKey };
    }
    return outcome;
  }
}

function toResult(r: CachedResponse): HandlerResult & { kind: 'body' } {
  return { kind: 'body', body: r.body, contentType: r.contentType, headers: r.headers };
}

/** Images (tiles, previews, arrays) rather than documents: the Cache-Control class of tiles. */
export function isImageType(contentType: string): boolean {
  return !/json|html|xml|text\//.test(contentType);
}
