/** /cog/info and /cog/info.geojson (single-dataset metadata). */
import type { FastifyInstance } from 'fastify';
import type { Bounds } from '../../geo/bounds.ts';
import { WGS84 } from '../../geo/crs.ts';
import { cogInfo } from '../../readers/cog/info.ts';
import { crsParam } from '../params/crs.ts';
import { urlParam } from '../params/dataset.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';

export function registerCogInfoRoutes(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix: string, tag: string): void {
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: `${prefix.slice(1)}_info`,
    summary: 'Return dataset basic info.',
    tags: [tag],
    params: { ...urlParam },
    responses: { 200: { description: 'Dataset info.', content: { 'application/json': {} } } },
    handler: async ({ params, signal }) => ({ kind: 'json', data: cogInfo((await services.openCog(params.url, signal)).ds) }),
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: `${prefix.slice(1)}_info_geojson`,
    summary: 'Return dataset info as a GeoJSON Feature of its footprint.',
    tags: [tag],
    params: { ...urlParam, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature.', content: { 'application/geo+json': {} } } },
    handler: async ({ params, signal }) => {
      const reader = await services.openCog(params.url, signal);
      const b = reader.boundsIn(params.crs ?? WGS84);
      return { kind: 'json', contentType: 'application/geo+json', data: { type: 'Feature', bbox: b, geometry: footprint(b), properties: cogInfo(reader.ds) } };
    },
  });
}

/** Polygon of the bounds, or a MultiPolygon split at the antimeridian when west > east. */
export function footprint(b: Bounds): { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] } {
  const box = (w: number, s: number, e: number, n: number): number[][] => [[w, s], [e, s], [e, n], [w, n], [w, s]];
  if (b[0] > b[2]) return { type: 'MultiPolygon', coordinates: [[box(-180, b[1], b[2], b[3])], [box(b[0], b[1], 180, b[3])]] };
  return { type: 'Polygon', coordinates: [box(b[0], b[1], b[2], b[3])] };
}
