/**
 * Admission of requests: each gets a memory budget (src/util/request-budget.ts) entered for its
 * handler, a deadline (RASTILE_REQUEST_TIMEOUT_MS) that aborts the signal the readers receive,
 * and, when its parameters promise a large image, a reservation of the process's memory for
 * requests in flight, waited for in a bounded queue. Small requests (health, metadata, ordinary
 * tiles) never wait. Overloaded and timed-out requests answer 503 with `Retry-After`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { Errors, isRastileError } from '../errors.ts';
import { collectSoon } from '../util/release-memory.ts';
import { ProcessBudget, RequestBudget, runWithBudget } from '../util/request-budget.ts';

interface Admitted {
  budget: RequestBudget;
  deadline: AbortSignal;
}

const ADMITTED = new WeakMap<FastifyRequest, Admitted>();

/** Seconds a client is told to wait before retrying a 503. */
const RETRY_AFTER_S = 2;

/** Bytes per output pixel and band assumed by the estimate (float32 samples). */
const SAMPLE_BYTES = 4;
const DEFAULT_BANDS = 3;
const DEFAULT_MAX_SIZE = 1024;
const DEFAULT_TILE = 256;

/** The deadline signal of `request` (aborted at RASTILE_REQUEST_TIMEOUT_MS), when admitted. */
export function requestDeadline(request: FastifyRequest): AbortSignal | undefined {
  return ADMITTED.get(request)?.deadline;
}

export function installAdmission(app: FastifyInstance, limits: Config['limits']): ProcessBudget {
  const processBudget = new ProcessBudget(limits.maxInflightBytes, limits.maxQueue, limits.heavyRequestBytes);
  app.addHook('onRequest', async (request, reply) => {
    const budget = new RequestBudget(limits.maxRequestBytes, processBudget);
    const deadline = new AbortController();
    ADMITTED.set(request, { budget, deadline: deadline.signal });
    const ms = limits.requestTimeoutMs;
    const timer =
      ms > 0
        ? setTimeout(() => deadline.abort(Errors.requestTimeout(`The request ran longer than ${ms} ms (RASTILE_REQUEST_TIMEOUT_MS) and was cut`)), ms)
        : undefined;
    timer?.unref();
    reply.raw.once('close', () => {
      clearTimeout(timer);
      budget.close();
      if (budget.peak >= limits.heavyRequestBytes) collectSoon(); // its big buffers are garbage now
      if (!reply.raw.writableFinished) deadline.abort(new DOMException('The client went away', 'AbortError'));
    });
    const estimate = estimateRequestBytes(request.url, request.query as Record<string, unknown>);
    if (estimate >= limits.heavyRequestBytes) await budget.reserve(Math.min(estimate, limits.maxRequestBytes), deadline.signal);
  });
  // Entered in the last hook before the handler, so the handler and all it awaits see the budget.
  app.addHook('preHandler', (request, _reply, done) => {
    const admitted = ADMITTED.get(request);
    if (admitted === undefined) return done();
    runWithBudget(admitted.budget, done);
  });
  app.addHook('onError', async (_request, reply, error) => {
    if (isRastileError(error) && (error.kind === 'Overloaded' || error.kind === 'RequestTimeout')) reply.header('retry-after', String(RETRY_AFTER_S));
  });
  return processBudget;
}

/**
 * Memory a request will likely need, from its parameters alone: output pixels (explicit size,
 * tile size × scale + buffer, or max_size for previews and statistics) × (bands + masks) × 4 bytes.
 * An estimate for queueing only: the request budget charges the real allocations.
 */
export function estimateRequestBytes(url: string, query: Record<string, unknown>): number {
  const path = url.split('?')[0];
  const first = (name: string): number | undefined => {
    const raw = query[name];
    const v = Number(Array.isArray(raw) ? raw[0] : raw);
    return raw === undefined || !Number.isFinite(v) || v < 0 ? undefined : v;
  };
  const bidx = query['bidx'];
  const bandList = Array.isArray(bidx) ? bidx.length : typeof bidx === 'string' ? bidx.split(',').length : 0;
  const expression = typeof query['expression'] === 'string' ? (query['expression'] as string).split(';').length : 0;
  const bands = Math.max(bandList, expression) || DEFAULT_BANDS;

  let pixels = 0;
  const sized = /\/(\d+)x(\d+)(?:\.\w+)?$/.exec(path);
  const tile = /\/tiles\/|\/\d+\/\d+\/\d+(?:@\d+x)?(?:\.\w+)?$/.test(path);
  const width = first('width');
  const height = first('height');
  if (sized) pixels = Number(sized[1]) * Number(sized[2]);
  else if (width !== undefined || height !== undefined) pixels = (width ?? height ?? 0) * (height ?? width ?? 0);
  else if (tile) {
    const scale = Number(/@(\d+)x/.exec(path)?.[1] ?? 1);
    const side = (first('tilesize') ?? DEFAULT_TILE) * scale + 2 * (first('buffer') ?? 0);
    pixels = side * side;
  } else if (first('max_size') !== undefined) pixels = first('max_size')! ** 2;
  else if (/\/(preview|statistics|bbox|feature)/.test(path)) pixels = DEFAULT_MAX_SIZE * DEFAULT_MAX_SIZE;
  return pixels * (bands + 2) * SAMPLE_BYTES;
}
