/**
 * GeoJSON geometries: types, bounds, reprojection and conversion to pixel space for
 * rasterisation. Coordinates are always x/y (lon/lat) order, as GeoJSON says.
 */
import type { GeoTransform } from './affine.ts';
import { invertGeoTransform } from './affine.ts';
import type { Bounds } from './bounds.ts';
import type { Crs } from './crs-type.ts';
import { getTransformer, type Transformer } from './transform.ts';

export type Position = number[];
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: Geometry[] };

export const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'] as const;

/** Calls `fn` with every position of the geometry. */
export function forEachPosition(g: Geometry, fn: (p: Position) => void): void {
  switch (g.type) {
    case 'Point':
      fn(g.coordinates);
      break;
    case 'MultiPoint':
    case 'LineString':
      g.coordinates.forEach(fn);
      break;
    case 'MultiLineString':
    case 'Polygon':
      g.coordinates.forEach((r) => r.forEach(fn));
      break;
    case 'MultiPolygon':
      g.coordinates.forEach((p) => p.forEach((r) => r.forEach(fn)));
      break;
    case 'GeometryCollection':
      g.geometries.forEach((c) => forEachPosition(c, fn));
      break;
  }
}

export function geometryBounds(g: Geometry): Bounds {
  const b: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  forEachPosition(g, (p) => {
    if (p[0] < b[0]) b[0] = p[0];
    if (p[1] < b[1]) b[1] = p[1];
    if (p[0] > b[2]) b[2] = p[0];
    if (p[1] > b[3]) b[3] = p[1];
  });
  return b;
}

/** Returns a copy of the geometry with every position mapped by `fn`. */
export function mapPositions(g: Geometry, fn: (p: Position) => Position): Geometry {
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: fn(g.coordinates) };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: g.coordinates.map(fn) };
    case 'LineString':
      return { type: 'LineString', coordinates: g.coordinates.map(fn) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: g.coordinates.map((l) => l.map(fn)) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: g.coordinates.map((r) => r.map(fn)) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((r) => r.map(fn))) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: g.geometries.map((c) => mapPositions(c, fn)) };
  }
}

export function transformGeometry(g: Geometry, src: Crs, dst: Crs): Geometry {
  const t: Transformer = getTransformer(src, dst);
  const xs = new Float64Array(1);
  const ys = new Float64Array(1);
  return mapPositions(g, (p) => {
    xs[0] = p[0];
    ys[0] = p[1];
    t.forward(xs, ys);
    return [xs[0], ys[0]];
  });
}

/** Geometry in pixel coordinates (col, row as floats) of a raster with geotransform `gt`. */
export function toPixelSpace(g: Geometry, gt: GeoTransform): Geometry {
  const inv = invertGeoTransform(gt);
  return mapPositions(g, (p) => [inv[0] + p[0] * inv[1] + p[1] * inv[2], inv[3] + p[0] * inv[4] + p[1] * inv[5]]);
}
