/**
 * Bounds a granule-search backend reports (info, tilejson, tilesets, map; titiler-cmr §4.6): the
 * envelope of the `granule_ur` granule's footprint (one CMR search; none found → NoData, 204),
 * else the `bounding_box` parameter, else the whole world. CRS EPSG:4326.
 *
 * The granule_ur lookups are cached for a few minutes (every tile request of a map with
 * `granule_ur` opens the backend, and the footprint of a granule does not change).
 */
import { RastileError } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { Granule, GranuleQuery, SearchArea } from '../../search/types.ts';

const WORLD: Bounds = [-180, -90, 180, 90];

export type GranuleSearchFn = (query: GranuleQuery, area: SearchArea, signal?: AbortSignal) => AsyncIterable<Granule>;

export class SearchBounds {
  private readonly cache = new Map<string, { at: number; bounds: Bounds }>();

  constructor(
    private readonly search: GranuleSearchFn,
    private readonly ttlMs = 5 * 60_000,
    private readonly maxEntries = 512,
    private readonly now: () => number = Date.now,
  ) {}

  async bounds(query: GranuleQuery, signal?: AbortSignal): Promise<Bounds> {
    if (query.granuleUr === undefined) return query.boundingBox ? [...query.boundingBox] : [...WORLD];
    const key = JSON.stringify([query.collectionConceptId, query.granuleUr, query.temporal, query.boundingBox]);
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return [...hit.bounds];
    let found: Granule | undefined;
    for await (const g of this.search({ ...query, itemsLimit: 1 }, { kind: 'none' }, signal)) {
      found = g;
      break;
    }
    if (!found) throw new RastileError('NoData', `No granule found for granule_ur '${query.granuleUr}'`);
    const bounds = found.bbox ?? WORLD;
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { at: this.now(), bounds });
    return [...bounds];
  }
}
