/**
 * From a time-series request to its steps (shared by GET /timeseries and the per-backend
 * time-series routes): the required-parameter checks in titiler-cmr's order, step generation
 * (src/granule/timeseries/steps.ts), the no-step CMR search (one step per granule midpoint), and
 * the per-step search objects GET /timeseries returns.
 */
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { planSteps, type TemporalMode } from '../../granule/timeseries/steps.ts';
import { LISTING_COVERAGE_TOLERANCE, type GranuleSearchParamValues } from '../../search/query-params.ts';
import type { GranuleQuery } from '../../search/types.ts';
import type { Services } from '../services.ts';
import { P } from '../validation/params.ts';

/** `step` and `temporal_mode` (titiler-cmr §3.8). */
export const timeseriesParams = {
  step: P.str().describe(
    'Width of each step as an ISO 8601 duration (`P1D`, `PT1H`, `P1W`, `P1M`, `P1Y`, `PT0.5S`…). Without it: one step per granule CMR finds in the range, at the middle of its time range.',
  ),
  temporal_mode: P.enumeration(['point', 'interval'] as const)
    .default('interval')
    .describe(
      '`interval`: closed sub-intervals of `step` (each ends 1 s — 1 µs for steps up to 1 s — before the next starts); `point`: instants every `step`.',
    ),
};

/** Query keys of the time series itself: never passed on to a step's request. */
export const TIMESERIES_KEYS = ['temporal', 'datetime', 'step', 'temporal_mode'];

export interface TimeseriesRequest extends GranuleSearchParamValues {
  step?: string;
  temporal_mode: TemporalMode;
}

/** The collection searched: `collection_concept_id`, else the legacy `concept_id`. */
export const collectionOf = (p: GranuleSearchParamValues): string | undefined => (p.collection_concept_id ?? p.concept_id)?.trim() || undefined;

/**
 * The normalised step strings. 400s in titiler-cmr's order: no `temporal`, no collection, bad
 * temporal or step, more steps than the cap. `box`: the no-step search's bbox (GIF path or
 * `minx…` query), else the `bounding_box` parameter.
 */
export async function requestSteps(p: TimeseriesRequest, services: Services, box: Bounds | undefined, signal: AbortSignal): Promise<string[]> {
  const temporal = (p.temporal ?? p.datetime)?.trim();
  if (!temporal) throw Errors.badRequest("'temporal' is required", { context: { parameter: 'temporal' } });
  const collection = collectionOf(p);
  if (collection === undefined) throw Errors.badRequest('collection_concept_id is required', { context: { parameter: 'collection_concept_id' } });
  const config = services.config.timeseries;
  return planSteps({
    temporal,
    ...(p.step !== undefined ? { step: p.step } : {}),
    mode: p.temporal_mode,
    maxSteps: config.maxSteps,
    nowMs: (config.clock ?? Date.now)(),
    async granuleTimes(range) {
      // titiler-cmr's no-step search: the collection, the range and the box only; default paging,
      // at most 100 granules, no early stop.
      const query: GranuleQuery = {
        collectionConceptId: collection,
        temporal: range,
        itemsLimit: 100,
        exitWhenFull: false,
        skipCovered: false,
        coverageTolerance: LISTING_COVERAGE_TOLERANCE,
      };
      const searchBox = box ?? p.bounding_box;
      if (searchBox !== undefined) query.boundingBox = searchBox;
      const times = [];
      for await (const g of services.cmr.searchGranules(query, { kind: 'none' }, signal)) times.push(g.temporal);
      return times;
    },
  });
}

/** The per-step search objects of GET /timeseries (nulls dropped). */
export function stepSearches(p: GranuleSearchParamValues, steps: readonly string[]): Array<Record<string, unknown>> {
  const common: Record<string, unknown> = { collection_concept_id: collectionOf(p) };
  if (p.granule_ur) common['granule_ur'] = p.granule_ur;
  if (p.cloud_cover) common['cloud_cover'] = p.cloud_cover;
  if (p.bounding_box) common['bounding_box'] = p.bounding_box.map(String).join(',');
  if (p.sort_key && p.sort_key.length > 0) common['sort_key'] = p.sort_key;
  // Kept in every step (titiler-cmr drops them, silently widening the search).
  if (p.orbit_number !== undefined) common['orbit_number'] = p.orbit_number;
  if (p.attribute && p.attribute.length > 0) common['attribute'] = p.attribute;
  return steps.map((temporal) => ({ ...common, temporal }));
}
