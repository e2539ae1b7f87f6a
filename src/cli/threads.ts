/**
 * Worker-threads serving (`RASTILE_WORKER_MODE=threads`): one process whose main thread starts
 * `config.workers` worker threads, each running the whole app (src/cli/serve.ts, `serveProcess`)
 * and listening on the same host:port with `SO_REUSEPORT` (the kernel spreads new connections
 * over the listeners; Node ≥ 22.12 on Linux). The main thread loads no app: it supervises like
 * the cluster's primary (src/cli/supervisor.ts) — restarts a thread that died (an uncaught error
 * ends that thread, not the process; exponential backoff while deaths follow quick restarts,
 * counted in `rastile_worker_restarts_total`), answers /metrics collection (src/cli/supervisor-metrics.ts),
 * and on SIGTERM/SIGINT tells every thread to drain (a message: threads get no signals), then
 * resolves 0 when every thread drained and exited 0.
 *
 * `--port 0`: every thread binding port 0 with SO_REUSEPORT would get a port of its own, so the
 * main thread binds first (port 0 → a real port, in the same reuse group), the threads bind that
 * port, and the main thread closes its socket once they all listen — before the port is
 * announced, so no client can reach that socket.
 */
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { RestartPolicy } from './restart-policy.ts';
import { serveThreadMetrics } from './supervisor-metrics.ts';

/** Messages between the main thread and the serving threads. */
export const THREAD_MSG = {
  /** thread → main: my server listens. */
  listening: 'rastile:thread-listening',
  /** main → thread: drain and exit (SIGTERM's job in a process). */
  drain: 'rastile:thread-drain',
} as const;

/** What a serving thread gets as `workerData`. */
export interface ThreadData {
  rastileThread: true;
  /** Threads serving together (the budgets' divisor). */
  size: number;
  /** The port to listen on (the real one when the configuration said 0). */
  port: number;
}

export interface ThreadOptions {
  /** The script each thread runs and its arguments (the process's own command line). */
  entry: string | URL;
  argv: string[];
  /** Called once, when every first-generation thread listens, with the port they listen on. */
  onReady: (port: number) => void;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Stops like SIGTERM when aborted (tests); SIGTERM and SIGINT always do. */
  signal?: AbortSignal;
}

/** Binds host:0 in a SO_REUSEPORT group: the port the threads will share, and the socket to close once they listen. */
function reservePort(host: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen({ host, port: 0, reusePort: true }, () => resolve(s));
  });
}

export async function runThreads(config: Config, options: ThreadOptions): Promise<number> {
  const n = config.workers;
  const policy = new RestartPolicy(options.baseBackoffMs, options.maxBackoffMs);
  let reserved: net.Server | undefined;
  let port = config.port;
  if (port === 0) {
    reserved = await reservePort(config.host);
    port = (reserved.address() as net.AddressInfo).port;
  }
  const live = new Set<Worker>();
  const listening = new Set<Worker>();
  const watch = serveThreadMetrics(
    () => [...listening],
    () => ({ restarts: policy.restarts, workers: listening.size }),
  );
  let stopping = false;
  let failedExit = false;
  let firstReady = 0;

  return new Promise<number>((resolve) => {
    const finishIfDone = (): void => {
      if (stopping && live.size === 0 && policy.idle) {
        reserved?.close();
        console.error(failedExit ? 'rastile: worker threads stopped, not all cleanly' : 'rastile: every worker thread drained, exiting');
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        resolve(failedExit ? 1 : 0);
      }
    };
    const start = (): void => {
      const data: ThreadData = { rastileThread: true, size: n, port };
      const thread = new Worker(options.entry, { argv: options.argv, workerData: data });
      const born = Date.now();
      live.add(thread);
      watch(thread);
      thread.on('message', (message: { type?: string } | null) => {
        if (message?.type !== THREAD_MSG.listening) return;
        listening.add(thread);
        policy.listened();
        if (stopping) thread.postMessage({ type: THREAD_MSG.drain });
        else if (++firstReady === n) {
          reserved?.close();
          reserved = undefined;
          options.onReady(port);
        }
      });
      thread.on('error', (err) => console.error(`rastile: worker thread ${thread.threadId} failed:`, err));
      thread.on('exit', (code) => {
        live.delete(thread);
        listening.delete(thread);
        const lived = Date.now() - born;
        if (stopping) {
          if (code !== 0) failedExit = true;
          finishIfDone();
          return;
        }
        const delay = policy.schedule(lived, () => {
          if (!stopping) start();
        });
        if (delay === undefined) {
          console.error(`rastile: ${policy.startupFailures} worker threads died before serving (exit code ${code}); giving up`);
          failedExit = true;
          stop();
          return;
        }
        console.error(`rastile: worker thread ${thread.threadId} died (exit code ${code}) after ${lived} ms; restarting in ${delay} ms`);
      });
    };

    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      policy.cancel();
      // A thread still loading gets the message once it listens (above); one that listens drains now.
      for (const thread of listening) thread.postMessage({ type: THREAD_MSG.drain });
      // The threads cut their own requests at the deadline; this is for a thread that hangs.
      setTimeout(() => {
        for (const thread of live) void thread.terminate();
      }, config.shutdownTimeoutMs + 5_000).unref();
      finishIfDone();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    options.signal?.addEventListener('abort', stop, { once: true });
    for (let i = 0; i < n; i++) start();
  });
}
