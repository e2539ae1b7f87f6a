/**
 * The /zarr router (TiTiler's titiler.xarray router): one variable (or several on the same grid)
 * of a NetCDF/HDF5 file or a Zarr store, read through the same grid reader as /cog, so tiles,
 * TileJSON, map, tile sets, point, bbox, feature, statistics and info are the /cog route
 * factories with an array-dataset opener. Dataset listings live in zarr-dataset-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { WGS84 } from '../../geo/crs.ts';
import { bindLayer, type ImageReader } from '../../readers/image-reader.ts';
import { layerFromParams } from '../../readers/layer.ts';
import type { DatasetReader } from '../../readers/reader.ts';
import { boundsFeature } from '../bounds-feature.ts';
import { crsParam } from '../params/crs.ts';
import { bidxExpressionParams } from '../params/dataset.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import type { ImageBackend } from './backend.ts';
import { registerPartRoutes } from './part-routes.ts';
import { registerStatisticsRoutes } from './statistics-routes.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';
import { registerZarrDatasetRoutes } from './zarr-dataset-routes.ts';
import { zarrSelection, zarrVariableParams } from './zarr-params.ts';

const TAG = 'Multidimensional arrays (NetCDF, HDF5, Zarr)';

type ArrayLayerReader = ImageReader & { readonly dataset: DatasetReader };

export function registerZarrRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/zarr'): void {
  const params = { ...zarrVariableParams, ...bidxExpressionParams };
  const backend: ImageBackend<typeof params, ArrayLayerReader> = {
    prefix,
    tag: TAG,
    params,
    open: async (p, signal) => {
      const dataset = await services.openArray(p.url, zarrSelection(p), signal);
      return { ...bindLayer(dataset, layerFromParams(p.bidx, p.expression)), dataset };
    },
    tileJsonExtras: (_p, reader) => {
      const info = reader.dataset.info();
      return { band_descriptions: info.band_descriptions, data_type: info.dtype, ...(info.minmax ? { minmax: info.minmax } : {}) };
    },
    layerTitle: (p) => `${p.url} ${p.variable.join(',')}`,
  };
  const maxSide = services.config.limits.maxImageSide;
  const op = prefix.slice(1);
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: `${op}_info`,
    summary: 'Return the info of the selected variable(s) as a grid.',
    tags: [TAG],
    params: zarrVariableParams,
    responses: { 200: { description: 'Dataset info.', content: { 'application/json': {} } } },
    handler: async ({ params, signal }) => ({ kind: 'json', data: (await services.openArray(params.url, zarrSelection(params), signal)).info() }),
  });
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: `${op}_info_geojson`,
    summary: 'Return the info as a GeoJSON Feature of the grid footprint.',
    tags: [TAG],
    params: { ...zarrVariableParams, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature.', content: { 'application/geo+json': {} } } },
    handler: async ({ params, signal }) => {
      const reader = await services.openArray(params.url, zarrSelection(params), signal);
      return { kind: 'json', contentType: 'application/geo+json', data: boundsFeature(reader.boundsIn(params.crs ?? WGS84), reader.info()) };
    },
  });
  registerZarrDatasetRoutes(app, registry, services, prefix, TAG);
  registerStatisticsRoutes(app, registry, backend, maxSide);
  registerTileSetRoutes(app, registry, backend);
  registerTileRoutes(app, registry, backend);
  registerPartRoutes(app, registry, backend, maxSide);
}
