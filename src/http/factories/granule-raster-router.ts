/**
 * The /raster router: granules found in NASA CMR, their GeoTIFF/COG assets read as multi-asset
 * items and mosaicked per request (titiler-cmr's `/rasterio` routes, §2.2). Tiles, TileJSON,
 * the map page and the tile-set listings are the shared factories driven by a granule backend;
 * bbox, feature and POST statistics too (the mosaic reader's `feature` reports `used_assets`);
 * info and the per-granule point route are granule-specific.
 *
 * The backend's `open` builds a GranuleMosaicReader bound to the request's CMR filters, asset
 * layer and pixel selection; the search itself happens when the reader is asked for a tile, part
 * or point (for that area). Only `granule_ur` makes `open` search (for the reported bounds).
 */
import type { FastifyInstance } from 'fastify';
import { crsUri, WGS84 } from '../../geo/crs.ts';
import type { GranuleMosaicReader } from '../../granule/granule-mosaic-reader.ts';
import { boundsFeature } from '../bounds-feature.ts';
import { crsParam } from '../params/crs.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import type { ParamDefs, ParsedParams } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { granuleRasterBackendParams, type GranuleBackend, type GranuleRasterParams } from './granule-backend.ts';
import type { GranuleMosaicOpeners } from './granule-mosaic-backend.ts';
import { granuleRasterOpeners } from './granule-backend-openers.ts';
import { registerGranulePointRoute } from './granule-point-route.ts';
import { registerPartRoutes } from './part-routes.ts';
import { registerStatisticsRoutes } from './statistics-routes.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';
import { registerTimeseriesRoutes, type StepSearcher } from './timeseries-routes.ts';

const TAG = 'Granule mosaics (raster files)';

export type GranuleRasterBackend = GranuleBackend & {
  searchStep: StepSearcher<GranuleRasterParams>;
  /** The reader over granules found beforehand (a time-series step on a worker thread). */
  openGranules: GranuleMosaicOpeners<ParsedParams<GranuleRasterParams>>['openGranules'];
};

export function granuleRasterBackend(services: Services, prefix: string): GranuleRasterBackend {
  const openers = granuleRasterOpeners(services);
  return {
    prefix,
    tag: TAG,
    params: granuleRasterBackendParams,
    wholeDatasetPreview: false,
    ownPointRoute: true,
    open: openers.open,
    searchStep: openers.searchStep,
    openGranules: openers.openGranules,
    layerTitle: (p) => p.collection_concept_id ?? p.concept_id ?? 'CMR granules',
  };
}

export function registerGranuleRasterRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/raster'): void {
  const backend = granuleRasterBackend(services, prefix);
  const maxSide = services.config.limits.maxImageSide;
  registerGranuleInfoRoutes(app, registry, backend);
  registerTileSetRoutes(app, registry, backend);
  registerTileRoutes(app, registry, backend);
  registerGranulePointRoute(app, registry, backend);
  registerPartRoutes(app, registry, backend, maxSide);
  registerStatisticsRoutes(app, registry, backend, maxSide);
  registerTimeseriesRoutes(app, registry, services, backend, backend.searchStep, 'raster');
}

const CRS_4326 = 'http://www.opengis.net/def/crs/EPSG/0/4326';

/** /info and /info.geojson: the bounds of the search (not of data), EPSG:4326 (titiler-cmr §4.6). */
export function registerGranuleInfoRoutes<D extends ParamDefs>(
  app: FastifyInstance,
  registry: RouteRegistry,
  backend: ImageBackend<D, GranuleMosaicReader>,
): void {
  const { prefix } = backend;
  const op = prefix.slice(1);
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: `${op}_info`,
    summary: "Bounds of the search: granule_ur's footprint, else bounding_box, else the world.",
    tags: [backend.tag],
    params: backend.params,
    responses: { 200: { description: 'Search bounds and CRS.', content: { 'application/json': {} } } },
    handler: async ({ params, signal }) => {
      const reader = await backend.open(params, signal);
      return { kind: 'json', data: { bounds: reader.bounds, crs: CRS_4326 } };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: `${op}_info_geojson`,
    summary: 'The search bounds as a GeoJSON Feature (properties: the info).',
    tags: [backend.tag],
    params: { ...backend.params, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature.', content: { 'application/geo+json': {} } } },
    handler: async ({ params, signal }) => {
      const reader = await backend.open(params, signal);
      const crs = params.crs ?? WGS84;
      const b = reader.boundsIn(crs);
      const data = boundsFeature(b, { bounds: reader.bounds, crs: CRS_4326 });
      if (params.crs) data.crs = { type: 'name', properties: { name: crsUri(crs) ?? crs.id } };
      return { kind: 'json', contentType: 'application/geo+json', data };
    },
  });
}
