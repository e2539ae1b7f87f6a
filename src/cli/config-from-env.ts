/** Builds the Config from environment variables, overridden by CLI flags. Defaults live here only. */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config, ResponseCacheConfig, TrustProxy } from '../config.ts';
import { earthdataAuthOptionsFromEnv } from '../sources/earthdata-auth.ts';
import { sourceOptionsFromEnv } from '../sources/options.ts';

export const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../demo');
export const DEMO_FILE = path.join(DEMO_DIR, 'rastile-demo.tif');
/** The real demo dataset: Landsat 7 ETM+ over Olinda, Brazil (scripts/make-real-demo.py). */
export const REAL_DEMO_FILE = path.join(DEMO_DIR, 'olinda-landsat7.tif');

const MiB = 1024 * 1024;

export interface CliFlags {
  host?: string;
  port?: string;
  localRoots?: string;
  allowPrivateHosts?: boolean;
  cmrUrl?: string;
  trustProxy?: string;
  workers?: string;
  workerMode?: string;
  /** `validate --strict` (not a Config setting). */
  strict?: boolean;
}

function int(v: string | undefined, fallback: number, name: string): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${v}'`);
  return n;
}

/** A non-negative number (decimal or exponent notation, e.g. `5.625e7`). */
function num(v: string | undefined, fallback: number, name: string): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got '${v}'`);
  return n;
}

/**
 * `RASTILE_TRUST_PROXY` / `--trust-proxy`, read like Fastify's `trustProxy`: `true`/`false`, a hop
 * count, or comma-separated addresses/CIDRs of the trusted proxies. Unset or empty: `false`.
 */
export function parseTrustProxy(v: string | undefined): TrustProxy {
  const s = v?.trim() ?? '';
  if (s === '' || s.toLowerCase() === 'false') return false;
  if (s.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(s)) return Number(s);
  const entries = s.split(',').map((e) => e.trim());
  // Addresses, CIDRs or proxy-addr's names (loopback, linklocal, uniquelocal); anything else is a
  // typo that Fastify would only report as a TypeError at startup.
  const bad = entries.find((e) => !/^(loopback|linklocal|uniquelocal|[0-9A-Fa-f.:]+(\/\d+)?)$/.test(e));
  if (bad !== undefined) throw new Error(`RASTILE_TRUST_PROXY: '${bad}' is not true, false, a hop count or an address/CIDR`);
  return entries.join(',');
}

export function configFromEnv(env: NodeJS.ProcessEnv, flags: CliFlags = {}, cwd = process.cwd()): Config {
  const sources = sourceOptionsFromEnv(env, {
    localRoots: [path.resolve(cwd), DEMO_DIR],
    cacheBytes: 64 * MiB,
    maxWholeBodyBytes: 256 * MiB,
  });
  if (flags.localRoots !== undefined) {
    sources.localRoots = flags.localRoots
      .split(':')
      .filter((r) => r.trim() !== '')
      .map((r) => path.resolve(cwd, r.trim()));
  }
  if (flags.allowPrivateHosts !== undefined) sources.allowPrivateHosts = flags.allowPrivateHosts;
  sources.localRoots = [...new Set(sources.localRoots)];
  const cmrClientId = (env['RASTILE_CMR_CLIENT_ID'] ?? env['TITILER_CMR_CLIENT_ID'])?.trim() || undefined;
  const earthdata = earthdataAuthOptionsFromEnv(env);
  return {
    host: flags.host ?? env['HOST'] ?? '127.0.0.1',
    port: int(flags.port ?? env['PORT'], 8000, 'PORT'),
    sources,
    cmrUrl: (flags.cmrUrl ?? env['RASTILE_CMR_URL'] ?? 'https://cmr.earthdata.nasa.gov').replace(/\/+$/, ''),
    ...(cmrClientId !== undefined ? { cmrClientId } : {}),
    cmrTimeoutMs: int(env['RASTILE_CMR_TIMEOUT_MS'], 20_000, 'RASTILE_CMR_TIMEOUT_MS'),
    cmrRetries: int(env['RASTILE_CMR_RETRIES'], 2, 'RASTILE_CMR_RETRIES'),
    mosaicConcurrency: Math.max(1, int(env['RASTILE_MOSAIC_CONCURRENCY'], 5, 'RASTILE_MOSAIC_CONCURRENCY')),
    timeseries: {
      concurrency: Math.max(1, int(env['RASTILE_TIMESERIES_CONCURRENCY'], 4, 'RASTILE_TIMESERIES_CONCURRENCY')),
      // 0 (the calling thread) by default: on the loaded bench machine the threads cost more CPU
      // than they saved wall time (BENCHMARKS.md, time series, 2026-11-26 h11pool); `auto` = the cores.
      threads:
        env['RASTILE_TIMESERIES_THREADS'] === 'auto'
          ? os.availableParallelism()
          : Math.max(0, int(env['RASTILE_TIMESERIES_THREADS'], 0, 'RASTILE_TIMESERIES_THREADS')),
      threadsIdleMs: 1000 * Math.max(0, num(env['RASTILE_TIMESERIES_THREADS_IDLE_S'], 300, 'RASTILE_TIMESERIES_THREADS_IDLE_S')),
      threadsWhenCold: env['RASTILE_TIMESERIES_THREADS_COLD'] === 'wait' ? 'wait' : 'inline',
      maxSteps: int(env['RASTILE_TIMESERIES_MAX_STEPS'], 995, 'RASTILE_TIMESERIES_MAX_STEPS'),
      maxImagePixels: num(env['RASTILE_TIMESERIES_MAX_IMAGE_SIZE'], 5.625e7, 'RASTILE_TIMESERIES_MAX_IMAGE_SIZE'),
      maxStatisticsTotalPixels: num(env['RASTILE_TIMESERIES_STATISTICS_MAX_TOTAL_SIZE'], 1.5e10, 'RASTILE_TIMESERIES_STATISTICS_MAX_TOTAL_SIZE'),
      maxImageTotalPixels: num(env['RASTILE_TIMESERIES_IMAGE_MAX_TOTAL_SIZE'], 1e8, 'RASTILE_TIMESERIES_IMAGE_MAX_TOTAL_SIZE'),
    },
    ...(earthdata !== undefined ? { earthdata } : {}),
    cacheControl: env['RASTILE_CACHE_CONTROL'] ?? 'public, max-age=3600',
    corsOrigins: env['RASTILE_CORS_ORIGINS'] ?? '*',
    trustProxy: parseTrustProxy(flags.trustProxy ?? env['RASTILE_TRUST_PROXY']),
    cache: {
      decodedBytes: int(env['RASTILE_BLOCK_CACHE_MB'], 40, 'RASTILE_BLOCK_CACHE_MB') * MiB,
      datasets: int(env['RASTILE_DATASET_CACHE'], 256, 'RASTILE_DATASET_CACHE'),
    },
    limits: {
      maxImageSide: int(env['RASTILE_MAX_IMAGE_SIDE'], 10000, 'RASTILE_MAX_IMAGE_SIDE'),
      maxReadPixels: int(env['RASTILE_MAX_READ_PIXELS'], 100_000_000, 'RASTILE_MAX_READ_PIXELS'),
      maxBlockBytes: int(env['RASTILE_MAX_BLOCK_MB'], 64, 'RASTILE_MAX_BLOCK_MB') * MiB,
      maxBodyBytes: int(env['RASTILE_MAX_BODY_MB'], 8, 'RASTILE_MAX_BODY_MB') * MiB,
      maxRequestBytes: int(env['RASTILE_MAX_REQUEST_MB'], 768, 'RASTILE_MAX_REQUEST_MB') * MiB,
      maxInflightBytes: int(env['RASTILE_MAX_INFLIGHT_MB'], 1024, 'RASTILE_MAX_INFLIGHT_MB') * MiB,
      heavyRequestBytes: int(env['RASTILE_HEAVY_REQUEST_MB'], 32, 'RASTILE_HEAVY_REQUEST_MB') * MiB,
      maxQueue: int(env['RASTILE_MAX_QUEUE'], 32, 'RASTILE_MAX_QUEUE'),
      requestTimeoutMs: int(env['RASTILE_REQUEST_TIMEOUT_MS'], 30_000, 'RASTILE_REQUEST_TIMEOUT_MS'),
    },
    // Every core the process may use (cgroup/affinity aware) unless told otherwise.
    workers: Math.max(1, int(flags.workers ?? env['RASTILE_WORKERS'], os.availableParallelism(), 'RASTILE_WORKERS')),
    ...workerModeFrom(flags.workerMode ?? env['RASTILE_WORKER_MODE']),
    shutdownTimeoutMs: int(env['RASTILE_SHUTDOWN_TIMEOUT_MS'], 25_000, 'RASTILE_SHUTDOWN_TIMEOUT_MS'),
    demoDir: DEMO_DIR,
    responseCache: responseCacheFromEnv(env),
  };
}

/** RASTILE_WORKER_MODE / --worker-mode: `processes` or `threads`; unset or empty: the default (src/cli/serve.ts). */
function workerModeFrom(v: string | undefined): Pick<Config, 'workerMode'> {
  const s = v?.trim().toLowerCase() ?? '';
  if (s === '') return {};
  if (s === 'processes' || s === 'threads') return { workerMode: s };
  throw new Error(`RASTILE_WORKER_MODE must be processes or threads, got '${v}'`);
}

/** RASTILE_RESPONSE_CACHE_MB, RASTILE_CACHE_URL and the other response-cache settings (README "Deploying"). */
export function responseCacheFromEnv(env: NodeJS.ProcessEnv): ResponseCacheConfig {
  const url = env['RASTILE_CACHE_URL']?.trim() || undefined;
  if (url !== undefined && !/^rediss?:\/\//.test(url)) throw new Error(`RASTILE_CACHE_URL must be a redis:// or rediss:// URL, got '${url}'`);
  return {
    memoryBytes: int(env['RASTILE_RESPONSE_CACHE_MB'], 64, 'RASTILE_RESPONSE_CACHE_MB') * MiB,
    ...(url !== undefined ? { url } : {}),
    ttlMs: Math.max(1, int(env['RASTILE_CACHE_TTL_S'], 86_400, 'RASTILE_CACHE_TTL_S')) * 1000,
    maxEntryBytes: int(env['RASTILE_CACHE_MAX_ENTRY_KB'], 4096, 'RASTILE_CACHE_MAX_ENTRY_KB') * 1024,
    lockMs: Math.max(1, int(env['RASTILE_CACHE_LOCK_MS'], 5000, 'RASTILE_CACHE_LOCK_MS')),
    maxPostBytes: int(env['RASTILE_CACHE_MAX_POST_KB'], 64, 'RASTILE_CACHE_MAX_POST_KB') * 1024,
    cacheControlTiles: env['RASTILE_CACHE_CONTROL_TILES'] ?? 'public, max-age=86400',
    cacheControlErrors: env['RASTILE_CACHE_CONTROL_ERRORS'] ?? 'no-store',
  };
}
