/**
 * One CMR search for all the steps of a time series, shared out per step locally — instead of one
 * search per step (2 ms of client CPU each: request, JSON, granule objects) — only where the share
 * is provably what the step's own search would give:
 *
 * - Which granules: CMR's temporal filter is an inclusive overlap (granule start ≤ step end and
 *   granule end ≥ step start, `exclude_boundary` off); every other filter (collection, area,
 *   bounding_box, cloud_cover, …) is the same in both searches. A step whose boundaries carry
 *   sub-millisecond digits, a granule without a start or end (an ongoing range: how CMR reads it
 *   is not checked here), a datetime that does not parse, or a comparison decided inside one
 *   millisecond (CMR's precision) leaves that step to its own search.
 * - In which order: CMR sorts by the sort keys (default: provider, then start date) and breaks
 *   ties by concept id (its `CMR-Search-After` values, e.g. `["pocloud",1728604800000,3264876018]`
 *   in the recorded time-series exchanges): a total order over granules that does not depend on
 *   the temporal filter, so a step's granules come in the range result's order.
 * - How many: items_limit, skipcovered and exitwhenfull are applied per step to its share with the
 *   CMR client's own code (granule-selection.ts).
 * - Completeness: the range search is given up (every step searches alone) when it finds more
 *   granules than `cap`.
 */
import { currentSharedWork } from '../util/shared-work.ts';
import type { CmrClient } from './cmr-client.ts';
import { selectGranules } from './granule-selection.ts';
import type { Granule, GranuleQuery, SearchArea } from './types.ts';

/** Microseconds since 1970 of an ISO datetime (naive = UTC), or null. */
export function instantMicros(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d{1,9}))?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/.exec(text.trim());
  if (m === null) return null;
  const tz =
    m[3] === undefined ? 'Z' : m[3].length === 3 ? `${m[3]}:00` : m[3].length === 5 && !m[3].includes(':') ? `${m[3].slice(0, 3)}:${m[3].slice(3)}` : m[3];
  const ms = Date.parse(`${m[1]!.replace(' ', 'T')}${tz}`);
  if (!Number.isFinite(ms)) return null;
  return ms * 1000 + (m[2] === undefined ? 0 : Number(m[2].padEnd(6, '0').slice(0, 6)));
}

/** A closed step interval `a/b` (or `a,b`) in microseconds; null when it is not one with millisecond ends. */
export function stepInterval(temporal: string): [number, number] | null {
  const parts = temporal.includes('/') ? temporal.split('/') : temporal.split(',');
  if (parts.length !== 2) return null;
  const [a, b] = parts.map(instantMicros);
  if (a == null || b == null || a % 1000 !== 0 || b % 1000 !== 0 || a > b) return null;
  return [a, b];
}

/** `x ≤ y` as CMR decides it, or null when the two are within one millisecond but not equal. */
function atMost(x: number, y: number): boolean | null {
  if (x !== y && Math.abs(x - y) < 1000) return null;
  return x <= y;
}

/** The range search's result: its granules with their time ranges (µs), in CMR order. */
export interface SeriesRange {
  granules: Array<{ granule: Granule; start: number | null; end: number | null }>;
}

export function seriesRange(granules: readonly Granule[]): SeriesRange {
  return {
    granules: granules.map((granule) => ({
      granule,
      start: granule.temporal.start === null ? null : instantMicros(granule.temporal.start),
      end: granule.temporal.end === null ? null : instantMicros(granule.temporal.end),
    })),
  };
}

/**
 * What the search `query` (a step's, with its `temporal`) over `area` keeps, taken from the range
 * search's result — or undefined when that cannot be shown equal to the step's own search.
 */
export function stepGranules(range: SeriesRange, query: GranuleQuery, area: SearchArea): Granule[] | undefined {
  const interval = query.temporal === undefined ? null : stepInterval(query.temporal);
  if (interval === null) return undefined;
  const [s, e] = interval;
  const found: Granule[] = [];
  for (const { granule, start, end } of range.granules) {
    if (start === null || end === null) return undefined;
    const startsBefore = atMost(start, e);
    const endsAfter = atMost(s, end);
    if (startsBefore === null || endsAfter === null) return undefined;
    if (startsBefore && endsAfter) found.push(granule);
  }
  return selectGranules(query, area, found);
}

/** The range search of steps `first`…`last` (their `a/b` temporals): the same query over the union. */
export function rangeTemporal(steps: readonly string[]): string | undefined {
  let lo: [number, string] | undefined;
  let hi: [number, string] | undefined;
  for (const step of steps) {
    const parts = step.includes('/') ? step.split('/') : step.split(',');
    const interval = parts.length === 2 ? stepInterval(step) : parts.length === 1 ? stepInterval(`${step}/${step}`) : null;
    if (interval === null) return undefined;
    const [a, b] = parts.length === 2 ? parts : [parts[0]!, parts[0]!];
    if (lo === undefined || interval[0] < lo[0]) lo = [interval[0], a!.trim()];
    if (hi === undefined || interval[1] > hi[0]) hi = [interval[1], b!.trim()];
  }
  return lo === undefined || hi === undefined ? undefined : `${lo[1]}/${hi[1]}`;
}

/** Granules per step a range search may find before it is given up (per-step first pages hold as many). */
const PER_STEP_CAP = 20;

/**
 * Inside a time series whose steps form a range (util/shared-work.ts `searchRange`): the granules
 * this step's search (`query`, over `area`) would find, taken from one range search shared by the
 * steps — or undefined: search alone (no series, a step or granule outside what is proven equal,
 * more granules than the cap, or the range search failed: the step's own search then reports it).
 */
export async function sharedStepSearch(cmr: CmrClient, query: GranuleQuery, area: SearchArea, signal: AbortSignal): Promise<Granule[] | undefined> {
  const work = currentSharedWork();
  const range = work?.searchRange;
  if (work === undefined || range === undefined || query.temporal === undefined) return undefined;
  const rangeQuery: GranuleQuery = { ...query, temporal: range.temporal };
  const { itemsLimit: _l, exitWhenFull: _e, skipCovered: _s, coverageTolerance: _c, ...filters } = rangeQuery;
  const cap = Math.min(2000, range.steps * PER_STEP_CAP);
  const shared = work.get(`cmr range search ${JSON.stringify(filters)} ${JSON.stringify(area)}`, 0, () =>
    cmr.searchAll(rangeQuery, area, cap, signal).then(
      (granules) => (granules === null ? null : seriesRange(granules)),
      () => null,
    ),
  );
  const result = await shared;
  return result === null ? undefined : stepGranules(result, query, area);
}
