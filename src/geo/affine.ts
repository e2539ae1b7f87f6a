/**
 * GDAL-order geotransform: x = a0 + col*a1 + row*a2 ; y = a3 + col*a4 + row*a5.
 * (rasterio's Affine(a, b, c, d, e, f) is [c, a, b, f, d, e] here.)
 */
export type GeoTransform = [number, number, number, number, number, number];

import { Errors } from '../errors.ts';
import type { Bounds } from './bounds.ts';

export function invertGeoTransform(gt: GeoTransform): GeoTransform {
  const det = gt[1] * gt[5] - gt[2] * gt[4];
  if (det === 0 || !Number.isFinite(det)) throw Errors.badRequest('Geotransform is not invertible');
  const inv1 = gt[5] / det;
  const inv2 = -gt[2] / det;
  const inv4 = -gt[4] / det;
  const inv5 = gt[1] / det;
  return [(gt[2] * gt[3] - gt[0] * gt[5]) / det, inv1, inv2, (-gt[1] * gt[3] + gt[0] * gt[4]) / det, inv4, inv5];
}

/** Bounds of a width×height raster, normalised so minY < maxY even for south-up rasters. */
export function boundsFromGeoTransform(gt: GeoTransform, width: number, height: number): Bounds {
  const xs = [gt[0], gt[0] + width * gt[1], gt[0] + height * gt[2], gt[0] + width * gt[1] + height * gt[2]];
  const ys = [gt[3], gt[3] + width * gt[4], gt[3] + height * gt[5], gt[3] + width * gt[4] + height * gt[5]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** North-up geotransform for `bounds` rendered at width×height pixels. */
export function geoTransformFromBounds(bounds: Bounds, width: number, height: number): GeoTransform {
  return [bounds[0], (bounds[2] - bounds[0]) / width, 0, bounds[3], 0, -(bounds[3] - bounds[1]) / height];
}
