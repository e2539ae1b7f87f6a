/**
 * `rastile serve`: one process serving (`--workers 1`), or a cluster — a supervisor
 * (src/cli/supervisor.ts) and N workers that each run `serveProcess` with their share of the
 * memory budgets (src/cli/worker-share.ts).
 *
 * Graceful shutdown on SIGTERM/SIGINT: the app starts draining (`/readyz` 503, `/healthz` says
 * "draining", responses carry `Connection: close`), stops accepting connections, lets the
 * requests in flight finish, and the process exits 0. Requests still running after
 * `RASTILE_SHUTDOWN_TIMEOUT_MS` are cut (their connections closed) and the exit code is 1.
 */
import cluster from 'node:cluster';
import type { Config } from '../config.ts';
import { Lifecycle } from '../http/lifecycle.ts';
import { announce, networkPolicy } from './announce.ts';
import { portInUse, portProblem } from './port-check.ts';
import { runSupervisor } from './supervisor.ts';
import { workerShare } from './worker-share.ts';

/** Environment variable through which the supervisor tells its workers the cluster's size. */
export const CLUSTER_SIZE_ENV = 'RASTILE_CLUSTER_SIZE';

/** Serves until a signal stopped the server, then exits the process with the code. */
export async function serve(config: Config): Promise<never> {
  let code: number;
  if (cluster.isWorker) {
    const size = Number(process.env[CLUSTER_SIZE_ENV] ?? config.workers);
    const { joinClusterMetrics } = await import('../util/cluster-metrics.ts'); // prom-client: workers only
    joinClusterMetrics();
    // The buffer pool (24 MiB of scratch) is NOT split per worker, unlike the caches: split, full GCs
    // per tile doubled at 2 workers; whole, 2 workers served 9–20 % more tiles/s at equal Σ RSS
    // (BENCHMARKS.md, workers, 2026-11-26 07:00Z).
    code = await serveProcess(workerShare(config, size), { announce: false });
  } else if (config.workers <= 1) {
    code = await serveProcess(config, { announce: true });
  } else {
    // The workers listen through this process: find a busy port here, once, with a useful message.
    const problem = await portProblem(config.host, config.port);
    if (problem !== undefined) {
      console.error(`rastile: ${problem}`);
      process.exit(2);
    }
    code = await runSupervisor(config, { sizeEnv: CLUSTER_SIZE_ENV, onReady: () => announce(config) });
  }
  // Explicitly: pooled upstream connections or file handles must not keep a drained process alive.
  process.exit(code);
}

/** Serves in this process until a signal drained it; resolves with the exit code. */
export async function serveProcess(config: Config, options: { announce: boolean }): Promise<number> {
  // Signals are ours from the start: a SIGTERM while the app loads or binds (a worker just
  // restarted) waits for the listener and then drains it, instead of killing the process mid-way.
  let signalled: NodeJS.Signals | undefined;
  let onSignal = (signal: NodeJS.Signals): void => {
    signalled ??= signal;
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  // Loaded here, not at the top: a cluster's supervisor never loads the app (Fastify, sharp…).
  const { buildApp } = await import('../http/app.ts');
  const lifecycle = new Lifecycle();
  // RASTILE_CACHE_FAST_PATH=0: every request through Fastify (the response cache's fast path off; benchmarks compare).
  const app = buildApp(config, { logger: true, lifecycle, cacheFastPath: process.env['RASTILE_CACHE_FAST_PATH'] !== '0' });
  // Warm the array tile path before listening (src/http/warmup.ts): the first tile is not a cold one.
  if (process.env.RASTILE_WARMUP !== '0') {
    const { warmUp } = await import('../http/warmup.ts');
    const failed = await warmUp({ maxReadPixels: config.limits.maxReadPixels });
    if (failed !== null) app.log.warn({ err: failed }, 'start-up warm-up failed (the first array tile will be slower)');
  }
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    const problem = await portInUse(err, config.host, config.port);
    if (problem === undefined) throw err;
    console.error(`rastile: ${problem}`);
    await app.close().catch(() => undefined);
    return 2;
  }
  if (options.announce && signalled === undefined) {
    app.log.info({ localRoots: config.sources.localRoots, network: networkPolicy(config) }, 'local roots and network policy');
    // `--port 0` binds a free port: the banner's links name the one bound.
    const bound = app.server.address();
    announce(typeof bound === 'object' && bound !== null ? { ...config, port: bound.port } : config);
  }
  return new Promise<number>((resolve) => {
    const drain = (signal: NodeJS.Signals): void => {
      if (lifecycle.draining) return;
      lifecycle.startDraining();
      app.log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'draining: no new connections, finishing requests in flight');
      let cut = false;
      const timer = setTimeout(() => {
        cut = true;
        app.log.warn('shutdown deadline reached (RASTILE_SHUTDOWN_TIMEOUT_MS): closing the connections still open');
        app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      app.close().then(
        () => {
          clearTimeout(timer);
          app.log.info(cut ? 'stopped after cutting requests' : 'drained, exiting');
          resolve(cut ? 1 : 0);
        },
        (err: unknown) => {
          clearTimeout(timer);
          app.log.error({ err }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    onSignal = drain;
    if (signalled !== undefined) drain(signalled);
  });
}
