/**
 * GeoTIFF georeferencing tags → GDAL-order geotransform, as GDAL's GTiff driver reads them by
 * default: ModelPixelScale + one ModelTiepoint, else ModelTransformation; PixelIsPoint rasters
 * are shifted by half a pixel so that the transform addresses pixel corners
 * (GTIFF_POINT_GEO_IGNORE=FALSE). Several tiepoints without a scale are GCPs: the geotransform is
 * their least-squares affine fit, as rio-tiler reads GCP rasters (see gcp-fit.ts).
 */
import { Errors } from '../../errors.ts';
import type { GeoTransform } from '../../geo/affine.ts';
import { gcpsFromTiepoints, geoTransformFromGcps } from './gcp-fit.ts';

export interface GeoTags {
  pixelScale: number[] | null;
  tiepoints: number[] | null;
  transformation: number[] | null;
  pixelIsPoint: boolean;
}

/**
 * The geotransform, or null without georeferencing tags. Tags that give a transform which is not
 * finite, not invertible, or (with `size`) puts the raster's corners at infinity are a broken
 * file: InvalidFormat naming the tag, so that no read later fails on it.
 */
export function geoTransformFromTags(tags: GeoTags, size?: { width: number; height: number }): GeoTransform | null {
  const { pixelScale: scale, tiepoints: tie, transformation: m } = tags;
  let gt: GeoTransform | null = null;
  let from = '';
  if (scale !== null && scale.length >= 2 && scale[0] !== 0 && scale[1] !== 0) {
    if (tie !== null && tie.length >= 6) {
      const a1 = scale[0];
      const a5 = -scale[1];
      gt = [tie[3] - tie[0] * a1, a1, 0, tie[4] - tie[1] * a5, 0, a5];
      from = `ModelPixelScale (${scale[0]}, ${scale[1]}) with ModelTiepoint (${tie.slice(0, 6).join(', ')})`;
    }
  } else if (m !== null && m.length === 16) {
    gt = [m[3], m[0], m[1], m[7], m[4], m[5]];
    from = `ModelTransformation (${m.slice(0, 8).join(', ')}, …)`;
  } else if (tie !== null && tie.length >= 12) {
    const fit = geoTransformFromGcps(gcpsFromTiepoints(tie, tags.pixelIsPoint));
    if (fit === null)
      throw Errors.invalidFormat(`GeoTIFF ModelTiepoint holds ${Math.floor(tie.length / 6)} ground control points that determine no geotransform`);
    const problem = transformProblem(fit, size);
    if (problem !== null) throw Errors.invalidFormat(`GeoTIFF ground control points give a geotransform that ${problem}`);
    return fit; // GCPs were moved to pixel corners already
  }
  if (gt === null) return null;
  const problem = transformProblem(gt, size);
  if (problem !== null) throw Errors.invalidFormat(`GeoTIFF ${from} gives a geotransform that ${problem}`);
  if (tags.pixelIsPoint) {
    gt[0] -= gt[1] * 0.5 + gt[2] * 0.5;
    gt[3] -= gt[4] * 0.5 + gt[5] * 0.5;
  }
  return gt;
}

function transformProblem(gt: GeoTransform, size: { width: number; height: number } | undefined): string | null {
  if (!gt.every(Number.isFinite)) return 'is not finite';
  const det = gt[1] * gt[5] - gt[2] * gt[4];
  if (det === 0 || !Number.isFinite(det)) return 'is not invertible';
  const inverse = [gt[5] / det, gt[2] / det, gt[4] / det, gt[1] / det, (gt[2] * gt[3] - gt[0] * gt[5]) / det, (gt[0] * gt[4] - gt[1] * gt[3]) / det];
  if (!inverse.every(Number.isFinite)) return 'is not invertible';
  if (size !== undefined) {
    const x = gt[0] + size.width * gt[1] + size.height * gt[2];
    const y = gt[3] + size.width * gt[4] + size.height * gt[5];
    if (!Number.isFinite(x) || !Number.isFinite(y)) return `places the ${size.width}×${size.height} raster's corners at infinity`;
  }
  return null;
}
