/**
 * The response cache's shared store: a Redis (or Valkey) reached at RASTILE_CACHE_URL, shared by
 * the workers and replicas. Records and responses expire after a TTL; a response over the
 * per-entry cap is not stored. A lock per request key (SET NX with an expiry) lets one process
 * render while the others wait for its result.
 *
 * An outage never fails a request: the client has no offline queue (a command while
 * disconnected fails at once), short connect and command timeouts, and reconnects in the
 * background; every operation answers "nothing" on error, so the caller renders.
 *
 * ioredis is loaded when the first store is made (with RASTILE_CACHE_URL): a server without Redis
 * never holds it (~15 MB of resident memory per process, measured).
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { decodeMeta, decodeResponse, encodeMeta, encodeResponse, type CacheMeta, type CachedResponse } from './store.ts';

export interface RedisStoreOptions {
  url: string;
  /** Lifetime of records and responses, ms. */
  ttlMs: number;
  /** Largest response stored, bytes (encoded). */
  maxEntryBytes: number;
  /** Key prefix (several deployments may share one Redis). */
  prefix?: string;
  /** Connect / command timeouts, ms. */
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** Called for each failed operation. */
  onError?: () => void;
}

/** Releases a lock only when it still holds our token (it may have expired and been taken since). */
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export class RedisStore {
  private readonly client: Redis;
  private readonly prefix: string;
  /** Operations that failed (timeouts, disconnections). */
  errors = 0;

  constructor(private readonly options: RedisStoreOptions) {
    this.prefix = options.prefix ?? 'rastile:';
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.client = new RedisClient(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: options.connectTimeoutMs ?? 500,
      commandTimeout: options.commandTimeoutMs ?? 250,
      // Reconnect in the background, at most every 2 s; meanwhile requests render.
      retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
      enableReadyCheck: true,
    });
    this.client.on('error', () => {}); // counted per operation; the client reconnects by itself
  }

  /** Whether commands can be sent now (no waiting while Redis is away). */
  get ready(): boolean {
    return this.client.status === 'ready';
  }

  get connected(): boolean {
    return this.ready;
  }

  async getMeta(reqKey: string): Promise<CacheMeta | undefined> {
    const text = await this.run(() => this.client.get(`${this.prefix}m:${reqKey}`));
    return text ? decodeMeta(text) : undefined;
  }

  async getResponse(respKey: string): Promise<CachedResponse | undefined> {
    const buf = await this.run(() => this.client.getBuffer(`${this.prefix}r:${respKey}`));
    return buf ? decodeResponse(buf) : undefined;
  }

  /**
   * Stores a request's record and, when under the per-entry cap, its response (false: over the
   * cap, only the record was kept — enough for 304 answers).
   */
  async put(reqKey: string, meta: CacheMeta, respKey: string, response: CachedResponse): Promise<boolean> {
    const encoded = encodeResponse(response);
    const fits = encoded.length <= this.options.maxEntryBytes;
    const ttl = Math.max(1, Math.round(this.options.ttlMs));
    await this.run(() => {
      const tx = this.client.multi();
      if (fits) tx.set(`${this.prefix}r:${respKey}`, encoded, 'PX', ttl);
      return tx.set(`${this.prefix}m:${reqKey}`, encodeMeta(meta), 'PX', ttl).exec();
    });
    return fits;
  }

  /** Takes the render lock of `reqKey` for `ms`: true when taken, false when another holds it, undefined when Redis is away. */
  async lock(reqKey: string, token: string, ms: number): Promise<boolean | undefined> {
    const r = await this.run(() => this.client.set(`${this.prefix}l:${reqKey}`, token, 'PX', Math.max(1, Math.round(ms)), 'NX'));
    return r === undefined ? undefined : r === 'OK';
  }

  /** Whether someone holds the lock of `reqKey` (undefined when Redis is away). */
  async locked(reqKey: string): Promise<boolean | undefined> {
    const r = await this.run(() => this.client.exists(`${this.prefix}l:${reqKey}`));
    return r === undefined ? undefined : r > 0;
  }

  async unlock(reqKey: string, token: string): Promise<void> {
    await this.run(() => this.client.eval(UNLOCK, 1, `${this.prefix}l:${reqKey}`, token));
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** Runs a command when connected; any failure is counted and answered with undefined. */
  private async run<T>(op: () => Promise<T>): Promise<T | undefined> {
    if (!this.ready) return undefined;
    try {
      return await op();
    } catch {
      this.errors++;
      this.options.onError?.();
      return undefined;
    }
  }
}
