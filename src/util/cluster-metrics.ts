/**
 * /metrics of a cluster, worker side. Any worker may receive the scrape: it asks the supervisor,
 * which collects every worker's metrics as JSON (prom-client's `getMetricsAsJSON`, requested over
 * the IPC channel: src/cli/supervisor-metrics.ts) and adds its own; the asking worker merges them
 * with prom-client's `AggregatorRegistry.aggregate` (counters and histograms summed, gauges
 * summed). One scrape = the whole process tree, no per-worker label: Prometheus sees one target,
 * as with a single process. The supervisor itself never loads prom-client (~13 MB resident).
 */
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';
import { MSG, type MetricJson } from './cluster-metrics-protocol.ts';
import { metricsRegistry } from './metrics.ts';

interface Message {
  type?: string;
  id?: number;
  metrics?: MetricJson[][];
  error?: string;
}

let joined = false;

/** In a worker: answer the supervisor's collection requests (call once at start-up). */
export function joinClusterMetrics(): void {
  if (joined) return;
  joined = true;
  process.on('message', (message: Message | null) => {
    if (message?.type !== MSG.collect || typeof message.id !== 'number') return;
    const id = message.id;
    void metricsRegistry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: MSG.local, id, metrics: [metrics] }),
      (err: unknown) => process.send?.({ type: MSG.local, id, metrics: [], error: String(err) }),
    );
  });
}

let nextId = 0;

/** In a worker: the aggregated metrics text of the whole cluster. */
export function clusterMetricsText(timeoutMs = 6000): Promise<string> {
  const send = process.send?.bind(process);
  if (send === undefined) return Promise.reject(new Error('not a cluster worker'));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: Message | null): void => {
      if (message?.type !== MSG.all || message.id !== id) return;
      done();
      if (message.metrics === undefined) return reject(new Error(`metrics aggregation failed: ${message.error ?? 'no answer'}`));
      AggregatorRegistry.aggregate<PrometheusContentType>(message.metrics).metrics().then(resolve, reject);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('metrics aggregation timed out'));
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    send({ type: MSG.scrape, id });
  });
}
