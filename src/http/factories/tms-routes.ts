/** /tileMatrixSets and /tileMatrixSets/{id} (TiTiler TMSFactory). */
import type { FastifyInstance } from 'fastify';
import { getTileMatrixSet, TMS_IDS } from '../../geo/tms.ts';
import { escapeHtml, jsonBlock, linkListPage, page } from '../pages/html.ts';
import { fParam, wantsHtml } from '../params/format.ts';
import { tmsPathParam } from '../params/tms.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';

export function registerTmsRoutes(app: FastifyInstance, registry: RouteRegistry): void {
  const tags = ['Tiling Schemes'];
  registerRoute(app, registry, {
    method: 'GET',
    path: '/tileMatrixSets',
    operationId: 'tilematrixsets',
    summary: 'Retrieve the list of available tiling schemes (tile matrix sets).',
    tags,
    params: { ...fParam },
    responses: { 200: { description: 'TileMatrixSet list.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request, baseUrl }) => {
      const data = {
        tileMatrixSets: TMS_IDS.map((id) => ({
          id,
          links: [
            {
              href: `${baseUrl}/tileMatrixSets/${id}`,
              rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme',
              type: 'application/json',
              title: `Definition of ${id} tileMatrixSet`,
            },
          ],
        })),
      };
      if (wantsHtml(params.f, request.headers.accept)) {
        const items = data.tileMatrixSets.map((t) => ({ href: t.links[0].href, label: t.id }));
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body: linkListPage('TileMatrixSets', items) };
      }
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: '/tileMatrixSets/{tileMatrixSetId}',
    operationId: 'tilematrixset',
    summary: 'Retrieve the definition of the specified tiling scheme (tile matrix set).',
    tags,
    params: { ...tmsPathParam, ...fParam },
    responses: { 200: { description: 'TileMatrixSet definition.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request }) => {
      const data = getTileMatrixSet(params.tileMatrixSetId).toJSON();
      if (wantsHtml(params.f, request.headers.accept)) {
        return {
          kind: 'body',
          contentType: 'text/html; charset=utf-8',
          body: page(params.tileMatrixSetId, `<h1>${escapeHtml(params.tileMatrixSetId)}</h1>${jsonBlock(data)}`),
        };
      }
      return { kind: 'json', data };
    },
  });
}
