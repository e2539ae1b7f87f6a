/**
 * Prometheus metrics (prom-client) of this process: one registry (prom-client's global one, which
 * the cluster aggregation in src/util/cluster-metrics.ts collects from every worker) and small
 * get-or-create helpers, so that any module (caches, sources, HTTP hooks) registers its metrics by
 * name without an import order and without "already registered" errors when tests build several
 * apps in one process.
 *
 * Naming: `rastile_<what>_<unit>`; counters end in `_total`. Labels are low-cardinality only
 * (route templates, hosts, cache names, status codes).
 *
 * Cache API for any cache of the server (block cache, byte cache, response cache…):
 *   const m = cacheMetrics('response');  m.hit(bytes); m.miss();   // counted as they happen
 *   observeCacheSize('response', () => ({ bytes, entries }));     // read at scrape time
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, register, type Registry } from 'prom-client';

export const metricsRegistry: Registry = register;

/** Seconds; from a cached tile (~0.1 ms) to the request deadline (30 s). */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function existing<T>(name: string, kind: new (...args: never[]) => T): T | undefined {
  const m = metricsRegistry.getSingleMetric(name);
  if (m === undefined) return undefined;
  if (!(m instanceof kind)) throw new Error(`metric ${name} is already registered with another type`);
  return m;
}

export function counter<L extends string = string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return existing(name, Counter<L>) ?? new Counter<L>({ name, help, labelNames, registers: [metricsRegistry] });
}

/**
 * A gauge; with `collect`, its value is computed at scrape time (`collect` sets it). A gauge that
 * exists already keeps its first `collect`.
 */
export function gauge<L extends string = string>(name: string, help: string, labelNames: readonly L[] = [], collect?: (g: Gauge<L>) => void): Gauge<L> {
  const found = existing(name, Gauge<L>);
  if (found !== undefined) return found;
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    ...(collect !== undefined
      ? {
          collect(this: Gauge<L>) {
            collect(this);
          },
        }
      : {}),
  });
}

export function histogram<L extends string = string>(name: string, help: string, labelNames: readonly L[] = [], buckets = LATENCY_BUCKETS): Histogram<L> {
  return existing(name, Histogram<L>) ?? new Histogram<L>({ name, help, labelNames, buckets, registers: [metricsRegistry] });
}

// ---- caches ----

export interface CacheCounters {
  /** A lookup answered from the cache; `bytes`: the size of what it served (when known). */
  hit(bytes?: number): void;
  /** A lookup that had to compute or fetch the value. */
  miss(): void;
}

/** Hit/miss counters of the cache named `cache` (`rastile_cache_{hits,misses,hit_bytes}_total{cache}`). */
export function cacheMetrics(cache: string): CacheCounters {
  const hits = counter('rastile_cache_hits_total', 'Cache lookups answered from the cache', ['cache']).labels(cache);
  const hitBytes = counter('rastile_cache_hit_bytes_total', 'Bytes served from caches', ['cache']).labels(cache);
  const misses = counter('rastile_cache_misses_total', 'Cache lookups that computed or fetched the value', ['cache']).labels(cache);
  return {
    hit(bytes) {
      hits.inc();
      if (bytes !== undefined && bytes > 0) hitBytes.inc(bytes);
    },
    miss() {
      misses.inc();
    },
  };
}

export interface CacheSize {
  bytes: number;
  entries: number;
  /** The cache's capacity in bytes, when byte-capped. */
  maxBytes?: number;
}

const cacheSizes = new Map<string, () => CacheSize>();

/**
 * Reports the size of the cache named `cache` at every scrape (`rastile_cache_bytes{cache}`,
 * `rastile_cache_entries{cache}`, `rastile_cache_max_bytes{cache}`). A later call for the same
 * name replaces the earlier reader (the newest services instance of a process wins).
 */
export function observeCacheSize(cache: string, read: () => CacheSize): void {
  cacheSizes.set(cache, read);
  const each = (g: Gauge<'cache'>, pick: (s: CacheSize) => number | undefined): void => {
    g.reset();
    for (const [name, r] of cacheSizes) {
      const v = pick(r());
      if (v !== undefined) g.set({ cache: name }, v);
    }
  };
  gauge('rastile_cache_bytes', 'Bytes held by each cache', ['cache'], (g) => each(g, (s) => s.bytes));
  gauge('rastile_cache_entries', 'Entries held by each cache', ['cache'], (g) => each(g, (s) => s.entries));
  gauge('rastile_cache_max_bytes', 'Capacity of each byte-capped cache', ['cache'], (g) => each(g, (s) => s.maxBytes));
}

let defaultsOn = false;

/** prom-client's process metrics (CPU, RSS, heap, event-loop lag, GC), once per process. */
export function enableProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
