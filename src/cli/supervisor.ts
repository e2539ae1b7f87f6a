/**
 * The cluster's primary process: forks `config.workers` workers (node:cluster; they share the
 * listening socket, the primary hands out connections round-robin), restarts a worker that dies
 * (exponential backoff while deaths follow quick restarts, counted in
 * `rastile_worker_restarts_total`), answers /metrics scrapes with the whole tree's metrics
 * (src/util/cluster-metrics.ts), and on SIGTERM/SIGINT forwards SIGTERM to every worker and
 * waits for them to drain (src/cli/serve.ts) before it exits: 0 when every worker exited 0.
 *
 * It never loads the app nor prom-client: its memory is node's own (~40 MB resident).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.ts';
import { RestartPolicy } from './restart-policy.ts';
import { serveClusterMetrics } from './supervisor-metrics.ts';

export interface SupervisorOptions {
  /** Environment variable that tells a worker the cluster's size. */
  sizeEnv: string;
  /** Called once, when every first-generation worker listens. */
  onReady: () => void;
  /** First restart delay, ms (doubled per quick death, at most `maxBackoffMs`). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
}

export function runSupervisor(config: Config, options: SupervisorOptions): Promise<number> {
  const n = config.workers;
  const policy = new RestartPolicy(options.baseBackoffMs, options.maxBackoffMs);
  const listeningWorkers = new Set<Worker>();
  serveClusterMetrics(() => ({ restarts: policy.restarts, workers: listeningWorkers.size }));

  const started = new Map<Worker, number>();
  let stopping = false;
  let failedExit = false;

  const fork = (): void => {
    const worker = cluster.fork({ [options.sizeEnv]: String(n) });
    started.set(worker, Date.now());
  };

  return new Promise<number>((resolve) => {
    const finishIfDone = (): void => {
      if (stopping && Object.keys(cluster.workers ?? {}).length === 0 && policy.idle) resolve(failedExit ? 1 : 0);
    };
    let listening = 0;
    cluster.on('listening', (worker) => {
      listeningWorkers.add(worker);
      policy.listened();
      if (++listening === n) options.onReady();
    });
    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (started.get(worker) ?? Date.now());
      started.delete(worker);
      listeningWorkers.delete(worker);
      if (stopping) {
        // A worker still starting when our SIGTERM came dies of it: nothing was lost.
        if (code !== 0 && signal !== 'SIGTERM') failedExit = true;
        finishIfDone();
        return;
      }
      const delay = policy.schedule(lived, () => {
        if (!stopping) fork();
      });
      if (delay === undefined) {
        console.error(`rastile: ${policy.startupFailures} workers died before serving (exit code ${code}); giving up`);
        failedExit = true;
        stop();
        return;
      }
      console.error(`rastile: worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}) after ${lived} ms; restarting in ${delay} ms`);
    });

    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      policy.cancel();
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      // The workers cut their own requests at the deadline; this is for a worker that hangs.
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      }, config.shutdownTimeoutMs + 5_000).unref();
      finishIfDone();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    for (let i = 0; i < n; i++) fork();
  });
}
