/**
 * The serving state of one app: `serving`, then `draining` once a graceful shutdown began
 * (src/cli/serve.ts). While draining, `/readyz` answers 503 so load balancers stop routing here,
 * `/healthz` says so in its body (the process is still healthy: it finishes its requests), and
 * every response carries `Connection: close` so kept-alive clients reconnect elsewhere.
 */
import type { FastifyInstance } from 'fastify';

export type ServingState = 'serving' | 'draining';

export class Lifecycle {
  state: ServingState = 'serving';

  get draining(): boolean {
    return this.state === 'draining';
  }

  startDraining(): void {
    this.state = 'draining';
  }
}

export function installLifecycleHeaders(app: FastifyInstance, lifecycle: Lifecycle): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
