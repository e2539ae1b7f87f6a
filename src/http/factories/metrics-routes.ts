/**
 * GET /metrics: Prometheus exposition (prom-client) of this process — or, in a cluster worker, of
 * the whole process tree, aggregated by the primary (src/util/cluster-metrics.ts). Request
 * latency histograms per route template, response counts per status, memory; caches, sources and
 * block decodes register their own metrics (src/util/metrics.ts).
 */
import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { clusterMetricsText } from '../../util/cluster-metrics.ts';
import { counter, enableProcessMetrics, gauge, histogram, metricsRegistry } from '../../util/metrics.ts';

/** Memory gauges under the names rastile used before prom-client (dashboards keep working). */
function registerMemoryGauges(): void {
  const memory: Array<[string, string, (m: NodeJS.MemoryUsage) => number]> = [
    ['rastile_process_resident_bytes', 'Resident set size', (m) => m.rss],
    ['rastile_heap_used_bytes', 'V8 heap used', (m) => m.heapUsed],
    ['rastile_heap_total_bytes', 'V8 heap allocated', (m) => m.heapTotal],
    ['rastile_external_bytes', 'Memory of C++ objects bound to JavaScript objects', (m) => m.external],
    ['rastile_array_buffers_bytes', 'Memory of ArrayBuffers and Buffers', (m) => m.arrayBuffers],
  ];
  for (const [name, help, pick] of memory) gauge(name, help, [], (g) => g.set(pick(process.memoryUsage())));
}

export function registerMetricsRoutes(app: FastifyInstance): void {
  enableProcessMetrics();
  registerMemoryGauges();
  const requests = counter('rastile_http_requests_total', 'HTTP requests answered');
  const responses = counter('rastile_http_responses_total', 'HTTP responses by status code', ['status']);
  const duration = histogram('rastile_http_request_duration_seconds', 'Time from request to response sent, per route template', ['method', 'route', 'status']);
  // The labelled series of each (method, route, status), looked up once: prom-client hashes the
  // label object on every call otherwise.
  const series = new Map<string, { response: ReturnType<typeof responses.labels>; duration: ReturnType<typeof duration.labels> }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route template (`/cog/tiles/:tileMatrixSetId/:z/:x/:y`), never the raw URL: bounded labels.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${request.method} ${status} ${route}`;
    let s = series.get(key);
    if (s === undefined) {
      const labels = { method: request.method, route, status: String(status) };
      s = { response: responses.labels({ status: labels.status }), duration: duration.labels(labels) };
      series.set(key, s);
    }
    requests.inc();
    s.response.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', async (_request, reply) => {
    const text = cluster.isWorker ? await clusterMetricsText() : await metricsRegistry.metrics();
    return reply.type(metricsRegistry.contentType).header('cache-control', 'no-store').send(text);
  });
}
