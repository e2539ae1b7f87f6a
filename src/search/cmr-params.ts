/**
 * The CMR `granules.umm_json` query for a GranuleQuery and a search area (titiler-cmr §3.9).
 *
 * Parameter order follows titiler-cmr's recordings: page_size, collection_concept_id, granule_ur,
 * temporal, cloud_cover, bounding_box, orbit_number, sort_key[]…, attribute[]…, then the area's own
 * spatial parameter. The area becomes `bounding_box=w,s,e,n` (bbox) or `point=lon,lat` (point); with
 * a user `bounding_box` the two are intersected here and the intersection's bounds are sent as
 * `bounding_box` (a point inside the box becomes `x,y,x,y`); no overlap means no search at all.
 *
 * Boxes with west > east cross the antimeridian (CMR's reading): they are split into pieces inside
 * [-180, 180] for the intersection and the coverage test, and sent again as west > east.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { CoverageArea } from './coverage.ts';
import { normalizeTemporal } from './query-params.ts';
import type { GranuleQuery, SearchArea } from './types.ts';

/** The spatial part of a search: nothing, no possible result, a point, or boxes inside [-180, 180]. */
export type SpatialFilter = { kind: 'none' } | { kind: 'empty' } | { kind: 'point'; lon: number; lat: number } | { kind: 'boxes'; boxes: Bounds[] };

/** Pieces of a box inside [-180, 180]: one, or two when west > east. */
export function antimeridianPieces(b: Bounds): Bounds[] {
  const [w, s, e, n] = b;
  return w <= e
    ? [[w, s, e, n]]
    : [
        [w, s, 180, n],
        [-180, s, e, n],
      ];
}

/** Closed intersection (touching boxes give a zero-width box), or null. */
function intersectClosed(a: Bounds, b: Bounds): Bounds | null {
  const r: Bounds = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[0] <= r[2] && r[1] <= r[3] ? r : null;
}

export function spatialFilter(area: SearchArea, userBox: Bounds | undefined): SpatialFilter {
  const user = userBox === undefined ? undefined : antimeridianPieces(userBox);
  if (area.kind === 'none') return user === undefined ? { kind: 'none' } : { kind: 'boxes', boxes: user };
  if (area.kind === 'point') {
    if (user === undefined) return { kind: 'point', lon: area.lon, lat: area.lat };
    const p: Bounds = [area.lon, area.lat, area.lon, area.lat];
    return user.some((u) => intersectClosed(u, p) !== null) ? { kind: 'boxes', boxes: [p] } : { kind: 'empty' };
  }
  const own = antimeridianPieces(area.bounds);
  if (user === undefined) return { kind: 'boxes', boxes: own };
  const boxes: Bounds[] = [];
  for (const a of own) {
    for (const u of user) {
      const r = intersectClosed(a, u);
      if (r !== null) boxes.push(r);
    }
  }
  return boxes.length > 0 ? { kind: 'boxes', boxes } : { kind: 'empty' };
}

/** What the coverage tracker must see covered, or undefined when the search has no area. */
export function coverageArea(area: SearchArea, filter: SpatialFilter): CoverageArea | undefined {
  if (area.kind === 'none') return undefined;
  if (filter.kind === 'point') return { kind: 'point', lon: filter.lon, lat: filter.lat };
  if (filter.kind === 'boxes') return { kind: 'boxes', boxes: filter.boxes };
  return undefined;
}

/** `w,s,e,n` for CMR: one piece as is; two pieces meeting at ±180° as one box with west > east. */
export function cmrBoundingBox(boxes: Bounds[]): string {
  let box: Bounds;
  if (boxes.length === 1) {
    box = boxes[0]!;
  } else {
    const east = boxes.find((b) => b[2] === 180);
    const west = boxes.find((b) => b[0] === -180);
    if (boxes.length === 2 && east !== undefined && west !== undefined && east !== west) {
      box = [east[0], Math.min(east[1], west[1]), west[2], Math.max(east[3], west[3])];
    } else {
      box = [
        Math.min(...boxes.map((b) => b[0])),
        Math.min(...boxes.map((b) => b[1])),
        Math.max(...boxes.map((b) => b[2])),
        Math.max(...boxes.map((b) => b[3])),
      ];
    }
  }
  return box.map(formatNumber).join(',');
}

/** Shortest round-trip decimal text; `-0` printed as `0`. */
const formatNumber = (n: number): string => (Object.is(n, -0) ? '0' : String(n));

/** The query pairs of a granule search (without the search-after header). */
export function granuleSearchParams(query: GranuleQuery, filter: SpatialFilter, pageSize: number): Array<[string, string]> {
  const params: Array<[string, string]> = [['page_size', String(pageSize)]];
  if (query.collectionConceptId !== undefined) params.push(['collection_concept_id', query.collectionConceptId]);
  if (query.granuleUr !== undefined) params.push(['granule_ur', query.granuleUr]);
  // Queries from granuleQueryFromParams arrive normalised already (cache keys such as
  // SearchBounds' rely on that); this covers queries built in code. normalizeTemporal is idempotent.
  if (query.temporal !== undefined) params.push(['temporal', normalizeTemporal(query.temporal)]);
  if (query.cloudCover !== undefined) params.push(['cloud_cover', query.cloudCover]);
  const userBox = query.boundingBox !== undefined;
  if (userBox && filter.kind === 'boxes') params.push(['bounding_box', cmrBoundingBox(filter.boxes)]);
  if (query.orbitNumber !== undefined) params.push(['orbit_number', String(query.orbitNumber)]);
  for (const key of query.sortKey ?? []) params.push(['sort_key[]', key]);
  for (const attribute of query.attribute ?? []) params.push(['attribute[]', attribute]);
  if (!userBox && filter.kind === 'boxes') params.push(['bounding_box', cmrBoundingBox(filter.boxes)]);
  if (filter.kind === 'point') params.push(['point', `${formatNumber(filter.lon)},${formatNumber(filter.lat)}`]);
  return params;
}
