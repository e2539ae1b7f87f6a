/**
 * A serving thread for src/cli/threads.ts tests (test/cli/threads.test.ts): listens on the shared
 * port with SO_REUSEPORT like a rastile thread, answers its thread id, counts its requests in
 * prom-client, serves the aggregated /metrics (src/util/cluster-metrics.ts), drains on the main
 * thread's message — and on `/crash` throws an uncaught exception, the fatal error that ends a
 * worker thread.
 */
import { createServer } from 'node:http';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { THREAD_MSG, type ThreadData } from '../../src/cli/threads.ts';
import { clusterMetricsText, joinClusterMetrics } from '../../src/util/cluster-metrics.ts';
import { counter } from '../../src/util/metrics.ts';

const data = workerData as ThreadData;
joinClusterMetrics('thread');
const requests = counter('fixture_requests_total', 'Requests this fixture answered');
const server = createServer((req, res) => {
  requests.inc();
  if (req.url === '/crash') {
    setImmediate(() => {
      throw new Error('fatal error in a serving thread (test)');
    });
    res.end('crashing');
    return;
  }
  if (req.url === '/metrics') {
    void clusterMetricsText().then((text) => res.end(text));
    return;
  }
  res.setHeader('x-rastile-thread', String(threadId));
  res.end(String(threadId));
});
server.listen({ host: '127.0.0.1', port: data.port, reusePort: true }, () => parentPort?.postMessage({ type: THREAD_MSG.listening }));
parentPort?.on('message', (m: { type?: string } | null) => {
  if (m?.type === THREAD_MSG.drain) server.close(() => process.exit(0));
});
