/**
 * `GET {prefix}/viewer` (TiTiler's cogViewerExtension / stacViewerExtension): the dataset viewer,
 * one static page (src/http/static/viewer.html, .js, .css) for /cog and /stac. The page reads
 * the mode from its path and its picks from its query string, and asks the API for everything
 * else, so the server only hands out the file.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { P } from '../validation/params.ts';

const VIEWER_HTML = readFileSync(new URL('../static/viewer.html', import.meta.url), 'utf8');

export function registerViewerRoute(app: FastifyInstance, registry: RouteRegistry, prefix: string, tag: string): void {
  const stac = prefix.endsWith('/stac');
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/viewer`,
    operationId: `${prefix.slice(1).replace(/\//g, '_')}_viewer`,
    summary: `Dataset viewer (HTML): a map with ${stac ? 'asset' : 'band'}, expression, rescale, colormap and algorithm pickers.`,
    description:
      'A single page (MapLibre GL served by this server). Its picks may be given in the query string: ' +
      `\`url\`, ${stac ? '`assets`, ' : ''}\`bidx\`, \`expression\`, \`rescale\`, \`colormap_name\`, \`algorithm\`; without \`rescale\` ` +
      `it takes the 2nd–98th percentiles from \`${prefix}/statistics\`.`,
    tags: [tag],
    params: {
      url: P.str().describe(
        stac ? 'STAC Item URL to open (optional: the page has a box for it).' : 'Dataset URL to open (optional: the page has a box for it).',
      ),
    },
    responses: { 200: { description: 'The viewer page.', content: { 'text/html': { type: 'string' } } } },
    handler: async () => ({ kind: 'body', contentType: 'text/html; charset=utf-8', body: VIEWER_HTML }),
  });
}
