/**
 * /metrics of a cluster, worker side — a worker process of node:cluster or a worker thread.
 * Any worker may receive the scrape: it asks the supervisor (the cluster's primary, or the main
 * thread), which collects every worker's metrics as JSON (prom-client's `getMetricsAsJSON`,
 * requested over the IPC channel or the thread's MessagePort: src/cli/supervisor-metrics.ts) and
 * adds its own; the asking worker merges them with prom-client's `AggregatorRegistry.aggregate`
 * (counters and histograms summed, gauges summed). One scrape = the whole server, no per-worker
 * label: Prometheus sees one target, as with a single process. The supervisor itself never loads
 * prom-client (~13 MB resident).
 *
 * Threads share one process: the process-wide series (`process_*`: CPU, resident memory, open
 * files; `rastile_process_resident_bytes`) are the same figure in every thread, so a thread sends
 * them with the `max` aggregator instead of `sum`.
 */
import { parentPort } from 'node:worker_threads';
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';
import { MSG, type MetricJson } from './cluster-metrics-protocol.ts';
import { metricsRegistry } from './metrics.ts';

interface Message {
  type?: string;
  id?: number;
  metrics?: MetricJson[][];
  error?: string;
}

/** How this worker talks to its supervisor. */
interface Channel {
  send(message: object): void;
  on(listener: (message: Message | null) => void): void;
  off(listener: (message: Message | null) => void): void;
}

let channel: Channel | undefined;
let threads = false;

const PROCESS_WIDE = /^(process_|rastile_process_resident_bytes$)/;

function processChannel(): Channel {
  return {
    send: (m) => process.send?.(m),
    on: (l) => process.on('message', l),
    off: (l) => process.off('message', l),
  };
}

function threadChannel(): Channel {
  const port = parentPort;
  if (port === null) throw new Error('joinClusterMetrics("thread") outside a worker thread');
  return {
    send: (m) => port.postMessage(m),
    on: (l) => port.on('message', l),
    off: (l) => port.off('message', l),
  };
}

/** True once this process or thread is a worker whose /metrics is the whole server's. */
export function inCluster(): boolean {
  return channel !== undefined;
}

async function localMetrics(): Promise<Awaited<ReturnType<typeof metricsRegistry.getMetricsAsJSON>>> {
  const metrics = await metricsRegistry.getMetricsAsJSON();
  return threads ? metrics.map((m) => (PROCESS_WIDE.test(m.name) ? { ...m, aggregator: 'max' as const } : m)) : metrics;
}

/** In a worker (a cluster's process or a worker thread): answer the supervisor's collection requests (call once at start-up). */
export function joinClusterMetrics(kind: 'process' | 'thread' = 'process'): void {
  if (channel !== undefined) return;
  threads = kind === 'thread';
  const ch = threads ? threadChannel() : processChannel();
  channel = ch;
  ch.on((message) => {
    if (message?.type !== MSG.collect || typeof message.id !== 'number') return;
    const id = message.id;
    void localMetrics().then(
      (metrics) => ch.send({ type: MSG.local, id, metrics: [metrics] }),
      (err: unknown) => ch.send({ type: MSG.local, id, metrics: [], error: String(err) }),
    );
  });
}

let nextId = 0;

/** In a worker: the aggregated metrics text of the whole cluster. */
export function clusterMetricsText(timeoutMs = 6000): Promise<string> {
  const ch = channel;
  if (ch === undefined) return Promise.reject(new Error('not a cluster worker'));
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
      ch.off(onMessage);
    };
    ch.on(onMessage);
    ch.send({ type: MSG.scrape, id });
  });
}
