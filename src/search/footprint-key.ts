/** Equal footprints (titiler-cmr `skipcovered`): a canonical key per footprint. */
import type { Geometry, Position } from '../geo/geometry.ts';

/**
 * True when both footprints are the same polygons (rings compared as cyclic vertex sequences in
 * either direction, ignoring the closing point and the order of the polygons). titiler-cmr uses
 * shapely's topological `equals`; repeat passes carry identical vertex lists, which this matches.
 * No footprint is never equal to anything.
 */
export function sameFootprint(a: Geometry | null, b: Geometry | null): boolean {
  if (a === null || b === null) return false;
  return footprintKey(a) === footprintKey(b);
}

/**
 * A canonical text of a footprint: two footprints have the same key exactly when `sameFootprint`
 * holds, so a search keeps one Set of keys instead of comparing every granule with every kept
 * one. Linear in the number of vertices (plus the sort of a MultiPolygon's polygons).
 */
export function footprintKey(g: Geometry): string {
  switch (g.type) {
    case 'Polygon':
      return polygonKey(g.coordinates);
    case 'MultiPolygon':
      return g.coordinates.map(polygonKey).sort().join('|');
    default:
      return JSON.stringify(g);
  }
}

const polygonKey = (rings: Position[][]): string => rings.map(ringKey).join('/');

/** The smaller of the two directions' canonical rotations, vertices written `x,y` joined by ';'. */
function ringKey(ring: Position[]): string {
  const closed = ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1];
  const texts = (closed ? ring.slice(0, -1) : ring).map((p) => `${p[0]},${p[1]}`);
  const forward = rotate(texts, leastRotation(texts)).join(';');
  texts.reverse();
  const backward = rotate(texts, leastRotation(texts)).join(';');
  return backward < forward ? backward : forward;
}

const rotate = (texts: string[], start: number): string[] => [...texts.slice(start), ...texts.slice(0, start)];

/**
 * Start of the least rotation of a cyclic sequence, elements compared as strings (the two-pointer
 * minimum-rotation scan: O(n) comparisons). Any fixed choice among the rotations would do for
 * equality; the least one does not depend on the starting vertex.
 */
function leastRotation(s: readonly string[]): number {
  const n = s.length;
  let i = 0;
  let j = 1;
  let k = 0;
  while (i < n && j < n && k < n) {
    const a = s[(i + k) % n]!;
    const b = s[(j + k) % n]!;
    if (a === b) {
      k++;
      continue;
    }
    if (a > b) i += k + 1;
    else j += k + 1;
    if (i === j) j++;
    k = 0;
  }
  return Math.min(i, j) % Math.max(1, n);
}
