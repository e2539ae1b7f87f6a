/**
 * Ground control points (several ModelTiepoints without a ModelPixelScale) → the affine
 * geotransform that fits them best in the least-squares sense: what rasterio's
 * `transform.from_gcps` (GDALGCPsToGeoTransform) gives, and so the georeferencing rio-tiler
 * reads GCP rasters with (a WarpedVRT with `src_transform=from_gcps(gcps)`).
 * Hand-written: a 3×3 normal-equation solve needs no library.
 */
import type { GeoTransform } from '../../geo/affine.ts';

export interface Gcp {
  /** Pixel / line (pixel-corner convention). */
  pixel: number;
  line: number;
  x: number;
  y: number;
  z: number;
}

/** ModelTiepoint values (I, J, K, X, Y, Z per point) → GCPs; `pixelIsPoint` moves them to pixel corners like GDAL. */
export function gcpsFromTiepoints(tie: readonly number[], pixelIsPoint: boolean): Gcp[] {
  const out: Gcp[] = [];
  const shift = pixelIsPoint ? 0.5 : 0;
  for (let i = 0; i + 5 < tie.length; i += 6) {
    out.push({ pixel: tie[i] + shift, line: tie[i + 1] + shift, x: tie[i + 3], y: tie[i + 4], z: tie[i + 5] });
  }
  return out;
}

/** The least-squares affine fit of the GCPs, or null when they do not determine one. */
export function geoTransformFromGcps(gcps: readonly Gcp[]): GeoTransform | null {
  const n = gcps.length;
  if (n < 2) return null;
  if (n === 2) {
    // GDAL: two points give a north-up transform (no rotation)
    const [a, b] = gcps;
    const dp = b.pixel - a.pixel;
    const dl = b.line - a.line;
    if (dp === 0 || dl === 0) return null;
    const sx = (b.x - a.x) / dp;
    const sy = (b.y - a.y) / dl;
    return [a.x - a.pixel * sx, sx, 0, a.y - a.line * sy, 0, sy];
  }
  // centre the coordinates for a well-conditioned solve
  let mp = 0;
  let ml = 0;
  let mx = 0;
  let my = 0;
  for (const g of gcps) {
    mp += g.pixel / n;
    ml += g.line / n;
    mx += g.x / n;
    my += g.y / n;
  }
  let spp = 0;
  let spl = 0;
  let sll = 0;
  let spx = 0;
  let slx = 0;
  let spy = 0;
  let sly = 0;
  for (const g of gcps) {
    const p = g.pixel - mp;
    const l = g.line - ml;
    const x = g.x - mx;
    const y = g.y - my;
    spp += p * p;
    spl += p * l;
    sll += l * l;
    spx += p * x;
    slx += l * x;
    spy += p * y;
    sly += l * y;
  }
  const det = spp * sll - spl * spl;
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) return null;
  const a1 = (spx * sll - slx * spl) / det;
  const a2 = (slx * spp - spx * spl) / det;
  const b1 = (spy * sll - sly * spl) / det;
  const b2 = (sly * spp - spy * spl) / det;
  const gt: GeoTransform = [mx - a1 * mp - a2 * ml, a1, a2, my - b1 * mp - b2 * ml, b1, b2];
  return gt.every(Number.isFinite) ? gt : null;
}
