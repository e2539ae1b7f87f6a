/** /algorithms and /algorithms/{algorithmId} (TiTiler AlgorithmFactory). */
import type { FastifyInstance } from 'fastify';
import { ALGORITHM_IDS, describeAlgorithm } from '../../raster/algorithms/index.ts';
import { escapeHtml, jsonBlock, linkListPage, page } from '../pages/html.ts';
import { fParam, wantsHtml } from '../params/format.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { P } from '../validation/params.ts';

export function registerAlgorithmRoutes(app: FastifyInstance, registry: RouteRegistry): void {
  const tags = ['Algorithms'];
  registerRoute(app, registry, {
    method: 'GET',
    path: '/algorithms',
    operationId: 'algorithms',
    summary: 'Retrieve the list of available algorithms.',
    tags,
    params: { ...fParam },
    responses: { 200: { description: 'Algorithm list.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request, baseUrl }) => {
      const data = {
        algorithms: ALGORITHM_IDS.map((id) => ({
          id,
          links: [{ href: `${baseUrl}/algorithms/${id}`, rel: 'item', type: 'application/json', title: `Definition of ${id} Algorithm` }],
        })),
      };
      if (wantsHtml(params.f, request.headers.accept)) {
        const items = data.algorithms.map((a) => ({ href: a.links[0].href, label: a.id }));
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body: linkListPage('Algorithms', items) };
      }
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: '/algorithms/{algorithmId}',
    operationId: 'algorithm',
    summary: 'Retrieve the metadata of the specified algorithm.',
    tags,
    params: { algorithmId: P.literal(ALGORITHM_IDS).path().describe('Algorithm name'), ...fParam },
    responses: { 200: { description: 'Algorithm metadata.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params, request }) => {
      const data = describeAlgorithm(params.algorithmId);
      if (wantsHtml(params.f, request.headers.accept)) {
        return {
          kind: 'body',
          contentType: 'text/html; charset=utf-8',
          body: page(data.title, `<h1>${escapeHtml(data.title)}</h1><p>${escapeHtml(data.description)}</p>${jsonBlock(data)}`),
        };
      }
      return { kind: 'json', data };
    },
  });
}
