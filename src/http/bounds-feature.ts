/** The GeoJSON Feature of a dataset's bounds that the /info.geojson endpoints answer. */
import type { Bounds } from '../geo/bounds.ts';

type Footprint = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

/** Polygon of the bounds, or a MultiPolygon split at the antimeridian when west > east. */
function footprint(b: Bounds): Footprint {
  const box = (w: number, s: number, e: number, n: number): number[][] => [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  if (b[0] > b[2]) return { type: 'MultiPolygon', coordinates: [[box(-180, b[1], b[2], b[3])], [box(b[0], b[1], 180, b[3])]] };
  return { type: 'Polygon', coordinates: [box(b[0], b[1], b[2], b[3])] };
}

export interface BoundsFeature<P> {
  type: 'Feature';
  bbox: Bounds;
  geometry: Footprint;
  properties: P;
  /** Named CRS member (granule /info.geojson with an explicit `crs`). */
  crs?: { type: 'name'; properties: { name: string } };
}

export function boundsFeature<P>(b: Bounds, properties: P): BoundsFeature<P> {
  return { type: 'Feature', bbox: b, geometry: footprint(b), properties };
}
