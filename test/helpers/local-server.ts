/**
 * The pieces every test stand-in server shares: listening on 127.0.0.1 with an ephemeral port, and
 * closing without waiting for clients' keep-alive connections; plus an optional delay before each
 * answer whose pending timers are cancelled on close.
 *
 * ```ts
 * const delay = new AnswerDelay(options.delayMs);
 * const server = createServer((req, res) => delay.run(() => answer(req, res)));
 * const { url, port, close } = await listenOnLoopback(server, () => delay.cancel());
 * ```
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops listening and drops every open connection (idle or busy); resolves once closed. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:0. `beforeClose` runs first on close (e.g. AnswerDelay.cancel). */
export async function listenOnLoopback(server: Server, beforeClose?: () => void): Promise<LocalServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose?.();
        server.close(() => resolve());
        // node:http's own connection list: keep-alive and in-flight connections are destroyed, so
        // close never waits for a client's idle socket (no hand-kept socket set needed).
        server.closeAllConnections();
      }),
  };
}

/** Runs each answer after `delayMs` (at once when 0 or undefined); cancel() drops the pending ones. */
export class AnswerDelay {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly delayMs: number | undefined) {}

  run(answer: () => void): void {
    const ms = this.delayMs ?? 0;
    if (ms <= 0) return answer();
    const t = setTimeout(() => {
      this.timers.delete(t);
      answer();
    }, ms);
    this.timers.add(t);
  }

  cancel(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
