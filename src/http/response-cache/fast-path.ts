/**
 * The response cache's fast path: a repeat GET answered from the in-process store before Fastify
 * routes it (no request/reply objects, hooks, parameter parsing, key digest of the parameters).
 *
 * A request reaches it only with a raw URL (path and query string as sent) that the normal path
 * answered through the cache before: the normal path remembers which request key that URL gave
 * (the route, its parsed parameters and the rastile version are all fixed by the URL, so the key
 * is too). The answer is then `ResponseCache.serveStored`: the current version of every input the
 * response read (a stat per local file, the same check as the normal path's, so a changed file is
 * another key at once) and the stored bytes, or a 304 for a matching If-None-Match — without a
 * read of the source. Anything else (a URL not seen, a route that varies on request headers or
 * builds links from the Host, a remote input only an async check can version, HEAD, a request
 * with a body, a draining server, a response not in memory) goes to Fastify unchanged.
 *
 * The headers are those the normal path sends, in its order (test/http/response-cache-fast-path.test.ts
 * compares both): ETag, X-Rastile-Cache, Cache-Control (tiles' class for images, the app's
 * otherwise), the response's own headers, Content-Type, CORS, Content-Length. The request is counted
 * in the same metrics; with LOG_LEVEL=info one access-log line is written ("request completed").
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { LruCache } from '../../util/lru-cache.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { countResponse } from '../response-metrics.ts';
import { isImageType, type ResponseCache } from './response-cache.ts';
import type { CachedResponse } from './store.ts';

/** The response headers the app adds around a stored response. */
export interface FastPathHeaders {
  /** Access-Control-Allow-Origin ('' when CORS is off). */
  corsOrigins: string;
  /** Cache-Control of images (tiles). */
  cacheControlTiles: string;
  /** Cache-Control of other answers ('' when none is configured). */
  cacheControl: string;
}

interface Alias {
  reqKey: string;
  /** The route template, the metrics' label. */
  route: string;
  bytes: number;
}

/** Remembered URLs: ~8 MB at most (tens of thousands of tile URLs). */
const ALIAS_BYTES = 8 << 20;

/** Headers the app sets itself: a stored response carrying one of these takes the normal path. */
const APP_HEADERS = new Set([
  'etag',
  'x-rastile-cache',
  'cache-control',
  'content-type',
  'content-length',
  'access-control-allow-origin',
  'vary',
  'connection',
]);

const FAST_PATHS = new WeakMap<ResponseCache, CacheFastPath>();

export class CacheFastPath {
  private readonly aliases = new LruCache<string, Alias>(ALIAS_BYTES, (a) => a.bytes);
  /** Requests answered here (tests). */
  served = 0;
  /** The header list of each stored response, built once (null: its own headers clash with the app's). */
  private readonly prepared = new WeakMap<CachedResponse, { etag: string; list: string[] } | null>();
  private readonly notModifiedTail: { image: string[]; other: string[] };

  constructor(
    private readonly cache: ResponseCache,
    private readonly headers: FastPathHeaders,
    private readonly lifecycle: Lifecycle,
    private readonly log: FastifyBaseLogger,
  ) {
    const cors = headers.corsOrigins !== '' ? ['access-control-allow-origin', headers.corsOrigins] : [];
    this.notModifiedTail = {
      image: ['cache-control', headers.cacheControlTiles, ...cors],
      other: [...cors, ...(headers.cacheControl !== '' ? ['cache-control', headers.cacheControl] : [])],
    };
  }

  /** Called by the normal path for a GET it answered through the cache: `url` gives `reqKey`. */
  remember(url: string, reqKey: string, route: string): void {
    if (this.aliases.get(url)?.reqKey !== reqKey) this.aliases.set(url, { reqKey, route, bytes: 2 * url.length + 160 });
  }

  /** Answers `req` from the cache if it can (true), else leaves it untouched for Fastify (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || this.lifecycle.draining) return false;
    const alias = this.aliases.get(url);
    if (alias === undefined || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return false;
    const start = performance.now();
    const outcome = this.cache.serveStored(alias.reqKey, req.headers['if-none-match'], (r, etag) => this.headersOf(r, etag) !== null);
    if (outcome === undefined) return false;
    let status: number;
    if (outcome.status === 'hit') {
      status = 200;
      res.writeHead(200, this.headersOf(outcome.response, outcome.etag)!);
      res.end(outcome.response.body);
    } else {
      status = 304;
      res.writeHead(304, ['etag', outcome.etag, 'x-rastile-cache', 'not-modified', ...this.notModifiedTail[outcome.image ? 'image' : 'other']]);
      res.end();
    }
    this.served++;
    const ms = performance.now() - start;
    countResponse('GET', alias.route, status, ms / 1000);
    if ((this.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') === true) {
      const socket = req.socket;
      this.log.info(
        {
          req: { method: 'GET', url, host: req.headers.host, remoteAddress: socket.remoteAddress, remotePort: socket.remotePort },
          res: { statusCode: status },
          responseTime: ms,
          cache: outcome.status,
        },
        'request completed',
      );
    }
    return true;
  }

  private headersOf(r: CachedResponse, etag: string): string[] | null {
    const known = this.prepared.get(r);
    if (known === null) return null;
    if (known !== undefined && known.etag === etag) return known.list;
    const image = isImageType(r.contentType);
    let tail: string[] | null = ['etag', etag, 'x-rastile-cache', 'hit', ...(image ? ['cache-control', this.headers.cacheControlTiles] : [])];
    for (const [name, value] of Object.entries(r.headers)) {
      const lower = name.toLowerCase();
      if (APP_HEADERS.has(lower)) {
        tail = null;
        break;
      }
      tail.push(lower, String(value));
    }
    if (tail !== null) {
      tail.push('content-type', r.contentType);
      if (this.headers.corsOrigins !== '') tail.push('access-control-allow-origin', this.headers.corsOrigins);
      if (!image && this.headers.cacheControl !== '') tail.push('cache-control', this.headers.cacheControl);
      tail.push('content-length', String(r.body.length));
    }
    this.prepared.set(r, tail === null ? null : { etag, list: tail });
    return tail;
  }
}

/**
 * Puts the fast path in front of Fastify on the app's HTTP server (its one 'request' listener is
 * wrapped). Nothing happens without a response cache. Requests through `app.inject` (no server)
 * always take the normal path.
 */
export function installCacheFastPath(app: FastifyInstance, headers: FastPathHeaders, lifecycle: Lifecycle): CacheFastPath | undefined {
  const cache = app.responseCache;
  const server = app.server as Server | undefined;
  if (cache === null || server === undefined) return undefined;
  const listeners = server.listeners('request');
  if (listeners.length !== 1) return undefined;
  const fastify = listeners[0] as (req: IncomingMessage, res: ServerResponse) => void;
  const fast = new CacheFastPath(cache, headers, lifecycle, app.log);
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let handled: boolean;
    try {
      handled = fast.handle(req, res);
    } catch (err) {
      // A bug of ours must not take the process down: the normal path answers, or the connection ends.
      app.log.error({ err }, 'response cache fast path failed');
      if (res.headersSent) return void res.destroy();
      handled = false;
    }
    if (!handled) fastify(req, res);
  });
  FAST_PATHS.set(cache, fast);
  return fast;
}

/** The fast path in front of `cache`, if installed. */
export const fastPathOf = (cache: ResponseCache): CacheFastPath | undefined => FAST_PATHS.get(cache);
