/**
 * Fastify's pino logger settings: JSON lines (the default, for log collectors) or, with
 * `LOG_FORMAT=pretty`, pino-pretty's coloured one-line-per-event output for humans (formatted on
 * the main thread: no transport worker thread per process). pino-pretty is loaded only then.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';
import type PinoPretty from 'pino-pretty';

/** `destination`: where pretty lines go (stdout by default; tests pass a stream). */
export function loggerOptions(
  env: NodeJS.ProcessEnv = process.env,
  destination: NodeJS.WritableStream | number = 1,
): NonNullable<FastifyServerOptions['logger']> {
  const level = env['LOG_LEVEL'] ?? 'info';
  const format = (env['LOG_FORMAT'] ?? 'json').trim().toLowerCase();
  if (format === 'pretty') {
    const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    return {
      level,
      stream: pinoPretty({ colorize: destination === 1 && process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname', destination }),
    };
  }
  if (format !== 'json') throw new Error(`LOG_FORMAT must be 'json' or 'pretty', got '${env['LOG_FORMAT']}'`);
  return { level };
}
