/**
 * GeoTIFF georeferencing tags → GDAL-order geotransform, as GDAL's GTiff driver reads them by
 * default: ModelPixelScale + one ModelTiepoint, else ModelTransformation; PixelIsPoint rasters
 * are shifted by half a pixel so that the transform addresses pixel corners
 * (GTIFF_POINT_GEO_IGNORE=FALSE). Several tiepoints without a scale are GCPs: not supported here
 * (null).
 */
import type { GeoTransform } from '../../geo/affine.ts';

export interface GeoTags {
  pixelScale: number[] | null;
  tiepoints: number[] | null;
  transformation: number[] | null;
  pixelIsPoint: boolean;
}

export function geoTransformFromTags(tags: GeoTags): GeoTransform | null {
  const { pixelScale: scale, tiepoints: tie, transformation: m } = tags;
  let gt: GeoTransform | null = null;
  if (scale !== null && scale.length >= 2 && scale[0] !== 0 && scale[1] !== 0) {
    if (tie !== null && tie.length >= 6) {
      const a1 = scale[0];
      const a5 = -scale[1];
      gt = [tie[3] - tie[0] * a1, a1, 0, tie[4] - tie[1] * a5, 0, a5];
    }
  } else if (m !== null && m.length === 16) {
    gt = [m[3], m[0], m[1], m[7], m[4], m[5]];
  }
  if (gt === null || !gt.every(Number.isFinite)) return null;
  if (tags.pixelIsPoint) {
    gt[0] -= gt[1] * 0.5 + gt[2] * 0.5;
    gt[3] -= gt[4] * 0.5 + gt[5] * 0.5;
  }
  return gt;
}
