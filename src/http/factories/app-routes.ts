/** Application-level endpoints: landing page, conformance, health, OpenAPI document and docs page. */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { sharpVersions } from '../../util/sharp-module.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { buildOpenApi } from '../openapi.ts';
import { escapeHtml, linkListPage, page } from '../pages/html.ts';
import { fParam, wantsHtml } from '../params/format.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { serveFiles } from '../static-files.ts';
import { RASTILE_VERSION } from '../../version.ts';
import { schemaRef } from '../openapi-schemas.ts';

const require = createRequire(import.meta.url);

const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/json',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/landing-page',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/oas30',
  // OGC API – Maps (GET /cog/map, /stac/map)
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/crs',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/scaling',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/scaling/width-definition',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/spatial-subsetting',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/spatial-subsetting/bbox-definition',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/spatial-subsetting/bbox-crs',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/spatial-subsetting/crs-curie',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/png',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/jpeg',
  'http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/tiff',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/jpeg',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/png',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tiff',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list',
];

/** The demo GeoTIFF when this server's local roots include it (the landing page links its map). */
export function demoFileIfServed(config: Config): string | undefined {
  const file = path.join(config.demoDir, 'rastile-demo.tif');
  return config.sources.localRoots.some((r) => file.startsWith(r.endsWith(path.sep) ? r : r + path.sep)) ? file : undefined;
}

/** The real demo dataset (scripts/make-real-demo.py), beside the synthetic one. */
const realDemoFile = (demoFile: string): string => path.join(path.dirname(demoFile), 'olinda-landsat7.tif');
const REAL_DEMO_LABEL = 'Demo viewer: Landsat 7 over Olinda, Brazil (true colour)';

export function registerAppRoutes(app: FastifyInstance, registry: RouteRegistry, lifecycle: Lifecycle, demoFile?: string): void {
  const tags = ['OGC Common'];
  registerRoute(app, registry, {
    method: 'GET',
    path: '/',
    vary: ['accept'],
    operationId: 'landing',
    summary: 'Landing page.',
    tags,
    params: { ...fParam },
    responses: { 200: { description: 'Landing page.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request, baseUrl }) => {
      const data = {
        title: 'rastile',
        description: 'A dynamic raster tile server for Cloud-Optimized GeoTIFFs, STAC items and NASA granules (TiTiler-compatible, Node.js).',
        links: [
          { title: 'Landing page', href: `${baseUrl}/`, type: 'text/html', rel: 'self' },
          { title: 'The API definition (JSON)', href: `${baseUrl}/api`, type: 'application/vnd.oai.openapi+json;version=3.1', rel: 'service-desc' },
          { title: 'The API documentation', href: `${baseUrl}/api.html`, type: 'text/html', rel: 'service-doc' },
          { title: 'Conformance Declaration', href: `${baseUrl}/conformance`, type: 'text/html', rel: 'http://www.opengis.net/def/rel/ogc/1.0/conformance' },
          {
            title: 'List of Available TileMatrixSets',
            href: `${baseUrl}/tileMatrixSets`,
            type: 'application/json',
            rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes',
          },
          { title: 'List of Available Algorithms', href: `${baseUrl}/algorithms`, type: 'application/json', rel: 'data' },
          { title: 'List of Available ColorMaps', href: `${baseUrl}/colorMaps`, type: 'application/json', rel: 'data' },
        ],
      };
      if (wantsHtml(params.f, request.headers.accept)) {
        // For people: where to start (the demo's map, the docs, the tile sets), then the links of the JSON.
        const start = [
          // the real place first (Landsat 7 true colour), then the synthetic DEM's map, then the viewer for any dataset
          ...(demoFile !== undefined
            ? [
                { href: `${baseUrl}/cog/viewer?url=${encodeURIComponent(realDemoFile(demoFile))}&bidx=3&bidx=2&bidx=1`, label: REAL_DEMO_LABEL },
                { href: `${baseUrl}/cog/WebMercatorQuad/map.html?url=${encodeURIComponent(demoFile)}&rescale=0,3000&colormap_name=terrain`, label: 'Demo map' },
              ]
            : []),
          { href: `${baseUrl}/cog/viewer`, label: 'Viewer (any COG: band, rescale, colormap and algorithm pickers)' },
          { href: `${baseUrl}/api.html`, label: 'API documentation' },
          { href: `${baseUrl}/tileMatrixSets?f=html`, label: 'Tile sets (TileMatrixSets)' },
        ];
        const items = [...start, ...data.links.map((l) => ({ href: l.href, label: l.title }))];
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body: linkListPage('rastile', items, data.description) };
      }
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: '/conformance',
    vary: ['accept'],
    operationId: 'conformance',
    summary: 'Conformance classes.',
    tags,
    params: { ...fParam },
    responses: { 200: { description: 'Conformance declaration.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request }) => {
      const data = { conformsTo: [...CONFORMANCE].sort() };
      if (wantsHtml(params.f, request.headers.accept)) {
        return {
          kind: 'body',
          contentType: 'text/html; charset=utf-8',
          body: page('Conformance', `<h1>Conformance</h1><ul>${data.conformsTo.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>`),
        };
      }
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Health check.',
    tags: ['Health Check'],
    params: {},
    responses: {
      200: {
        description: 'Serving state ("serving" or "draining") and versions of the server and its main libraries.',
        content: { 'application/json': schemaRef('Health') },
      },
    },
    cacheControl: false,
    handler: async () => ({
      kind: 'json',
      data: { status: lifecycle.state, versions: { rastile: RASTILE_VERSION, node: process.versions.node, ...sharpVersions() } },
    }),
  });

  // Readiness for load balancers: 503 once a graceful shutdown began (the process still finishes
  // what it accepted; /healthz stays 200).
  app.get('/readyz', { config: { cacheControl: false } }, async (_request, reply) =>
    reply.code(lifecycle.draining ? 503 : 200).send({ status: lifecycle.state }),
  );

  // The OpenAPI document is built lazily (after every router registered its routes).
  let cached: string | null = null;
  app.get('/api', async (_request, reply) => {
    cached ??= JSON.stringify(buildOpenApi(registry, RASTILE_VERSION));
    return reply.type('application/vnd.oai.openapi+json;version=3.1').send(cached);
  });

  const uiDir = path.join(path.dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static');
  serveFiles(app, '/api.html/static', {
    'swagger-ui-bundle.js': { path: path.join(uiDir, 'swagger-ui-bundle.js'), type: 'application/javascript' },
    'swagger-ui.css': { path: path.join(uiDir, 'swagger-ui.css'), type: 'text/css' },
  });
  // What FastAPI users type first: TiTiler serves Swagger UI at /docs and ReDoc at /redoc.
  for (const alias of ['/docs', '/redoc']) app.get(alias, async (_request, reply) => reply.redirect('/api.html', 307));
  app.get('/api.html', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>rastile API</title>
<link rel="stylesheet" href="/api.html/static/swagger-ui.css"></head><body><div id="swagger-ui"></div>
<script src="/api.html/static/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api', dom_id: '#swagger-ui' });</script></body></html>`),
  );
}
