/**
 * The response cache's Prometheus metrics (src/util/metrics.ts registry): the shared
 * `rastile_cache_{hits,misses,hit_bytes}_total{cache="response"}`, the memory tier's size, and
 * `rastile_response_cache_total{outcome}` (hit_memory, hit_redis, wait_hit, miss, not_modified,
 * stored, not_stored, lock_wait), `rastile_response_cache_redis_errors_total`, and
 * `rastile_response_cache_redis_connected` (response caches of this process — or of the whole
 * tree under cluster aggregation — whose Redis connection is up).
 */
import { cacheMetrics, counter, gauge, observeCacheSize } from '../../util/metrics.ts';
import type { MemoryStore } from './store.ts';

export type CacheOutcomeName = 'hit_memory' | 'hit_redis' | 'wait_hit' | 'miss' | 'not_modified' | 'stored' | 'not_stored' | 'lock_wait';

export interface ResponseCacheMetrics {
  outcome(name: CacheOutcomeName, bytes?: number): void;
  redisError(): void;
}

/** What the connected gauge reads at scrape time. */
interface Connectable {
  readonly connected: boolean;
}

const live = new Set<Connectable>();

export function responseCacheMetrics(memory: MemoryStore, maxBytes: number): ResponseCacheMetrics {
  const generic = cacheMetrics('response');
  const outcomes = counter('rastile_response_cache_total', 'Response cache outcomes', ['outcome']);
  const errors = counter('rastile_response_cache_redis_errors_total', 'Redis operations of the response cache that failed (the request rendered instead)');
  gauge('rastile_response_cache_redis_connected', 'Response caches whose Redis connection is up', [], (g) => {
    let n = 0;
    for (const c of live) if (c.connected) n++;
    g.set(n);
  });
  observeCacheSize('response', () => ({ bytes: memory.bytes, entries: memory.entries, maxBytes }));
  // Each outcome's labelled series, looked up once (prom-client hashes a label object per call).
  const series = new Map<string, { inc(): void }>();
  return {
    outcome(name, bytes) {
      let s = series.get(name);
      if (s === undefined) series.set(name, (s = outcomes.labels({ outcome: name })));
      s.inc();
      if (name === 'hit_memory' || name === 'hit_redis') generic.hit(bytes);
      else if (name === 'miss') generic.miss();
    },
    redisError() {
      errors.inc();
    },
  };
}

/** Counts `c` in the connected gauge until `untrack`. */
export function trackConnection(c: Connectable): void {
  live.add(c);
}

export function untrackConnection(c: Connectable): void {
  live.delete(c);
}
