/**
 * The supervisor's side of cluster metrics (src/util/cluster-metrics.ts): on a worker's scrape
 * request, collect every live worker's metrics JSON, add the supervisor's own series, and send
 * them all to the asking worker, which aggregates and renders them. Plain objects: no prom-client
 * in the supervisor. A worker that does not answer within the deadline is left out of that scrape.
 */
import cluster, { type Worker } from 'node:cluster';
import { MSG, type MetricJson } from '../util/cluster-metrics-protocol.ts';

const COLLECT_TIMEOUT_MS = 5000;

interface Message {
  type?: string;
  id?: number;
  metrics?: MetricJson[][];
}

export interface SupervisorCounts {
  restarts: number;
  workers: number;
}

function own(counts: SupervisorCounts): MetricJson[] {
  const one = (name: string, help: string, type: string, value: number): MetricJson => ({
    name,
    help,
    type,
    values: [{ value, labels: {} }],
    aggregator: 'sum',
  });
  return [
    one('rastile_worker_restarts_total', 'Workers restarted after they died', 'counter', counts.restarts),
    one('rastile_workers', 'Worker processes listening', 'gauge', counts.workers),
    one(
      'rastile_supervisor_resident_bytes',
      'Resident set size of the cluster supervisor (the workers report theirs in rastile_process_resident_bytes, summed)',
      'gauge',
      process.memoryUsage.rss(),
    ),
  ];
}

export function serveClusterMetrics(counts: () => SupervisorCounts): void {
  let nextId = 0;
  const pending = new Map<number, { got: MetricJson[][]; waiting: number; finish: () => void }>();
  cluster.on('message', (worker: Worker, message: Message | null) => {
    if (message?.type === MSG.local && typeof message.id === 'number') {
      const p = pending.get(message.id);
      if (p === undefined) return;
      p.got.push(...(message.metrics ?? []));
      if (--p.waiting === 0) p.finish();
      return;
    }
    if (message?.type !== MSG.scrape || typeof message.id !== 'number') return;
    const askId = message.id;
    const id = nextId++;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
    const entry = {
      got: [] as MetricJson[][],
      waiting: workers.length,
      finish: () => {
        clearTimeout(timer);
        pending.delete(id);
        if (worker.isConnected()) worker.send({ type: MSG.all, id: askId, metrics: [...entry.got, own(counts())] });
      },
    };
    const timer = setTimeout(entry.finish, COLLECT_TIMEOUT_MS);
    pending.set(id, entry);
    for (const w of workers) w.send({ type: MSG.collect, id });
    if (workers.length === 0) entry.finish();
  });
}
