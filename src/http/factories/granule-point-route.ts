/**
 * GET /raster/point/{lon},{lat} (and /array/point): one entry per granule containing the point, not a mosaic
 * (titiler-cmr §2.2): `{"coordinates":[lon,lat],"assets":[{"name":<granule_ur>,"values",
 * "band_names","band_descriptions"}…]}`.
 */
import type { FastifyInstance } from 'fastify';
import { WGS84 } from '../../geo/crs.ts';
import { lonLatPathParams } from '../params/coordinates.ts';
import { coordCrsParam } from '../params/crs.ts';
import { datasetParams, readOptions } from '../params/dataset.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { GranuleMosaicReader } from '../../granule/granule-mosaic-reader.ts';
import type { ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';

export function registerGranulePointRoute<D extends ParamDefs>(
  app: FastifyInstance,
  registry: RouteRegistry,
  backend: ImageBackend<D, GranuleMosaicReader>,
): void {
  const { prefix } = backend;
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/point/{lon},{lat}`,
    operationId: `${prefix.slice(1)}_point`,
    summary: 'Values at a point, per granule that contains it (CMR order).',
    tags: [backend.tag],
    params: {
      ...lonLatPathParams,
      ...backend.params,
      ...coordCrsParam,
      ...datasetParams,
    },
    responses: {
      200: { description: 'Point values per granule.', content: { 'application/json': {} } },
      204: { description: 'No granule found, or none contains the point.' },
    },
    handler: async ({ params: p, signal }) => {
      const reader = await backend.open(p, signal);
      const found = await reader.pointEach(p.lon, p.lat, p.coord_crs ?? WGS84, readOptions(p), signal);
      return {
        kind: 'json',
        data: {
          coordinates: [p.lon, p.lat],
          assets: found.map((v) => ({ name: v.granule.granuleUr, values: v.values, band_names: v.bandNames, band_descriptions: v.bandDescriptions })),
        },
      };
    },
  });
}
