/**
 * Pure geometry for the granule search: point-in-footprint, the search area grown by the coverage
 * tolerance, and "does the union of the footprints taken so far cover it?" (titiler-cmr's
 * `exitwhenfull`, which uses shapely's `buffer(tolerance).covered_by(union)`).
 *
 * Written here rather than taken from a library: no polygon library is installed (and installing
 * one is not ours to decide), and we only need one predicate. The test is exact up to EPS, not a
 * sampling: the x axis is cut at every vertex and every edge crossing that lies in the area's
 * bounding box; inside each strip between two cuts no edge starts, ends or crosses another, so the
 * covered part of any vertical line through the strip has the same structure, and checking the line
 * through the strip's middle decides the whole strip. A coarse grid of sample points is tested first
 * (cheap, incremental), so the exact test only runs once every sample point is covered.
 *
 * Planar longitude/latitude geometry, like titiler-cmr. Footprints inside [-180, 180] (see
 * footprint.ts) are also used shifted by ±360° where they touch the antimeridian, so an area grown
 * past ±180° by the tolerance can still be covered.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { Geometry, Position } from '../geo/geometry.ts';

/** Closed ring (first point repeated at the end). */
export type Ring = Position[];

/** What must be covered: boxes inside [-180, 180] (two when split at the antimeridian) or a point. */
export type CoverageArea = { kind: 'boxes'; boxes: Bounds[] } | { kind: 'point'; lon: number; lat: number };

/** Distance, in degrees, under which a gap or a boundary contact counts as closed (about 0.1 mm). */
export const EPS = 1e-9;

/** Segments per quarter circle of the grown area's rounded corners (shapely's `geometry.buffer` default). */
const QUARTER_SEGMENTS = 16;
/** Sample points per side of the prefilter grid. */
const GRID = 7;

// ---------------------------------------------------------------------------------------------
// Point in polygon

/** True when (x, y) is inside the closed ring or on its boundary (within EPS). Even-odd rule. */
export function pointInRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0; i + 1 < ring.length; i++) {
    const x1 = ring[i]![0]!;
    const y1 = ring[i]![1]!;
    const x2 = ring[i + 1]![0]!;
    const y2 = ring[i + 1]![1]!;
    if (pointSegmentDistance(x, y, x1, y1, x2, y2) <= EPS) return true;
    if (y1 > y !== y2 > y && x < x1 + ((y - y1) * (x2 - x1)) / (y2 - y1)) inside = !inside;
  }
  return inside;
}

function pointSegmentDistance(px: number, py: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len2));
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}

/**
 * True when the point lies in (or on the boundary of) a footprint polygon (holes respected) or
 * equals a footprint point. Longitudes are compared as given, plus the ±360° copies near ±180°.
 */
export function pointInFootprint(lon: number, lat: number, footprint: Geometry | null): boolean {
  if (footprint === null) return false;
  switch (footprint.type) {
    case 'Point':
      return Math.abs(footprint.coordinates[0]! - lon) <= EPS && Math.abs(footprint.coordinates[1]! - lat) <= EPS;
    case 'MultiPoint':
      return footprint.coordinates.some((p) => Math.abs(p[0]! - lon) <= EPS && Math.abs(p[1]! - lat) <= EPS);
    case 'Polygon':
      return polygonContains(footprint.coordinates, lon, lat);
    case 'MultiPolygon':
      return footprint.coordinates.some((poly) => polygonContains(poly, lon, lat));
    case 'GeometryCollection':
      return footprint.geometries.some((g) => pointInFootprint(lon, lat, g));
    default:
      return false;
  }
}

function polygonContains(rings: Ring[], lon: number, lat: number): boolean {
  for (const shift of [0, 360, -360]) {
    const x = lon + shift;
    if (!pointInRing(x, lat, rings[0]!)) continue;
    if (!rings.slice(1).some((hole) => pointInRing(x, lat, hole) && !onRingBoundary(x, lat, hole))) return true;
  }
  return false;
}

function onRingBoundary(x: number, y: number, ring: Ring): boolean {
  for (let i = 0; i + 1 < ring.length; i++) {
    if (pointSegmentDistance(x, y, ring[i]![0]!, ring[i]![1]!, ring[i + 1]![0]!, ring[i + 1]![1]!) <= EPS) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Footprints as coverage polygons

/**
 * Outer rings of a footprint's polygons, plus copies shifted by ±360° for rings that come within
 * `margin` degrees of the antimeridian. Points and lines cover nothing. Holes are ignored: our
 * footprints have none (UMM ExclusiveZones are dropped by footprint.ts).
 */
export function coverageRings(footprint: Geometry | null, margin = 1): Ring[] {
  if (footprint === null) return [];
  const rings: Ring[] = [];
  const add = (ring: Ring) => {
    rings.push(ring);
    const [w, , e] = ringBounds(ring);
    if (e >= 180 - margin) rings.push(ring.map((p) => [p[0]! - 360, p[1]!]));
    if (w <= -180 + margin) rings.push(ring.map((p) => [p[0]! + 360, p[1]!]));
  };
  switch (footprint.type) {
    case 'Polygon':
      if (footprint.coordinates[0] !== undefined) add(footprint.coordinates[0]);
      break;
    case 'MultiPolygon':
      for (const poly of footprint.coordinates) if (poly[0] !== undefined) add(poly[0]);
      break;
    case 'GeometryCollection':
      for (const g of footprint.geometries) rings.push(...coverageRings(g, margin));
      break;
    default:
      break;
  }
  return rings;
}

export function ringBounds(ring: Ring): Bounds {
  const b: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of ring) {
    if (p[0]! < b[0]) b[0] = p[0]!;
    if (p[1]! < b[1]) b[1] = p[1]!;
    if (p[0]! > b[2]) b[2] = p[0]!;
    if (p[1]! > b[3]) b[3] = p[1]!;
  }
  return b;
}

const boxesTouch = (a: Bounds, b: Bounds): boolean => a[0] <= b[2] + EPS && b[0] <= a[2] + EPS && a[1] <= b[3] + EPS && b[1] <= a[3] + EPS;

// ---------------------------------------------------------------------------------------------
// The search area grown by the tolerance

/**
 * A box grown by `t` degrees with rounded corners (each quarter circle drawn with 16 segments, the
 * vertices on the circle, as shapely's `buffer` does); a point grown by `t` is a 64-gon. With
 * t = 0 the box itself (possibly degenerate: a segment or a point). Counter-clockwise, closed.
 */
export function grownBox(b: Bounds, t: number): Ring {
  const [x0, y0, x1, y1] = b;
  if (t <= 0)
    return [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ];
  const ring: Ring = [];
  const corners: Array<[number, number]> = [
    [x1, y1],
    [x0, y1],
    [x0, y0],
    [x1, y0],
  ];
  corners.forEach(([cx, cy], c) => {
    for (let i = 0; i <= QUARTER_SEGMENTS; i++) {
      const a = ((c + i / QUARTER_SEGMENTS) * Math.PI) / 2;
      const p = [cx + t * Math.cos(a), cy + t * Math.sin(a)];
      const prev = ring[ring.length - 1];
      if (prev === undefined || prev[0] !== p[0] || prev[1] !== p[1]) ring.push(p);
    }
  });
  if (ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1]) ring.pop();
  // A tolerance below the coordinates' float resolution (e.g. 2e-323) grows nothing.
  if (ring.length < 3) return grownBox(b, 0);
  ring.push(ring[0]!);
  return ring;
}

/** The convex polygons to cover: every box (or the point) grown by the tolerance. */
export function grownArea(area: CoverageArea, tolerance: number): Ring[] {
  if (area.kind === 'point') return [grownBox([area.lon, area.lat, area.lon, area.lat], tolerance)];
  return area.boxes.map((b) => grownBox(b, tolerance));
}

// ---------------------------------------------------------------------------------------------
// "Covered" test

/** True when every convex area polygon lies inside the union of the rings (boundaries included). */
export function isCovered(area: Ring[], rings: Ring[]): boolean {
  return area.every((a) => convexCovered(a, rings));
}

function convexCovered(a: Ring, rings: Ring[]): boolean {
  const ab = ringBounds(a);
  const relevant = rings.filter((r) => boxesTouch(ringBounds(r), ab));
  if (relevant.length === 0) return false;
  const width = ab[2] - ab[0];
  const height = ab[3] - ab[1];
  if (width <= EPS && height <= EPS) return relevant.some((r) => pointInRing(ab[0], ab[1], r));
  if (width <= EPS || height <= EPS) return segmentCovered([ab[0], ab[1]], [ab[2], ab[3]], relevant);
  return stripsCovered(a, ab, relevant);
}

type Edge = [x1: number, y1: number, x2: number, y2: number];

function ringEdges(ring: Ring, out: Edge[]): void {
  for (let i = 0; i + 1 < ring.length; i++) {
    const p = ring[i]!;
    const q = ring[i + 1]!;
    if (p[0] !== q[0] || p[1] !== q[1]) out.push([p[0]!, p[1]!, q[0]!, q[1]!]);
  }
}

/** Intersection point of two segments (a single point; parallel segments give none). */
function segmentIntersection(e: Edge, f: Edge): Position | null {
  const [x1, y1, x2, y2] = e;
  const [x3, y3, x4, y4] = f;
  const d = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3);
  if (d === 0) return null;
  const t = ((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3)) / d;
  const u = ((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1)) / d;
  if (t < -1e-12 || t > 1 + 1e-12 || u < -1e-12 || u > 1 + 1e-12) return null;
  return [x1 + t * (x2 - x1), y1 + t * (y2 - y1)];
}

/** The strip test described in the module comment, for a convex area polygon with a real area. */
function stripsCovered(a: Ring, ab: Bounds, rings: Ring[]): boolean {
  const edges: Edge[] = [];
  ringEdges(a, edges);
  for (const r of rings) ringEdges(r, edges);
  const inBox = (x: number, y: number) => x > ab[0] && x < ab[2] && y >= ab[1] - EPS && y <= ab[3] + EPS;

  const cuts: number[] = [ab[0], ab[2]];
  for (const e of edges) {
    if (inBox(e[0], e[1])) cuts.push(e[0]);
    if (inBox(e[2], e[3])) cuts.push(e[2]);
  }
  const boxes = edges.map((e): Bounds => [Math.min(e[0], e[2]), Math.min(e[1], e[3]), Math.max(e[0], e[2]), Math.max(e[1], e[3])]);
  for (let i = 0; i < edges.length; i++) {
    if (!boxesTouch(boxes[i]!, ab)) continue;
    for (let j = i + 1; j < edges.length; j++) {
      if (!boxesTouch(boxes[i]!, boxes[j]!)) continue;
      const p = segmentIntersection(edges[i]!, edges[j]!);
      if (p !== null && inBox(p[0]!, p[1]!)) cuts.push(p[0]!);
    }
  }
  cuts.sort((x, y) => x - y);

  for (let i = 0; i + 1 < cuts.length; i++) {
    const xa = cuts[i]!;
    const xb = cuts[i + 1]!;
    if (xb - xa <= 1e-12) continue;
    const xm = (xa + xb) / 2;
    const span = lineIntervals(a, xm);
    if (span.length === 0) continue;
    const lo = span[0]![0];
    const hi = span[span.length - 1]![1];
    const cover: Array<[number, number]> = [];
    for (const r of rings) cover.push(...lineIntervals(r, xm));
    if (!intervalCovered(lo, hi, cover)) return false;
  }
  return true;
}

/** The intervals of the vertical line at x inside the ring (even-odd; x is never a vertex's x here). */
function lineIntervals(ring: Ring, x: number): Array<[number, number]> {
  const ys: number[] = [];
  for (let i = 0; i + 1 < ring.length; i++) {
    const x1 = ring[i]![0]!;
    const x2 = ring[i + 1]![0]!;
    if ((x1 <= x && x < x2) || (x2 <= x && x < x1)) {
      const y1 = ring[i]![1]!;
      const y2 = ring[i + 1]![1]!;
      ys.push(y1 + ((x - x1) * (y2 - y1)) / (x2 - x1));
    }
  }
  ys.sort((p, q) => p - q);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < ys.length; i += 2) out.push([ys[i]!, ys[i + 1]!]);
  return out;
}

/** True when [lo, hi] lies inside the union of the intervals (gaps up to EPS ignored). */
function intervalCovered(lo: number, hi: number, intervals: Array<[number, number]>): boolean {
  intervals.sort((p, q) => p[0] - q[0]);
  let reach = lo;
  for (const [a, b] of intervals) {
    if (a > reach + EPS) break;
    if (b > reach) reach = b;
    if (reach >= hi - EPS) return true;
  }
  return reach >= hi - EPS;
}

/** A degenerate area (a segment): covered when every piece between edge contacts is inside a ring. */
function segmentCovered(p: Position, q: Position, rings: Ring[]): boolean {
  const seg: Edge = [p[0]!, p[1]!, q[0]!, q[1]!];
  const dx = q[0]! - p[0]!;
  const dy = q[1]! - p[1]!;
  const len2 = dx * dx + dy * dy;
  const ts = [0, 1];
  const edges: Edge[] = [];
  for (const r of rings) ringEdges(r, edges);
  for (const e of edges) {
    const hit = segmentIntersection(seg, e);
    if (hit !== null) ts.push(((hit[0]! - p[0]!) * dx + (hit[1]! - p[1]!) * dy) / len2);
    for (const [x, y] of [
      [e[0], e[1]],
      [e[2], e[3]],
    ] as const) {
      if (pointSegmentDistance(x, y, ...seg) <= EPS) ts.push(((x - p[0]!) * dx + (y - p[1]!) * dy) / len2);
    }
  }
  const sorted = ts.filter((t) => t >= 0 && t <= 1).sort((a, b) => a - b);
  const at = (t: number) => rings.some((r) => pointInRing(p[0]! + t * dx, p[1]! + t * dy, r));
  for (let i = 0; i < sorted.length; i++) {
    if (!at(sorted[i]!)) return false;
    if (i + 1 < sorted.length && !at((sorted[i]! + sorted[i + 1]!) / 2)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Incremental tracker used by the search loop

/**
 * Accumulates footprints and answers "is the area (grown by the tolerance) covered yet?" after each
 * one. Sample points (the area polygons' vertices and a 7×7 grid) are struck off as footprints
 * cover them; the exact test runs only when none is left.
 */
export class CoverageTracker {
  private readonly area: Ring[];
  private readonly rings: Ring[] = [];
  private pending: Position[];
  private done = false;

  constructor(area: CoverageArea, tolerance: number) {
    this.area = grownArea(area, Math.max(0, tolerance));
    this.pending = this.area.flatMap(samplePoints);
  }

  get covered(): boolean {
    return this.done;
  }

  /** Adds a footprint; returns true once the union covers the area. */
  add(footprint: Geometry | null): boolean {
    if (this.done) return true;
    const fresh = coverageRings(footprint);
    if (fresh.length === 0) return false;
    this.rings.push(...fresh);
    this.pending = this.pending.filter((p) => !fresh.some((r) => pointInRing(p[0]!, p[1]!, r)));
    if (this.pending.length > 0) return false;
    this.done = isCovered(this.area, this.rings);
    return this.done;
  }
}

function samplePoints(a: Ring): Position[] {
  const out = a.slice(0, -1);
  const [x0, y0, x1, y1] = ringBounds(a);
  for (let i = 0; i < GRID; i++) {
    for (let j = 0; j < GRID; j++) {
      const x = x0 + ((x1 - x0) * (i + 0.5)) / GRID;
      const y = y0 + ((y1 - y0) * (j + 0.5)) / GRID;
      if (pointInRing(x, y, a)) out.push([x, y]);
    }
  }
  return out;
}
