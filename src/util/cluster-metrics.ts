/**
 * /metrics of a cluster: any worker may receive the scrape, so it asks the primary over the IPC
 * channel; the primary collects every worker's registry with prom-client's AggregatorRegistry
 * (counters and histograms summed, gauges summed unless declared otherwise) and appends its own
 * registry (supervisor metrics: workers, restarts). One scrape = the whole process tree, no
 * per-worker label: Prometheus sees one target, as with a single process.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';

const REQUEST = 'rastile:metrics-req';
const RESPONSE = 'rastile:metrics-res';

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsResponse {
  type: typeof RESPONSE;
  id: number;
  text?: string;
  error?: string;
}

let workerAggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/** In a worker: answer the primary's prom-client aggregation requests (call once at start-up). */
export function joinClusterMetrics(): void {
  // The constructor installs prom-client's worker-side listener (idempotent).
  workerAggregator ??= new AggregatorRegistry();
}

/** In the primary: answer workers' scrape requests with the aggregate of all workers + `own`. */
export function serveClusterMetrics(own: Registry): void {
  const aggregator = new AggregatorRegistry<PrometheusContentType>();
  cluster.on('message', (worker: Worker, message: unknown) => {
    const m = message as Partial<MetricsRequest> | null;
    if (m?.type !== REQUEST || typeof m.id !== 'number') return;
    const id = m.id;
    Promise.all([aggregator.clusterMetrics(), own.metrics()]).then(
      ([workers, mine]) => reply(worker, { type: RESPONSE, id, text: workers + mine }),
      (err: unknown) => reply(worker, { type: RESPONSE, id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

function reply(worker: Worker, message: MetricsResponse): void {
  if (worker.isConnected()) worker.send(message);
}

let nextId = 0;

/** In a worker: the aggregated metrics text of the whole cluster, from the primary. */
export function clusterMetricsText(timeoutMs = 6000): Promise<string> {
  const send = process.send?.bind(process);
  if (send === undefined) return Promise.reject(new Error('not a cluster worker'));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      const m = message as Partial<MetricsResponse> | null;
      if (m?.type !== RESPONSE || m.id !== id) return;
      done();
      if (typeof m.text === 'string') resolve(m.text);
      else reject(new Error(`metrics aggregation failed: ${m.error ?? 'no answer'}`));
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
    send({ type: REQUEST, id } satisfies MetricsRequest);
  });
}
