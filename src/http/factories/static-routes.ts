/** Static assets of the map page (MapLibre GL JS from node_modules: no CDN, works offline). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

export function registerStaticRoutes(app: FastifyInstance): void {
  const dist = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.js'));
  const assets = new Map<string, { type: string; body: Buffer }>([
    ['maplibre-gl.js', { type: 'application/javascript; charset=utf-8', body: readFileSync(path.join(dist, 'maplibre-gl.js')) }],
    ['maplibre-gl.css', { type: 'text/css; charset=utf-8', body: readFileSync(path.join(dist, 'maplibre-gl.css')) }],
  ]);
  app.get('/static/:file', async (request, reply) => {
    const asset = assets.get((request.params as { file: string }).file);
    if (!asset) return reply.code(404).send({ detail: 'Not Found' });
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
}
