/**
 * One worker's share of the configuration when `workers` processes serve together: the memory
 * budgets in the Config are the whole process tree's, so each worker gets 1/N of every one of
 * them. Counts that bound something other than memory (open datasets and files, the queue of
 * heavy requests, per-request limits) stay per worker.
 *
 *   divided: cache.decodedBytes (RASTILE_BLOCK_CACHE_MB), sources.cacheBytes (RASTILE_CACHE_BYTES),
 *            limits.maxInflightBytes (RASTILE_MAX_INFLIGHT_MB),
 *            responseCache.memoryBytes (RASTILE_RESPONSE_CACHE_MB; the Redis store is shared, not divided)
 *   kept:    limits.maxRequestBytes, maxBlockBytes, maxReadPixels, maxBodyBytes, heavyRequestBytes
 *            (one request's limits), maxQueue, cache.datasets, sources.maxWholeBodyBytes (one body)
 *
 * The buffer pool (src/util/buffer-pool.ts, 24 MiB, not configurable) is split the same way when
 * a worker starts (src/cli/serve.ts). A cache added later that holds bytes in-process belongs in
 * the divided list.
 */
import type { Config } from '../config.ts';

export function workerShare(config: Config, workers: number): Config {
  if (workers <= 1) return config;
  const part = (bytes: number): number => Math.floor(bytes / workers);
  return {
    ...config,
    sources: { ...config.sources, cacheBytes: part(config.sources.cacheBytes) },
    cache: { ...config.cache, decodedBytes: part(config.cache.decodedBytes) },
    limits: { ...config.limits, maxInflightBytes: part(config.limits.maxInflightBytes) },
    ...(config.responseCache !== undefined ? { responseCache: { ...config.responseCache, memoryBytes: part(config.responseCache.memoryBytes) } } : {}),
  };
}
