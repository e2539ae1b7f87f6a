/**
 * The one typed configuration object. Built from environment variables and CLI flags in
 * src/cli/config-from-env.ts; every default is documented in the README.
 */
import type { EarthdataAuthOptions } from './sources/earthdata-auth.ts';
import type { SourceOptions } from './sources/options.ts';

export type TrustProxy = boolean | number | string;

export interface Config {
  host: string;
  port: number;
  /** Byte sources: local roots, network policy, timeouts, retries, S3 credentials, byte cache. */
  sources: SourceOptions;
  /** NASA CMR base URL (granule-search service). */
  cmrUrl: string;
  /** Sent to CMR as the `client-id` header (identifies this deployment to CMR). */
  cmrClientId?: string;
  /** Deadline of one CMR request, ms. */
  cmrTimeoutMs: number;
  /** Retries of a transient CMR failure (5xx, 429, reset). */
  cmrRetries: number;
  /** Granules read in parallel per chunk of a mosaic (titiler's MOSAIC_CONCURRENCY). */
  mosaicConcurrency: number;
  /** Time series over granules (titiler-cmr §5): steps in flight, step cap, size-guard caps. */
  timeseries: {
    /** Steps executed at once per request (RASTILE_TIMESERIES_CONCURRENCY). */
    concurrency: number;
    /**
     * Worker threads the per-granule-set work of a series (read, mosaic, statistics or frame)
     * runs on (RASTILE_TIMESERIES_THREADS; default 0: the calling thread; `auto`: the available cores).
     */
    threads: number;
    /**
     * Those threads end after this long without a series task (RASTILE_TIMESERIES_THREADS_IDLE_S,
     * default 300 s; 0 = never), their memory going back; the next series starts and warms them again.
     */
    threadsIdleMs?: number;
    /**
     * A series arriving while those threads are not started or still warming up
     * (RASTILE_TIMESERIES_THREADS_COLD): `inline` (default) runs on the calling thread and starts
     * them once its response is done; `wait` waits for their warm-up.
     */
    threadsWhenCold?: 'inline' | 'wait';
    /** Most steps one request may ask for (titiler-cmr's TIME_SERIES_MAX_REQUESTS, 995). */
    maxSteps: number;
    /** Estimated pixels per step (5.625e7) and over all steps for statistics (1.5e10) and GIFs (1e8). */
    maxImagePixels: number;
    maxStatisticsTotalPixels: number;
    maxImageTotalPixels: number;
    /** "Now" (ms since 1970) for open-ended ranges; Date.now when absent (tests freeze it). */
    clock?: () => number;
  };
  /** NASA Earthdata Login credentials for https granule reads (bearer token), when configured. */
  earthdata?: EarthdataAuthOptions;
  /** Cache-Control sent on successful and 4xx GET responses (TiTiler's CACHECONTROL). */
  cacheControl: string;
  /** Access-Control-Allow-Origin value ('' disables CORS headers). */
  corsOrigins: string;
  /**
   * Fastify's `trustProxy`: which peers may set X-Forwarded-For/Host/Proto. `false` (default):
   * links in TileJSON/WMTS/landing documents use the Host header and the socket's protocol;
   * `true`: any peer; a string: comma-separated addresses/CIDRs of the proxies; a number: hop
   * count (client IP only: Fastify never takes Host/Proto from forwarded headers on a hop count).
   */
  trustProxy: TrustProxy;
  cache: {
    /** Decoded raster blocks. */
    decodedBytes: number;
    /** Number of opened datasets (headers) kept. */
    datasets: number;
  };
  limits: {
    /** Largest width or height accepted for an output image (`width`, `height`, `tilesize`, `max_size`). */
    maxImageSide: number;
    /** Largest number of pixels (per band) one read may produce. */
    maxReadPixels: number;
    /** Largest decoded block of a raster file. */
    maxBlockBytes: number;
    /** Largest POST body. */
    maxBodyBytes: number;
    /** Most memory (band arrays, masks, windows, blocks, encoders) one request may hold at once. */
    maxRequestBytes: number;
    /** Memory held beyond `heavyRequestBytes` by all requests together (reservations). */
    maxInflightBytes: number;
    /** Requests estimated above this wait for a reservation; smaller ones never queue. */
    heavyRequestBytes: number;
    /** Requests waiting for a reservation at once; more get 503 + Retry-After. */
    maxQueue: number;
    /** A request running longer is cut with 503 (0 = no deadline). */
    requestTimeoutMs: number;
  };
  /** Server processes (`RASTILE_WORKERS`, `--workers`): 1 = this process serves; more = a cluster. */
  workers: number;
  /**
   * How `workers` > 1 serve (`RASTILE_WORKER_MODE`, `--worker-mode`): `processes`, node:cluster
   * (src/cli/supervisor.ts), or `threads`, worker threads of one process (src/cli/threads.ts).
   * Absent: the default of src/cli/serve.ts.
   */
  workerMode?: 'processes' | 'threads';
  /** Graceful shutdown: how long in-flight requests may run after SIGTERM before they are cut, ms. */
  shutdownTimeoutMs: number;
  /** Directory holding the built-in demo dataset. */
  demoDir: string;
  /** Response cache and HTTP caching classes (src/http/response-cache). Absent: no response cache, no ETags. */
  responseCache?: ResponseCacheConfig;
}

export interface ResponseCacheConfig {
  /** In-process store, bytes (0: none). */
  memoryBytes: number;
  /** `redis://…` of a Redis/Valkey shared by workers and replicas. */
  url?: string;
  /** Lifetime of entries in Redis, ms. */
  ttlMs: number;
  /** Largest response stored, bytes. */
  maxEntryBytes: number;
  /** Render lock lifetime, and the longest wait for another process's render, ms. */
  lockMs: number;
  /** Largest POST body whose response is cached, bytes. */
  maxPostBytes: number;
  /** Cache-Control of images (tiles, previews) whose every input is versioned. */
  cacheControlTiles: string;
  /** Cache-Control of 4xx answers. */
  cacheControlErrors: string;
}
