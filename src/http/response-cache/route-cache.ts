/**
 * The response cache seen from the routes: which requests go through it, their key parts, and
 * the HTTP caching headers of what it answers (ETag, Cache-Control per class, Vary, 304).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseCacheConfig } from '../../config.ts';
import type { HandlerResult } from '../handler-result.ts';
import type { Services } from '../services.ts';
import { canonical } from './cache-key.ts';
import { fastPathOf } from './fast-path.ts';
import { ResponseCache, isImageType } from './response-cache.ts';
import { keepBody } from '../../util/pooled-body.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's response cache (null when disabled). */
    responseCache: ResponseCache | null;
  }
}

/** What a route declares about caching (a subset of its RouteSpec). */
export interface CacheableRoute {
  method: 'GET' | 'POST';
  path: string;
  cacheControl?: false;
  /** 'url': the answer echoes the query string (links), so the exact URL is the key. Default: the parsed parameters. */
  cacheKey?: 'params' | 'url';
  /** Request headers the answer depends on (lower case), sent as `Vary`. */
  vary?: readonly string[];
}

interface Installed {
  cache: ResponseCache;
  config: ResponseCacheConfig;
}

const INSTALLED = new WeakMap<ResponseCache, Installed>();

/** Creates the app's response cache from the config (none when neither a memory budget nor a URL is set). */
export function installResponseCache(app: FastifyInstance, config: ResponseCacheConfig | undefined, services: Services): void {
  let cache: ResponseCache | null = null;
  if (config !== undefined && (config.memoryBytes > 0 || config.url !== undefined)) {
    const versionOf = services.currentVersion?.bind(services) ?? (() => Promise.resolve(undefined));
    const peekVersion = services.peekVersion?.bind(services);
    cache = new ResponseCache(
      {
        memoryBytes: config.memoryBytes,
        maxEntryBytes: config.maxEntryBytes,
        lockMs: config.lockMs,
        ...(config.url !== undefined ? { redis: { url: config.url, ttlMs: config.ttlMs } } : {}),
      },
      versionOf,
      peekVersion,
    );
    INSTALLED.set(cache, { cache, config });
    const c = cache;
    app.addHook('onClose', async () => c.close());
  }
  app.decorate('responseCache', cache);
}

/**
 * Serves a route's request through the cache: the handler's result, a stored one, or null for
 * "304 Not Modified" (headers already set). Requests the cache does not take run `render` as is.
 */
export async function serveThroughCache(
  route: CacheableRoute,
  params: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  signal: AbortSignal,
  baseUrl: string,
  render: () => Promise<HandlerResult>,
): Promise<HandlerResult | null> {
  const vary = route.vary ?? [];
  if (vary.length > 0) reply.header('vary', vary.join(', '));
  const cache = request.server.responseCache;
  const installed = cache === null ? undefined : INSTALLED.get(cache);
  if (cache === null || installed === undefined || route.cacheControl === false) return render();
  let body = '';
  if (route.method === 'POST') {
    const length = Number(request.headers['content-length'] ?? Infinity);
    const c = length <= installed.config.maxPostBytes ? canonical(request.body) : undefined;
    if (c === undefined) return render();
    body = c;
  }
  const keyParams = (route.cacheKey === 'url' ? undefined : canonical(params)) ?? `url:${request.url}`;
  const outcome = await cache.serve(
    {
      method: route.method,
      route: route.path,
      params: keyParams,
      vary: vary.map((h) => String(request.headers[h] ?? '')),
      body,
      baseUrl,
      ifNoneMatch: route.method === 'GET' ? request.headers['if-none-match'] : undefined,
      signal,
    },
    // What the cache stores and shares between requests must outlive each response (pooled-body.ts).
    () => render().then((r) => (r.kind === 'body' ? { ...r, body: keepBody(r.body) } : r)),
  );
  if (outcome.status === 'uncacheable') return outcome.result;
  // The next GET of this exact URL can be answered before routing (fast-path.ts).
  if (request.method === 'GET' && vary.length === 0) fastPathOf(cache)?.remember(request.url, outcome.reqKey, request.routeOptions.url ?? route.path);
  reply.header('etag', outcome.etag);
  reply.header('x-rastile-cache', outcome.status);
  const image = outcome.status === 'not-modified' ? outcome.image : isImageType(outcome.result.contentType);
  if (image && route.method === 'GET') reply.header('cache-control', installed.config.cacheControlTiles);
  if (outcome.status === 'not-modified') return null;
  return outcome.result;
}
