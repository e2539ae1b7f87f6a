/**
 * GET /metrics: Prometheus exposition (prom-client) of this process — or, in a cluster worker or a
 * worker thread, of the whole server, aggregated through the supervisor (src/util/cluster-metrics.ts). Request
 * latency histograms per route template, response counts per status, memory; caches, sources and
 * block decodes register their own metrics (src/util/metrics.ts).
 */
import type { FastifyInstance } from 'fastify';
import { clusterMetricsText, inCluster } from '../../util/cluster-metrics.ts';
import { enableProcessMetrics, gauge, metricsRegistry } from '../../util/metrics.ts';
import { countResponse, registerResponseMetrics } from '../response-metrics.ts';

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
  registerResponseMetrics();
  app.addHook('onResponse', (request, reply, done) => {
    // The route template (`/cog/tiles/:tileMatrixSetId/:z/:x/:y`), never the raw URL: bounded labels.
    countResponse(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', async (_request, reply) => {
    const text = inCluster() ? await clusterMetricsText() : await metricsRegistry.metrics();
    return reply.type(metricsRegistry.contentType).header('cache-control', 'no-store').send(text);
  });
}
