/**
 * The /array router: granules found in NASA CMR whose first data file (asset "0": NetCDF-4/HDF5,
 * NetCDF-3 or Zarr) is read as a selection of variables (titiler-cmr's `/xarray` routes, §2.2,
 * §6) and mosaicked per request with `pixel_selection`, exactly like /raster: the same route
 * factories, the same GranuleMosaicReader, with each granule opened by the array-dataset opener
 * (one GridReader per granule file and selection, cached per file version).
 */
import type { FastifyInstance } from 'fastify';
import type { GranuleMosaicReader } from '../../granule/granule-mosaic-reader.ts';
import type { RouteRegistry } from '../route.ts';
import type { ParsedParams } from '../validation/params.ts';
import type { Services } from '../services.ts';
import type { ImageBackend } from './backend.ts';
import { granuleArrayBackendParams } from './granule-array-params.ts';
import type { GranuleMosaicOpeners } from './granule-mosaic-backend.ts';
import { granuleArrayOpeners } from './granule-backend-openers.ts';
import { registerGranulePointRoute } from './granule-point-route.ts';
import { registerGranuleInfoRoutes } from './granule-raster-router.ts';
import { registerPartRoutes } from './part-routes.ts';
import { registerStatisticsRoutes } from './statistics-routes.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';
import { registerTimeseriesRoutes, type StepSearcher } from './timeseries-routes.ts';

const TAG = 'Granule mosaics (multidimensional arrays)';

export type GranuleArrayBackend = ImageBackend<typeof granuleArrayBackendParams, GranuleMosaicReader> & {
  /** A time-series step's search, done before its read: steps finding the same granules share one read. */
  searchStep: StepSearcher<typeof granuleArrayBackendParams>;
  /** The reader over granules found beforehand (a time-series step on a worker thread). */
  openGranules: GranuleMosaicOpeners<ParsedParams<typeof granuleArrayBackendParams>>['openGranules'];
};

/**
 * The /array backend: `open(params, signal)` builds the GranuleMosaicReader of one request (its CMR
 * filters, array selection with `{datetime}` interpolated, layer and pixel selection). Exported
 * for per-step reuse (time series).
 */
export function granuleArrayBackend(services: Services, prefix = '/array'): GranuleArrayBackend {
  const openers = granuleArrayOpeners(services);
  return {
    prefix,
    tag: TAG,
    params: granuleArrayBackendParams,
    wholeDatasetPreview: false,
    ownPointRoute: true,
    open: openers.open,
    searchStep: openers.searchStep,
    openGranules: openers.openGranules,
    layerTitle: (p) => `${p.collection_concept_id ?? p.concept_id ?? 'CMR granules'} ${p.variables.join(',')}`,
  };
}

export function registerGranuleArrayRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/array'): void {
  const backend = granuleArrayBackend(services, prefix);
  const maxSide = services.config.limits.maxImageSide;
  registerGranuleInfoRoutes(app, registry, backend);
  registerTileSetRoutes(app, registry, backend);
  registerTileRoutes(app, registry, backend);
  registerGranulePointRoute(app, registry, backend);
  registerPartRoutes(app, registry, backend, maxSide);
  registerStatisticsRoutes(app, registry, backend, maxSide);
  registerTimeseriesRoutes(app, registry, services, backend, backend.searchStep, 'array');
}
