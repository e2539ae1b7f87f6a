/** GET /metrics: Prometheus text exposition of process memory, caches and request counts. */
import type { FastifyInstance } from 'fastify';
import { responseCacheMetricLines } from '../response-cache/response-cache.ts';
import type { Services } from '../services.ts';

export function registerMetricsRoutes(app: FastifyInstance, services: Services): void {
  let requests = 0;
  const byStatus = new Map<number, number>();
  app.addHook('onResponse', async (_request, reply) => {
    requests++;
    byStatus.set(reply.statusCode, (byStatus.get(reply.statusCode) ?? 0) + 1);
  });
  app.get('/metrics', async (_request, reply) => {
    const m = process.memoryUsage();
    const b = services.blockCache.stats;
    const lines = [
      '# TYPE rastile_process_resident_bytes gauge',
      `rastile_process_resident_bytes ${m.rss}`,
      '# TYPE rastile_heap_used_bytes gauge',
      `rastile_heap_used_bytes ${m.heapUsed}`,
      '# TYPE rastile_heap_total_bytes gauge',
      `rastile_heap_total_bytes ${m.heapTotal}`,
      '# TYPE rastile_external_bytes gauge',
      `rastile_external_bytes ${m.external}`,
      '# TYPE rastile_array_buffers_bytes gauge',
      `rastile_array_buffers_bytes ${m.arrayBuffers}`,
      '# TYPE rastile_block_cache_bytes gauge',
      `rastile_block_cache_bytes ${b.bytes}`,
      '# TYPE rastile_block_cache_entries gauge',
      `rastile_block_cache_entries ${b.entries}`,
      '# TYPE rastile_block_decodes_total counter',
      `rastile_block_decodes_total ${b.decodes}`,
      '# TYPE rastile_http_responses_total counter',
      ...[...byStatus].map(([s, n]) => `rastile_http_responses_total{status="${s}"} ${n}`),
      `rastile_http_requests_total ${requests}`,
      ...(app.responseCache !== null ? responseCacheMetricLines(app.responseCache) : []),
    ];
    return reply
      .type('text/plain; version=0.0.4')
      .header('cache-control', 'no-store')
      .send(`${lines.join('\n')}\n`);
  });
}
