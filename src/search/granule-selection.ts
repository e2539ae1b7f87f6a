/**
 * What one granule search keeps of the granules CMR sends, in CMR order (titiler-cmr §3.9): a
 * granule whose footprint equals one already kept is dropped (`skipcovered`); the search ends at
 * `items_limit` granules, or once the kept footprints cover the search area (`exitwhenfull`).
 * The CMR client applies it page by page; a time series applies the same to its steps' shares of
 * one range search (series-search.ts), so both keep exactly the same granules.
 */
import { coverageArea, spatialFilter, type SpatialFilter } from './cmr-params.ts';
import { CoverageTracker } from './coverage.ts';
import { footprintKey } from './footprint-key.ts';
import type { Granule, GranuleQuery, SearchArea } from './types.ts';

/** `skip`: not kept; `take`: kept; `last`: kept, and the search ends with it. */
export type Offer = 'skip' | 'take' | 'last';

export class GranuleSelection {
  readonly filter: SpatialFilter;
  private readonly tracker: CoverageTracker | undefined;
  /** footprintKey of every granule kept (skipcovered): a duplicate is one Set lookup. */
  private readonly seen = new Set<string>();
  private count = 0;

  constructor(
    private readonly query: GranuleQuery,
    area: SearchArea,
  ) {
    this.filter = spatialFilter(area, query.boundingBox);
    const toCover = query.exitWhenFull ? coverageArea(area, this.filter) : undefined;
    this.tracker = toCover === undefined ? undefined : new CoverageTracker(toCover, query.coverageTolerance);
  }

  /** Whether the search finds nothing without asking CMR (no spatial overlap, or items_limit < 1). */
  get empty(): boolean {
    return this.filter.kind === 'empty' || this.query.itemsLimit < 1;
  }

  offer(granule: Granule): Offer {
    if (this.query.skipCovered && granule.footprint !== null) {
      const key = footprintKey(granule.footprint);
      if (this.seen.has(key)) return 'skip';
      this.seen.add(key);
    }
    this.count++;
    if (this.count >= this.query.itemsLimit) return 'last';
    return this.tracker?.add(granule.footprint) === true ? 'last' : 'take';
  }
}

/** The granules a search keeps from `candidates` (its CMR result, in order). */
export function selectGranules(query: GranuleQuery, area: SearchArea, candidates: Iterable<Granule>): Granule[] {
  const selection = new GranuleSelection(query, area);
  const kept: Granule[] = [];
  if (selection.empty) return kept;
  for (const g of candidates) {
    const offer = selection.offer(g);
    if (offer === 'skip') continue;
    kept.push(g);
    if (offer === 'last') break;
  }
  return kept;
}
