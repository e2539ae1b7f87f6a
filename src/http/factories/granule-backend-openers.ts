/**
 * The /raster and /array backends' granule readers (granule-mosaic-backend.ts with each backend's
 * way of reading a granule), apart from their routers: the time-series worker threads
 * (timeseries-worker.ts) build them without loading every route module.
 */
import type { Services } from '../services.ts';
import type { ParsedParams } from '../validation/params.ts';
import { RASTER_COVERAGE_TOLERANCE } from '../../search/query-params.ts';
import { ARRAY_COVERAGE_TOLERANCE, type granuleArrayBackendParams, granuleArrayLayer } from './granule-array-params.ts';
import type { GranuleRasterParams } from './granule-backend.ts';
import { granuleMosaicOpeners, type GranuleMosaicOpeners, type GranuleReadSpec } from './granule-mosaic-backend.ts';
import { granuleLayer } from './granule-raster-params.ts';

/** `openAsset`: how a granule's asset is opened (default: the services' COG datasets; a worker's warm-up: from memory). */
export function granuleRasterOpeners(services: Services, openAsset?: GranuleReadSpec['openAsset']): GranuleMosaicOpeners<ParsedParams<GranuleRasterParams>> {
  return granuleMosaicOpeners(services, RASTER_COVERAGE_TOLERANCE, (p: ParsedParams<GranuleRasterParams>) => {
    const { layer, assetsRegex } = granuleLayer(p);
    return { layer, assetsRegex, openAsset: openAsset ?? ((href, s) => services.openCog(href, s)) };
  });
}

export function granuleArrayOpeners(services: Services): GranuleMosaicOpeners<ParsedParams<typeof granuleArrayBackendParams>> {
  // Each step's `temporal` is its own: the search and the `sel` `{datetime}` interpolation follow
  // it, so the selection is part of a step's key.
  return granuleMosaicOpeners(services, ARRAY_COVERAGE_TOLERANCE, (p: ParsedParams<typeof granuleArrayBackendParams>) => {
    const { selection, layer } = granuleArrayLayer(p);
    return { layer, readableAsset: () => true, openAsset: (href, s) => services.openArray(href, selection, s), stepKey: (selection.sel ?? []).join('&') };
  });
}
