/**
 * The /raster backend's type and parameters (its own file so the granule routes beside the router
 * can name it without importing the router).
 */
import type { GranuleMosaicReader } from '../../granule/granule-mosaic-reader.ts';
import { RASTER_COVERAGE_TOLERANCE } from '../../search/query-params.ts';
import { granuleSearchParams, legacyGranuleSearchAliases } from '../params/granule-search.ts';
import type { ImageBackend } from './backend.ts';
import { granuleRasterParams } from './granule-raster-params.ts';

export const granuleRasterBackendParams = {
  ...granuleSearchParams({ coverageTolerance: RASTER_COVERAGE_TOLERANCE }),
  ...legacyGranuleSearchAliases,
  ...granuleRasterParams,
};

export type GranuleRasterParams = typeof granuleRasterBackendParams;

/**
 * An ImageBackend whose readers are granule mosaics (the granule-specific routes use their extra
 * methods). No whole-dataset preview (the search area may be the world) and its own per-granule
 * point route.
 */
export type GranuleBackend = ImageBackend<GranuleRasterParams, GranuleMosaicReader>;
