/**
 * Route declarations: one object per endpoint holds its OpenAPI path template, parameters,
 * body, responses and handler. `registerRoute` turns it into a Fastify route and records it
 * for the OpenAPI document, so the docs cannot drift from what is served.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestDeadline } from './admission.ts';
import { retryIfSourceChanged } from '../sources/version.ts';
import { recordRequestInput } from '../util/read-set.ts';
import { serveThroughCache } from './response-cache/route-cache.ts';
import { parseParams, type JsonSchema, type ParamDefs, type ParsedParams } from './validation/params.ts';

export type HttpMethod = 'GET' | 'POST';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the app's Cache-Control hook leaves the response alone. */
    cacheControl?: boolean;
  }
}

import type { HandlerResult } from './handler-result.ts';
import { returnBodyAfter } from '../util/pooled-body.ts';

export type { HandlerResult } from './handler-result.ts';

export interface HandlerContext<D extends ParamDefs> {
  params: ParsedParams<D>;
  body: unknown;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Absolute base URL of the server as seen by the client (scheme://host[:port]). */
  baseUrl: string;
  /** Aborted when the client goes away before the response is sent. */
  signal: AbortSignal;
}

export interface ResponseDoc {
  description: string;
  /** media type → schema (use {} when free-form) */
  content?: Record<string, JsonSchema>;
}

export interface RouteSpec<D extends ParamDefs = ParamDefs> {
  method: HttpMethod;
  /** OpenAPI-style template, e.g. `/cog/bbox/{minx},{miny},{maxx},{maxy}.{format}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params: D;
  body?: { required: boolean; description: string; schema: JsonSchema; mediaType?: string };
  responses: Record<number, ResponseDoc>;
  /** false: the configured Cache-Control is not added (TiTiler leaves /healthz uncached). */
  cacheControl?: false;
  /** Response cache key (response-cache/route-cache.ts): 'url' when the answer echoes the query string. */
  cacheKey?: 'params' | 'url';
  /** Request headers the answer depends on (lower case): part of the cache key, sent as `Vary`. */
  vary?: readonly string[];
  handler: (ctx: HandlerContext<D>) => Promise<HandlerResult>;
}

export class RouteRegistry {
  readonly routes: RouteSpec[] = [];
}

/** Turn `/a/{x},{y}/b/{w}x{h}.{f}` into a Fastify path plus extractors for combined segments. */
function compilePath(template: string): {
  fastifyPath: string;
  extract: (params: Record<string, string | undefined>) => Record<string, string | undefined> | null;
} {
  const combined: Array<{ param: string; names: string[]; re: RegExp }> = [];
  const segments = template.split('/').map((seg, i) => {
    const names = [...seg.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (names.length === 0) return seg;
    if (seg === `{${names[0]}}`) return `:${names[0]}`;
    if (!seg.includes(',') && !/\}x\{/.test(seg)) return seg.replace(/\{(\w+)\}/g, ':$1');
    const param = `_seg${i}`;
    // Starlette semantics: each placeholder is a greedy `[^/]+`.
    const pattern = seg
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    combined.push({ param, names, re: new RegExp(`^${pattern}$`) });
    return `:${param}`;
  });
  const fastifyPath = segments.join('/');
  const extract = (params: Record<string, string | undefined>): Record<string, string | undefined> | null => {
    if (combined.length === 0) return params;
    const out: Record<string, string | undefined> = { ...params };
    for (const c of combined) {
      const value = params[c.param];
      const m = value === undefined ? null : c.re.exec(value);
      if (!m) return null;
      c.names.forEach((n, k) => (out[n] = m[k + 1]));
      delete out[c.param];
    }
    return out;
  };
  return { fastifyPath, extract };
}

/** Scheme and host of links in documents: X-Forwarded-Proto/Host only when `trustProxy` trusts the peer. */
function requestBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function registerRoute<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, spec: RouteSpec<D>): void {
  registry.routes.push(spec as unknown as RouteSpec);
  const { fastifyPath, extract } = compilePath(spec.path);
  app.route({
    method: spec.method,
    url: fastifyPath,
    config: { cacheControl: spec.cacheControl ?? true },
    handler: async (request, reply) => {
      const rawPath = extract(request.params as Record<string, string | undefined>);
      if (rawPath === null) return reply.callNotFound();
      const params = parseParams(spec.params, {
        query: request.query as Record<string, string | string[] | undefined>,
        path: rawPath,
      });
      // The admission's signal (src/http/admission.ts) aborts at RASTILE_REQUEST_TIMEOUT_MS and when
      // the client goes away; without admission (an app built without it), our own for the latter.
      let signal = requestDeadline(request);
      let onClose: (() => void) | undefined;
      if (signal === undefined) {
        const controller = new AbortController();
        // The response stream closes either after we finished writing or when the client went away.
        onClose = (): void => {
          if (!reply.raw.writableFinished) controller.abort();
        };
        reply.raw.once('close', onClose);
        signal = controller.signal;
      }
      try {
        // A dataset that changed while it was read is re-opened by the next attempt: the answer
        // comes whole from the new version, never mixed (src/sources/version.ts).
        const baseUrl = requestBaseUrl(request);
        const ctx: HandlerContext<D> = {
          params,
          body: request.body,
          request,
          reply,
          // Links built from the request's host make the cached answer depend on it.
          get baseUrl() {
            recordRequestInput('base');
            return baseUrl;
          },
          signal,
        };
        const render = (): Promise<HandlerResult> => retryIfSourceChanged(() => spec.handler(ctx));
        const result = await serveThroughCache(spec, params, request, reply, signal, baseUrl, render);
        return result === null ? reply.code(304).send() : sendResult(reply, result);
      } finally {
        if (onClose !== undefined) reply.raw.off('close', onClose);
      }
    },
  });
}

function sendResult(reply: FastifyReply, result: HandlerResult): FastifyReply {
  switch (result.kind) {
    case 'json':
      if (result.headers) reply.headers(result.headers);
      return reply
        .code(result.status ?? 200)
        .type(result.contentType ?? 'application/json')
        .send(JSON.stringify(result.data));
    case 'body':
      if (result.headers) reply.headers(result.headers);
      returnBodyAfter(reply.raw, result.body); // a pooled body goes back once written (pooled-body.ts)
      return reply
        .code(result.status ?? 200)
        .type(result.contentType)
        .send(result.body);
    case 'redirect':
      return reply.code(result.status).header('location', result.location).send();
  }
}
