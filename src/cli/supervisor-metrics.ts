/**
 * The supervisor's side of cluster metrics (src/util/cluster-metrics.ts): on a worker's scrape
 * request, collect every live worker's metrics JSON, add the supervisor's own series, and send
 * them all to the asking worker, which aggregates and renders them. Plain objects: no prom-client
 * in the supervisor. A worker that does not answer within the deadline is left out of that scrape.
 * Workers are cluster processes (`serveClusterMetrics`) or worker threads (`serveThreadMetrics`).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Worker as ThreadWorker } from 'node:worker_threads';
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
  /** Threads: the supervisor is the serving process itself, its memory is in the workers' figures. */
  threads?: boolean;
}

function own(counts: SupervisorCounts): MetricJson[] {
  const one = (name: string, help: string, type: string, value: number): MetricJson => ({
    name,
    help,
    type,
    values: [{ value, labels: {} }],
    aggregator: 'sum',
  });
  const series = [
    one('rastile_worker_restarts_total', 'Workers restarted after they died', 'counter', counts.restarts),
    one('rastile_workers', 'Workers (processes or threads) listening', 'gauge', counts.workers),
  ];
  if (counts.threads !== true)
    series.push(
      one(
        'rastile_supervisor_resident_bytes',
        'Resident set size of the cluster supervisor (the workers report theirs in rastile_process_resident_bytes, summed)',
        'gauge',
        process.memoryUsage.rss(),
      ),
    );
  return series;
}

/** One worker as the collection sees it. */
interface Member {
  send(message: object): void;
}

/** Answers scrapes: `members()` are the live workers; `listen` delivers every worker's messages with a way to answer it. */
function serveMetrics(
  members: () => Member[],
  listen: (handler: (from: Member, message: Message | null) => void) => void,
  counts: () => SupervisorCounts,
): void {
  let nextId = 0;
  const pending = new Map<number, { got: MetricJson[][]; waiting: number; finish: () => void }>();
  listen((from, message) => {
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
    const workers = members();
    const entry = {
      got: [] as MetricJson[][],
      waiting: workers.length,
      finish: () => {
        clearTimeout(timer);
        pending.delete(id);
        from.send({ type: MSG.all, id: askId, metrics: [...entry.got, own(counts())] });
      },
    };
    const timer = setTimeout(entry.finish, COLLECT_TIMEOUT_MS);
    pending.set(id, entry);
    for (const w of workers) w.send({ type: MSG.collect, id });
    if (workers.length === 0) entry.finish();
  });
}

/** node:cluster: the workers are processes, messages come over their IPC channels. */
export function serveClusterMetrics(counts: () => SupervisorCounts): void {
  const member = (w: Worker): Member => ({ send: (m) => w.isConnected() && w.send(m) });
  serveMetrics(
    () =>
      Object.values(cluster.workers ?? {})
        .filter((w): w is Worker => w !== undefined && w.isConnected())
        .map(member),
    (handler) => cluster.on('message', (w: Worker, message: Message | null) => handler(member(w), message)),
    counts,
  );
}

/** Worker threads: `threads()` are the live ones; call the returned function with each new thread. */
export function serveThreadMetrics(threads: () => ThreadWorker[], counts: () => SupervisorCounts): (thread: ThreadWorker) => void {
  let handler: ((from: Member, message: Message | null) => void) | undefined;
  const member = (t: ThreadWorker): Member => ({ send: (m) => t.postMessage(m) });
  serveMetrics(
    () => threads().map(member),
    (h) => (handler = h),
    () => ({ ...counts(), threads: true }),
  );
  return (thread) => {
    const m = member(thread);
    thread.on('message', (message: Message | null) => handler?.(m, message));
  };
}
