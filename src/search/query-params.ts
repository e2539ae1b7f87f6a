/**
 * Plain parsing helpers turning the granule-search query parameters (titiler-cmr §3.1, §3.2) into a
 * GranuleQuery. The HTTP layer declares and validates the parameters (src/http/params/granule-search.ts)
 * and both the /raster and /array routers call `granuleQueryFromParams` with the parsed values.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { GranuleQuery } from './types.ts';

/** Granules taken per search when `items_limit` is absent (titiler-cmr's default). */
export const DEFAULT_ITEMS_LIMIT = 100;
/** Largest accepted `items_limit` (CMR's largest page; more would make one request very slow). */
export const MAX_ITEMS_LIMIT = 2000;
/** `coverage_tolerance` default on the raster-file backend routes (titiler-cmr §3.2). */
export const RASTER_COVERAGE_TOLERANCE = 0.01;
/** `coverage_tolerance` default on the array backend and the granule-listing routes. */
export const LISTING_COVERAGE_TOLERANCE = 0;

/**
 * CMR `temporal` value: a bare instant `t` becomes `t/t` (CMR would read a bare datetime as an
 * open-ended range); an ISO interval `a/b` (also `a/`, `/b`, `a/..`) is sent verbatim. A CMR comma
 * range `a,b` is also sent verbatim (titiler-cmr turns it into `a,b/a,b`, which CMR rejects).
 */
export function normalizeTemporal(value: string): string {
  const v = value.trim();
  if (v === '' || v.includes('/') || v.includes(',')) return v;
  return `${v}/${v}`;
}

/**
 * `minx,miny,maxx,maxy` in degrees → Bounds, or an error message. West may exceed east (a box across
 * the antimeridian, as CMR reads it); south may not exceed north.
 */
export function parseBoundingBox(text: string): Bounds | string {
  const parts = text.split(',');
  const values = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (parts.length !== 4 || values.some((v) => !Number.isFinite(v))) {
    return 'bounding_box must be four comma-separated numbers: minx,miny,maxx,maxy';
  }
  const [w, s, e, n] = values as Bounds;
  if ([w, e].some((x) => x < -180 || x > 180) || [s, n].some((y) => y < -90 || y > 90)) {
    return 'bounding_box longitudes must be within [-180, 180] and latitudes within [-90, 90]';
  }
  if (s > n) return 'bounding_box miny must not be greater than maxy';
  return [w, s, e, n];
}

/** Parsed values of the granule-search query parameters, named as in the query string. */
export interface GranuleSearchParamValues {
  collection_concept_id?: string;
  /** Legacy alias, used only when `collection_concept_id` is absent. */
  concept_id?: string;
  granule_ur?: string;
  temporal?: string;
  /** Legacy alias, used only when `temporal` is absent. */
  datetime?: string;
  cloud_cover?: string;
  bounding_box?: Bounds;
  sort_key?: string[];
  orbit_number?: number;
  attribute?: string[];
  items_limit?: number;
  exitwhenfull?: boolean;
  skipcovered?: boolean;
  coverage_tolerance?: number;
}

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/**
 * Builds the GranuleQuery. `coverageTolerance` is the route's default (RASTER_COVERAGE_TOLERANCE or
 * LISTING_COVERAGE_TOLERANCE). A sort key written `+key` in a URL arrives as ` key` (form decoding
 * turns `+` into a space): surrounding spaces are dropped, which gives CMR's default ascending order.
 */
export function granuleQueryFromParams(p: GranuleSearchParamValues, defaults: { coverageTolerance: number }): GranuleQuery {
  const query: GranuleQuery = {
    itemsLimit: Math.min(MAX_ITEMS_LIMIT, Math.max(1, Math.floor(p.items_limit ?? DEFAULT_ITEMS_LIMIT))),
    exitWhenFull: p.exitwhenfull ?? true,
    skipCovered: p.skipcovered ?? false,
    coverageTolerance: Math.min(1, Math.max(0, p.coverage_tolerance ?? defaults.coverageTolerance)),
  };
  const collection = nonEmpty(p.collection_concept_id) ?? nonEmpty(p.concept_id);
  if (collection !== undefined) query.collectionConceptId = collection;
  const granuleUr = nonEmpty(p.granule_ur);
  if (granuleUr !== undefined) query.granuleUr = granuleUr;
  const temporal = nonEmpty(p.temporal) ?? nonEmpty(p.datetime);
  if (temporal !== undefined) query.temporal = normalizeTemporal(temporal);
  const cloud = nonEmpty(p.cloud_cover);
  if (cloud !== undefined) query.cloudCover = cloud;
  if (p.bounding_box !== undefined) query.boundingBox = p.bounding_box;
  const sortKeys = (p.sort_key ?? []).map((k) => k.trim()).filter((k) => k !== '');
  if (sortKeys.length > 0) query.sortKey = sortKeys;
  if (p.orbit_number !== undefined) query.orbitNumber = p.orbit_number;
  const attributes = (p.attribute ?? []).filter((a) => a.trim() !== '');
  if (attributes.length > 0) query.attribute = attributes;
  return query;
}
