/**
 * Static assets of the map page and the viewer (MapLibre GL JS from node_modules: no CDN, works
 * offline) and the pages' shared stylesheet.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { serveFiles } from '../static-files.ts';

const require = createRequire(import.meta.url);

/** Files of src/http/static (copied to dist/http/static by scripts/build.js). */
const ownFiles = Object.fromEntries(
  (
    [
      ['rastile.css', 'text/css; charset=utf-8'],
      ['viewer.css', 'text/css; charset=utf-8'],
      ['viewer.js', 'application/javascript; charset=utf-8'],
    ] as const
  ).map(([name, type]) => [name, { path: fileURLToPath(new URL(`../static/${name}`, import.meta.url)), type }]),
);

export function registerStaticRoutes(app: FastifyInstance): void {
  const dist = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.js'));
  serveFiles(app, '/static', {
    'maplibre-gl.js': { path: path.join(dist, 'maplibre-gl.js'), type: 'application/javascript; charset=utf-8' },
    'maplibre-gl.css': { path: path.join(dist, 'maplibre-gl.css'), type: 'text/css; charset=utf-8' },
    ...ownFiles,
  });
}
