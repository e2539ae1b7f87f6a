/**
 * Limits the HTTP layer enforces before a route runs, answered in our format (`{"detail": …}`
 * naming the limit and its value): request head size (431, node's http parser), path segment
 * length (414, the router), JSON body nesting depth (422, checked before JSON.parse) and body
 * size (413, in the error handler).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Longest path parameter (one `{…}` segment of a route, e.g. a bbox), in characters. */
export const MAX_PARAM_LENGTH = 2048;
/** Deepest JSON body (GeoJSON needs about 8 levels; GeometryCollections nest a few more). */
export const MAX_JSON_DEPTH = 64;

/** Node's limit on the request line plus headers (`--max-http-header-size`, default 16 KiB). */
const headLimit = (): number => http.maxHeaderSize;

function writeRaw(socket: Socket, status: number, detail: string): void {
  const body = JSON.stringify({ detail });
  socket.write(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The server's 'clientError' handler: what node's parser refuses, in our JSON format. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      writeRaw(socket, 431, `Request line and headers (URL and query string included) exceed the limit of ${headLimit()} bytes`);
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      writeRaw(socket, 408, 'The request was not received in time');
    } else {
      writeRaw(socket, 400, `Malformed HTTP request (${err.code ?? 'parse error'})`);
    }
  }
  socket.destroy(err);
}

/** Fastify's router errors (path parameter too long, undecodable URL). */
export function frameworkErrors(error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send({ detail: `A path parameter is longer than the limit of ${MAX_PARAM_LENGTH} characters` });
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send({ detail: 'The URL path is not valid percent-encoded UTF-8' });
  } else {
    void reply.code(400).send({ detail: error.message });
  }
}

/** Depth of the deepest array/object in JSON text (strings skipped), stopping past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

export class JsonTooDeepError extends Error {
  readonly statusCode = 422;
  readonly code = 'RASTILE_JSON_TOO_DEEP';
  constructor(readonly limit: number) {
    super(`JSON body nests deeper than the limit of ${limit} levels`);
  }
}

/** application/json bodies: depth checked first (V8's JSON.parse and our walkers recurse), then Fastify's own parser. */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) return done(new JsonTooDeepError(MAX_JSON_DEPTH), undefined);
    parse(request, body as string, done);
  });
}
