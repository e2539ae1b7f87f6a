/** GeoJSON geometry already in pixel coordinates → the flat structure the rasteriser takes. */
import type { Geometry, Position } from '../geo/geometry.ts';
import type { PixelGeometry } from './rasterize.ts';

const flat = (ps: Position[]): Float64Array => {
  const a = new Float64Array(ps.length * 2);
  ps.forEach((p, i) => {
    a[2 * i] = p[0];
    a[2 * i + 1] = p[1];
  });
  return a;
};

export function toPixelGeometry(g: Geometry): PixelGeometry {
  const polygons: Float64Array[][] = [];
  const lines: Float64Array[] = [];
  const points: number[] = [];
  const visit = (x: Geometry): void => {
    switch (x.type) {
      case 'Point':
        points.push(x.coordinates[0], x.coordinates[1]);
        break;
      case 'MultiPoint':
        x.coordinates.forEach((p) => points.push(p[0], p[1]));
        break;
      case 'LineString':
        lines.push(flat(x.coordinates));
        break;
      case 'MultiLineString':
        x.coordinates.forEach((l) => lines.push(flat(l)));
        break;
      case 'Polygon':
        polygons.push(x.coordinates.map(flat));
        break;
      case 'MultiPolygon':
        x.coordinates.forEach((p) => polygons.push(p.map(flat)));
        break;
      case 'GeometryCollection':
        x.geometries.forEach(visit);
        break;
    }
  };
  visit(g);
  return { polygons, lines, points: Float64Array.from(points) };
}

/** A string naming a pixel geometry exactly (every coordinate's bits): a key for shared work. */
export function pixelGeometryKey(g: PixelGeometry): string {
  const b64 = (a: Float64Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
  return [g.polygons.map((rings) => rings.map(b64).join(',')).join(';'), g.lines.map(b64).join(','), b64(g.points)].join('|');
}
