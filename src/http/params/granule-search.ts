/**
 * Granule-search query parameters (titiler-cmr §3.1 CMR filters, §3.2 search behaviour). Parse with
 * `parseParams`, then turn the values into a GranuleQuery with `granuleQueryFromParams`
 * (src/search/query-params.ts), passing the route's coverage-tolerance default.
 *
 * The legacy names `concept_id` and `datetime` are declared separately (`legacyGranuleSearchAliases`)
 * as hidden parameters: parsed, but left out of the OpenAPI parameter list.
 */
import type { Bounds } from '../../geo/bounds.ts';
import { MAX_ITEMS_LIMIT, parseBoundingBox } from '../../search/query-params.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

const boundingBoxParam = P.custom<Bounds>(
  (raw) => {
    const r = parseBoundingBox(raw);
    return typeof r === 'string' ? fail(Problems.value(r)) : r;
  },
  { type: 'string', pattern: '^[^,]+,[^,]+,[^,]+,[^,]+$', example: '-91.705,48.179,-91.459,48.3' },
);

/** The CMR filters, forwarded to CMR. */
const cmrFilterParams = {
  collection_concept_id: P.str().describe('CMR collection concept id (e.g. `C2021957657-LPCLOUD`) whose granules are searched.'),
  temporal: P.str().describe(
    'Time range `<start>/<end>` in ISO 8601 (either side may be open: `<start>/`, `/<end>`); a single datetime means that instant (sent to CMR as `t/t`).',
  ),
  granule_ur: P.str().describe('Select one granule by its GranuleUR.'),
  cloud_cover: P.str().describe('Cloud cover range `min,max` in percent (either side may be empty), e.g. `0,20`.'),
  bounding_box: boundingBoxParam.describe(
    'Limit the search to `minx,miny,maxx,maxy` (degrees; minx > maxx crosses the antimeridian). Intersected with the requested tile, bbox, feature or point.',
  ),
  sort_key: P.str().list().describe('CMR sort keys, repeatable, `-` prefix for descending (e.g. `-start_date`, `cloud_cover`).'),
  orbit_number: P.int().describe('Orbital pass number.'),
  attribute: P.str().list().describe('CMR additional-attribute filters `[type,]name[,min[,max]]`, repeatable (ANDed); escape commas with `\\,`.'),
};

/** Search behaviour; `coverageTolerance` is the route's default (§3.2: 0.01 raster, 0 array and granule listings). */
function searchBehaviourParams(defaults: { coverageTolerance: number }) {
  return {
    items_limit: P.int().ge(1).le(MAX_ITEMS_LIMIT).default(100).describe('Maximum number of granules taken from CMR for one search.'),
    exitwhenfull: P.bool().default(true).describe('Stop searching once the granule footprints cover the requested area (grown by `coverage_tolerance`).'),
    skipcovered: P.bool().default(false).describe('Skip a granule whose footprint equals one already taken (repeat passes).'),
    coverage_tolerance: P.float()
      .ge(0)
      .le(1)
      .default(defaults.coverageTolerance)
      .describe('Degrees by which the requested area is grown before the coverage test of `exitwhenfull` (0 to 1).'),
  };
}

/** Every granule-search parameter for a route with the given coverage-tolerance default. */
export function granuleSearchParams(defaults: { coverageTolerance: number }) {
  return { ...cmrFilterParams, ...searchBehaviourParams(defaults) };
}

/** Hidden legacy aliases (0.x names), used only when the new name is absent. */
export const legacyGranuleSearchAliases = {
  concept_id: P.str().hidden().describe('Deprecated alias of `collection_concept_id`.'),
  datetime: P.str().hidden().describe('Deprecated alias of `temporal`.'),
};
