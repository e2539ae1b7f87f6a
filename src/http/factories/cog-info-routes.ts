/** /cog/info and /cog/info.geojson (single-dataset metadata). */
import type { FastifyInstance } from 'fastify';
import { WGS84 } from '../../geo/crs.ts';
import { boundsFeature } from '../bounds-feature.ts';
import { crsParam } from '../params/crs.ts';
import { urlParam } from '../params/dataset.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { schemaRef } from '../openapi-schemas.ts';

export function registerCogInfoRoutes(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix: string, tag: string): void {
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: `${prefix.slice(1)}_info`,
    summary: 'Return dataset basic info.',
    tags: [tag],
    params: { ...urlParam },
    responses: { 200: { description: 'Dataset info.', content: { 'application/json': schemaRef('Info') } } },
    handler: async ({ params, signal }) => ({ kind: 'json', data: (await services.openCog(params.url, signal)).info() }),
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: `${prefix.slice(1)}_info_geojson`,
    summary: 'Return dataset info as a GeoJSON Feature of its footprint.',
    tags: [tag],
    params: { ...urlParam, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature.', content: { 'application/geo+json': schemaRef('InfoGeoJSON') } } },
    handler: async ({ params, signal }) => {
      const reader = await services.openCog(params.url, signal);
      const b = reader.boundsIn(params.crs ?? WGS84);
      return { kind: 'json', contentType: 'application/geo+json', data: boundsFeature(b, reader.info()) };
    },
  });
}
