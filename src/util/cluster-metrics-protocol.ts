/**
 * The IPC messages of cluster metrics (src/util/cluster-metrics.ts in workers,
 * src/cli/supervisor-metrics.ts in the supervisor). No prom-client here: the supervisor imports it.
 */
/** Messages between workers and the supervisor. */
export const MSG = {
  /** worker → supervisor: a scrape arrived, send me everyone's metrics. */
  scrape: 'rastile:metrics-scrape',
  /** supervisor → every worker: send me your metrics. */
  collect: 'rastile:metrics-collect',
  /** worker → supervisor: my metrics (JSON). */
  local: 'rastile:metrics-local',
  /** supervisor → the asking worker: every worker's metrics and the supervisor's. */
  all: 'rastile:metrics-all',
} as const;

/** One metric as prom-client's `getMetricsAsJSON` gives it. */
export interface MetricJson {
  name: string;
  help: string;
  type: string;
  values: Array<{ value: number; labels: Record<string, string | number> }>;
  aggregator: string;
}
