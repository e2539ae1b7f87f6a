/**
 * The floor of bench/response-cache.ts: a server that answers every GET with the same ~45 KB
 * body (a cached tile's size) and the headers a cached tile carries, nothing else: either node's
 * http alone (`node`, one writeHead + end) or bare Fastify with one wildcard route (`fastify`, no
 * logger, no hooks). Node strips the types (no loader): run with `npm start`'s node flags.
 *
 *   node bench/http-floor-server.ts node|fastify PORT
 */
import { createServer } from 'node:http';
import Fastify from 'fastify';

const [kind, port] = process.argv.slice(2);
const body = Buffer.alloc(45_000, 7);
const headers = {
  'content-type': 'image/png',
  etag: '"0123456789abcdef0123456789abcdef"',
  'cache-control': 'public, max-age=86400',
  'x-rastile-cache': 'hit',
};

if (kind === 'node') {
  const flat = Object.entries({ ...headers, 'content-length': String(body.length) }).flat();
  createServer((_req, res) => {
    res.writeHead(200, flat);
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
} else if (kind === 'fastify') {
  const app = Fastify({ logger: false });
  app.get('/*', (_request, reply) => {
    reply.headers(headers).send(body);
  });
  await app.listen({ host: '127.0.0.1', port: Number(port) });
} else throw new Error(`unknown server kind ${kind}: node or fastify`);
