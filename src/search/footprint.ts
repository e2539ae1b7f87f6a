/**
 * UMM-G footprints (`SpatialExtent.HorizontalSpatialDomain.Geometry`) as GeoJSON in EPSG:4326, safe
 * across the antimeridian and around the poles.
 *
 * - GPolygons: each `Boundary` becomes a ring (closed if needed; `ExclusiveZone` holes are ignored,
 *   as titiler-cmr does). A ring whose consecutive longitudes jump by more than 180° crosses the
 *   antimeridian: it is unwrapped into continuous longitudes, then cut at ±180° into pieces inside
 *   [-180, 180] (RFC 7946 §3.1.9). A ring whose unwrapped longitudes end 360° away from where they
 *   started goes around a pole: it is closed over the pole on the side of its mean latitude.
 * - BoundingRectangles (used when there is no GPolygon): one ring each; West > East means the
 *   rectangle crosses the antimeridian and gives two pieces.
 * - Points (used when there is neither): Point or MultiPoint. Lines, orbits and tracks: no footprint.
 *
 * Edges are treated as straight lines in longitude/latitude (as titiler-cmr's shapely code does), not
 * as CMR's great circles. One polygon piece gives a Polygon, several a MultiPolygon.
 *
 * The bbox is the smallest longitude arc holding every piece (west > east when that arc crosses the
 * antimeridian) and the latitude range.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { Geometry, Position } from '../geo/geometry.ts';

export interface Footprint {
  geometry: Geometry | null;
  bbox: Bounds | null;
}

type Ring = Position[];

const NONE: Footprint = { geometry: null, bbox: null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The footprint of a UMM-G `SpatialExtent` value (anything else gives no footprint). */
export function footprintFromUmm(spatialExtent: unknown): Footprint {
  const geometry =
    isObject(spatialExtent) && isObject(spatialExtent['HorizontalSpatialDomain']) ? spatialExtent['HorizontalSpatialDomain']['Geometry'] : undefined;
  if (!isObject(geometry)) return NONE;

  const polygons = list(geometry['GPolygons'])
    .map(gpolygonRing)
    .filter((r): r is Ring => r !== null);
  if (polygons.length > 0) return polygonFootprint(polygons.flatMap(ringPieces));

  const rectangles = list(geometry['BoundingRectangles'])
    .map(rectanglePieces)
    .filter((r): r is Ring[] => r !== null);
  if (rectangles.length > 0) return polygonFootprint(rectangles.flat());

  const points = list(geometry['Points'])
    .map(umPoint)
    .filter((p): p is Position => p !== null);
  if (points.length === 0) return NONE;
  const geom: Geometry = points.length === 1 ? { type: 'Point', coordinates: points[0]! } : { type: 'MultiPoint', coordinates: points };
  const lons = points.map((p) => p[0]!);
  const lats = points.map((p) => p[1]!);
  return { geometry: geom, bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] };
}

function umPoint(p: unknown): Position | null {
  if (!isObject(p)) return null;
  const lon = num(p['Longitude']);
  const lat = num(p['Latitude']);
  return lon === undefined || lat === undefined ? null : [lon, lat];
}

function gpolygonRing(g: unknown): Ring | null {
  if (!isObject(g) || !isObject(g['Boundary'])) return null;
  const points = list(g['Boundary']['Points']).map(umPoint);
  if (points.some((p) => p === null)) return null;
  const ring = points as Position[];
  const open = ring.length > 1 && samePoint(ring[0]!, ring[ring.length - 1]!) ? ring.slice(0, -1) : ring;
  return open.length >= 3 ? open : null;
}

function rectanglePieces(r: unknown): Ring[] | null {
  if (!isObject(r)) return null;
  const w = num(r['WestBoundingCoordinate']);
  const e = num(r['EastBoundingCoordinate']);
  const s = num(r['SouthBoundingCoordinate']);
  const n = num(r['NorthBoundingCoordinate']);
  if (w === undefined || e === undefined || s === undefined || n === undefined) return null;
  if (w <= e) return [boxRing(w, s, e, n)];
  return [boxRing(w, s, 180, n), boxRing(-180, s, e, n)];
}

/** Counter-clockwise closed ring of a box: (W,S) (E,S) (E,N) (W,N) (W,S). */
export const boxRing = (w: number, s: number, e: number, n: number): Ring => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];

const samePoint = (a: Position, b: Position): boolean => a[0] === b[0] && a[1] === b[1];

/** Longitude step from `from` to `to` taken the short way round (within ±180). */
function lonStep(from: number, to: number): number {
  let d = to - from;
  while (d > 180) d -= 360;
  while (d < -180) d += 360;
  return d;
}

/**
 * An open ring's pieces inside [-180, 180], closed. A ring that never jumps across the antimeridian
 * and lies inside [-180, 180] is returned unchanged (closed).
 */
export function ringPieces(open: Ring): Ring[] {
  const crosses = open.some((p, i) => Math.abs(p[0]! - open[(i + 1) % open.length]![0]!) > 180);
  const inside = open.every((p) => p[0]! >= -180 && p[0]! <= 180);
  if (!crosses && inside) return [[...open, open[0]!]];

  const unwrapped: Ring = [[open[0]![0]!, open[0]![1]!]];
  for (let i = 1; i < open.length; i++) {
    const prev = unwrapped[i - 1]!;
    unwrapped.push([prev[0]! + lonStep(open[i - 1]![0]!, open[i]![0]!), open[i]![1]!]);
  }
  const last = unwrapped[unwrapped.length - 1]!;
  const closingLon = last[0]! + lonStep(open[open.length - 1]![0]!, open[0]![0]!);
  const first = unwrapped[0]!;
  if (Math.abs(closingLon - first[0]!) > 180) {
    // Goes once around a pole: close the ring over the pole on the side where the ring lies.
    const meanLat = open.reduce((sum, p) => sum + p[1]!, 0) / open.length;
    const pole = meanLat >= 0 ? 90 : -90;
    unwrapped.push([closingLon, first[1]!], [closingLon, pole], [first[0]!, pole]);
  }
  unwrapped.push([first[0]!, first[1]!]);

  let minLon = Infinity;
  let maxLon = -Infinity;
  for (const p of unwrapped) {
    minLon = Math.min(minLon, p[0]!);
    maxLon = Math.max(maxLon, p[0]!);
  }
  const pieces: Ring[] = [];
  for (let k = Math.ceil((-180 - maxLon) / 360); k <= Math.floor((180 - minLon) / 360); k++) {
    const shifted = unwrapped.map((p) => [p[0]! + 360 * k, p[1]!]);
    const clipped = clipLongitudes(shifted, -180, 180);
    if (clipped !== null) pieces.push(clipped);
  }
  // A ring inside [-180, 180] with an edge from -180 straight to 180 (a planar "world box") has no
  // area once unwrapped (both are the same meridian): keep it as drawn, as shapely would.
  if (pieces.length === 0 && inside && ringArea([...open, open[0]!]) !== 0) return [[...open, open[0]!]];
  return pieces;
}

/**
 * Sutherland–Hodgman clip of a closed ring to lo <= lon <= hi (two half-planes), closed result, or
 * null when nothing with an area is left. A concave ring may keep zero-width bridges along the cut.
 */
export function clipLongitudes(closed: Ring, lo: number, hi: number): Ring | null {
  let pts = closed.slice(0, -1);
  pts = clipHalfPlane(pts, (p) => p[0]! - lo, lo);
  pts = clipHalfPlane(pts, (p) => hi - p[0]!, hi);
  if (pts.length < 3 || Math.abs(ringArea([...pts, pts[0]!])) === 0) return null;
  return [...pts, pts[0]!];
}

function clipHalfPlane(pts: Ring, side: (p: Position) => number, cut: number): Ring {
  const out: Ring = [];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % pts.length]!;
    const sa = side(a);
    const sb = side(b);
    if (sa >= 0) out.push(a);
    if (sa >= 0 !== sb >= 0 && sa !== 0 && sb !== 0) {
      const t = (cut - a[0]!) / (b[0]! - a[0]!);
      out.push([cut, a[1]! + t * (b[1]! - a[1]!)]);
    }
  }
  return out;
}

/** Signed shoelace area of a closed ring (positive when counter-clockwise). */
export function ringArea(closed: Ring): number {
  let a = 0;
  for (let i = 0; i + 1 < closed.length; i++) a += closed[i]![0]! * closed[i + 1]![1]! - closed[i + 1]![0]! * closed[i]![1]!;
  return a / 2;
}

function polygonFootprint(pieces: Ring[]): Footprint {
  if (pieces.length === 0) return NONE;
  const geometry: Geometry =
    pieces.length === 1 ? { type: 'Polygon', coordinates: [pieces[0]!] } : { type: 'MultiPolygon', coordinates: pieces.map((r) => [r]) };
  let south = Infinity;
  let north = -Infinity;
  const spans: Array<[number, number]> = pieces.map((ring) => {
    let w = Infinity;
    let e = -Infinity;
    for (const p of ring) {
      w = Math.min(w, p[0]!);
      e = Math.max(e, p[0]!);
      south = Math.min(south, p[1]!);
      north = Math.max(north, p[1]!);
    }
    return [w, e];
  });
  const [west, east] = smallestLongitudeArc(spans);
  return { geometry, bbox: [west, south, east, north] };
}

/**
 * The shortest arc [west, east] of the longitude circle holding every span (spans inside
 * [-180, 180]); west > east when the arc crosses the antimeridian.
 */
export function smallestLongitudeArc(spans: Array<[number, number]>): [number, number] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [w, e] of sorted) {
    const top = merged[merged.length - 1];
    if (top !== undefined && w <= top[1]) top[1] = Math.max(top[1], e);
    else merged.push([w, e]);
  }
  const first = merged[0]!;
  const last = merged[merged.length - 1]!;
  const wrapGap = first[0] + 360 - last[1];
  let best = -1;
  let bestGap = wrapGap;
  for (let i = 0; i + 1 < merged.length; i++) {
    const gap = merged[i + 1]![0] - merged[i]![1];
    if (gap > bestGap) {
      bestGap = gap;
      best = i;
    }
  }
  if (best < 0) return [first[0], last[1]];
  return [merged[best + 1]![0], merged[best]![1]];
}
