/** Static assets of the map page (MapLibre GL JS from node_modules: no CDN, works offline). */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { serveFiles } from '../static-files.ts';

const require = createRequire(import.meta.url);

export function registerStaticRoutes(app: FastifyInstance): void {
  const dist = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.js'));
  serveFiles(app, '/static', {
    'maplibre-gl.js': { path: path.join(dist, 'maplibre-gl.js'), type: 'application/javascript; charset=utf-8' },
    'maplibre-gl.css': { path: path.join(dist, 'maplibre-gl.css'), type: 'text/css; charset=utf-8' },
  });
}
