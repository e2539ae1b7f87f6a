/**
 * Bounds a granule-search backend reports (info, tilejson, tilesets, map; titiler-cmr §4.6): the
 * envelope of the `granule_ur` granule's footprint (one CMR search; none found → NoData, 204),
 * else the `bounding_box` parameter, else the whole world. CRS EPSG:4326.
 *
 * The granule_ur lookups are cached for a few minutes (every tile request of a map with
 * `granule_ur` opens the backend, and the footprint of a granule does not change), in an LRU of
 * `maxEntries` lookups. Concurrent requests for the same granule share one CMR search; each waits
 * with its own signal, so a caller that goes away never fails the others. The shared search itself
 * runs without a caller's signal (it is one page of one granule, bounded by the CMR client's own
 * deadline), like the STAC item loader's reads.
 */
import { RastileError } from '../errors.ts';
import type { Bounds } from '../geo/bounds.ts';
import { WORLD_BOUNDS } from '../geo/geographic-bounds.ts';
import type { Granule, GranuleQuery, SearchArea } from '../search/types.ts';
import { raceAbort } from '../sources/abort.ts';
import { LruCache, SharedPromiseCache } from '../util/lru-cache.ts';

export type GranuleSearchFn = (query: GranuleQuery, area: SearchArea, signal?: AbortSignal) => AsyncIterable<Granule>;

interface Entry {
  bounds: Bounds;
  loadedAt: number;
}

export class SearchBounds {
  private readonly cache: SharedPromiseCache<string, Entry>;

  constructor(
    private readonly search: GranuleSearchFn,
    private readonly ttlMs = 5 * 60_000,
    maxEntries = 512,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new SharedPromiseCache(new LruCache<string, Entry>(maxEntries, () => 1));
  }

  async bounds(query: GranuleQuery, signal?: AbortSignal): Promise<Bounds> {
    if (query.granuleUr === undefined) return query.boundingBox ? [...query.boundingBox] : [...WORLD_BOUNDS];
    const key = JSON.stringify([query.collectionConceptId, query.granuleUr, query.temporal, query.boundingBox]);
    const hit = this.cache.peek(key);
    if (hit !== undefined && this.now() - hit.loadedAt >= this.ttlMs) this.cache.delete(key);
    const entry = await raceAbort(
      this.cache.getOrCreate(key, () => this.lookup(query)),
      signal,
      `the search for granule_ur '${query.granuleUr}'`,
    );
    return [...entry.bounds];
  }

  private async lookup(query: GranuleQuery): Promise<Entry> {
    let found: Granule | undefined;
    for await (const g of this.search({ ...query, itemsLimit: 1 }, { kind: 'none' })) {
      found = g;
      break;
    }
    if (!found) throw new RastileError('NoData', `No granule found for granule_ur '${query.granuleUr}'`);
    return { bounds: found.bbox ?? [...WORLD_BOUNDS], loadedAt: this.now() };
  }
}
