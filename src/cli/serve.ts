/**
 * `rastile serve`: one process serving (`--workers 1`), or N workers that each run
 * `serveProcess` with their share of the memory budgets (src/cli/worker-share.ts): worker
 * threads of this process (`RASTILE_WORKER_MODE=threads`, src/cli/threads.ts) or a cluster of
 * processes under a supervisor (`processes`, src/cli/supervisor.ts).
 *
 * Graceful shutdown on SIGTERM/SIGINT: the app starts draining (`/readyz` 503, `/healthz` says
 * "draining", responses carry `Connection: close`), stops accepting connections, lets the
 * requests in flight finish, and the process exits 0. Requests still running after
 * `RASTILE_SHUTDOWN_TIMEOUT_MS` are cut (their connections closed) and the exit code is 1.
 * A worker thread gets no signals: the main thread sends it a drain message instead.
 */
import cluster from 'node:cluster';
import type { FastifyListenOptions } from 'fastify';
import { isMainThread, parentPort, threadId, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { Lifecycle } from '../http/lifecycle.ts';
import { announce, networkPolicy } from './announce.ts';
import { portInUse, portProblem } from './port-check.ts';
import { runSupervisor } from './supervisor.ts';
import { runThreads, THREAD_MSG, type ThreadData } from './threads.ts';
import { asyncContextFrameActive } from './async-context-frame.ts';
import { applyHeapGrowth, heapGrowthFlag } from './v8-heap-growth.ts';
import { workerShare } from './worker-share.ts';
import { collectYoung } from '../util/release-memory.ts';

/** Environment variable through which the supervisor tells its workers the cluster's size. */
export const CLUSTER_SIZE_ENV = 'RASTILE_CLUSTER_SIZE';

/**
 * How `--workers N` > 1 runs when RASTILE_WORKER_MODE is not set: threads on Linux (SO_REUSEPORT),
 * where 2 threads served the tiles/s of 2 processes at 1.44× one worker's Σ RSS against 1.94×
 * (BENCHMARKS.md, workers, 2026-11-26 09:02Z; notes/decisions.md); processes elsewhere. A thread's
 * heap OOM ends that thread only (ERR_WORKER_OUT_OF_MEMORY) and it is restarted; a native crash ends
 * the process — run several instances behind a balancer (README, Deploying).
 */
export const DEFAULT_WORKER_MODE: 'processes' | 'threads' = process.platform === 'linux' ? 'threads' : 'processes';

const threadData = (): ThreadData | undefined =>
  !isMainThread && (workerData as Partial<ThreadData> | null)?.rastileThread === true ? (workerData as ThreadData) : undefined;

/** Serves until a signal stopped the server, then exits the process (or, in a worker thread, the thread) with the code. */
export async function serve(config: Config): Promise<never> {
  let code: number;
  const thread = threadData();
  // V8's old-generation growth for every serving isolate (src/cli/v8-heap-growth.ts): process-wide, so
  // set once per process before any app loads (worker threads inherit it; cluster workers run this too).
  if (thread === undefined) applyHeapGrowth();
  if (thread !== undefined) {
    const { joinClusterMetrics } = await import('../util/cluster-metrics.ts');
    joinClusterMetrics('thread');
    // Each thread is a V8 isolate with its own module instances: its own caches (their share of the
    // budgets), request budget and buffer pool (whole, as in a cluster worker).
    code = await serveProcess(workerShare({ ...config, port: thread.port }, thread.size), { announce: false, thread: true });
  } else if (cluster.isWorker) {
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
    code =
      (config.workerMode ?? DEFAULT_WORKER_MODE) === 'threads'
        ? await runThreads(config, { entry: process.argv[1]!, argv: process.argv.slice(2), onReady: (port) => announce({ ...config, port }) })
        : await runSupervisor(config, { sizeEnv: CLUSTER_SIZE_ENV, onReady: () => announce(config) });
  }
  // Explicitly: pooled upstream connections or file handles must not keep a drained process alive.
  process.exit(code);
}

/**
 * Two young-generation collections once the server listens, so that what start-up left in the
 * young generation and keeps (Fastify's routes and compiled schemas, built when `listen` readies the
 * app: ~3 MB) is promoted now instead of being copied by the first request's scavenges: they cost
 * 5–8 ms each in a new process's first array tile against ~1 ms later (BENCHMARKS.md, arrays, "Cold
 * first tile, part 13"). An object survives one scavenge in the young generation and is promoted by
 * the next. ~4–6 ms of CPU, once; nothing without `--expose-gc` (`npm start` sets it).
 */
export function promoteStartupSurvivors(): void {
  collectYoung();
  collectYoung();
}

/** Serves in this process until a signal drained it; resolves with the exit code. */
export async function serveProcess(config: Config, options: { announce: boolean; thread?: boolean }): Promise<number> {
  // Signals are ours from the start: a SIGTERM while the app loads or binds (a worker just
  // restarted) waits for the listener and then drains it, instead of killing the process mid-way.
  let signalled: NodeJS.Signals | undefined;
  let onSignal = (signal: NodeJS.Signals): void => {
    signalled ??= signal;
  };
  if (options.thread === true) {
    parentPort?.on('message', (message: { type?: string } | null) => {
      if (message?.type === THREAD_MSG.drain) onSignal('SIGTERM');
    });
  } else {
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  }
  // Loaded here, not at the top: a cluster's supervisor never loads the app (Fastify, sharp…).
  const { buildApp } = await import('../http/app.ts');
  const lifecycle = new Lifecycle();
  // RASTILE_CACHE_FAST_PATH=0: every request through Fastify (the response cache's fast path off; benchmarks compare).
  const app = buildApp(config, { logger: true, lifecycle, cacheFastPath: process.env['RASTILE_CACHE_FAST_PATH'] !== '0' });
  // Warm the array tile path before listening (src/http/warmup.ts): the first tile is not a cold one.
  if (process.env.RASTILE_WARMUP !== '0') {
    const { warmUp } = await import('../http/warmup.ts');
    const failed = await warmUp(config);
    if (failed !== null) app.log.warn({ err: failed }, 'start-up warm-up failed (the first array tile will be slower)');
  }
  // Time-series worker threads (RASTILE_TIMESERIES_THREADS > 0), each warmed on a built-in granule
  // unless RASTILE_WARMUP=0: with RASTILE_TIMESERIES_THREADS_COLD=wait they start now, instead of
  // cold under the first series; by default (inline) once series come in a row (seriesPool), those
  // before running on the calling thread (an idle server keeps no thread's memory: notes/decisions.md).
  if (config.timeseries.threadsWhenCold === 'wait') {
    const { startTimeseriesThreads } = await import('../http/factories/timeseries-threads.ts');
    await startTimeseriesThreads(app);
  }
  if (options.thread === true) {
    // Which thread answered (tests and debugging: the kernel spreads connections over the threads).
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('x-rastile-thread', String(threadId));
      done(null, payload);
    });
  }
  // Threads share the port: SO_REUSEPORT (Node ≥ 22.12; not in Fastify's listen types, passed through to server.listen).
  const listenOptions: FastifyListenOptions & { reusePort?: boolean } = {
    host: config.host,
    port: config.port,
    ...(options.thread === true ? { reusePort: true } : {}),
  };
  try {
    await app.listen(listenOptions);
  } catch (err) {
    const problem = await portInUse(err, config.host, config.port);
    if (problem === undefined) throw err;
    console.error(`rastile: ${problem}`);
    await app.close().catch(() => undefined);
    return 2;
  }
  promoteStartupSurvivors();
  if (options.thread === true) parentPort?.postMessage({ type: THREAD_MSG.listening });
  app.log.info({ v8Flags: heapGrowthFlag(process.env) ?? null }, 'V8 old-generation growth (RASTILE_V8_HEAP_GROWING_PERCENT)');
  app.log.info({ asyncContextFrame: asyncContextFrameActive() }, 'AsyncLocalStorage without promise hooks (RASTILE_ASYNC_CONTEXT_FRAME)');
  if (options.announce && signalled === undefined) {
    app.log.info({ localRoots: config.sources.localRoots, network: networkPolicy(config) }, 'local roots and network policy');
    // `--port 0` binds a free port: the banner's links name the one bound.
    const bound = app.server.address();
    announce(typeof bound === 'object' && bound !== null ? { ...config, port: bound.port } : config);
  }
  return new Promise<number>((finish) => {
    // pino writes asynchronously (fs.write on the pool): a process's exit flushes its last lines,
    // a worker thread's does not — give the writes in flight a moment before the thread ends.
    const resolve = (code: number): void => {
      if (options.thread === true) setTimeout(() => finish(code), 100);
      else finish(code);
    };
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
