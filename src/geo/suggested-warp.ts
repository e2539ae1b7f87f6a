/**
 * `suggestedWarpOutput`: the output grid GDAL suggests when warping a whole raster into another
 * CRS (GDALSuggestedWarpOutput2, as used by rasterio's `calculate_default_transform`). Follows the
 * GDAL 3.x algorithm: sample the raster edges (or a full grid when edge points fail or do not
 * round-trip), take the extent of the transformed points, derive a square pixel size that keeps
 * the source's diagonal pixel count, then nudge the pixel size so the right/bottom borders stay
 * inside the transformable area.
 */
import { Errors } from '../errors.ts';
import { invertGeoTransform, type GeoTransform } from './affine.ts';
import type { Crs } from './crs-type.ts';
import { celestialBodyMismatch, getTransformer, type Transformer } from './transformer.ts';

export interface SuggestedWarp {
  geoTransform: GeoTransform;
  width: number;
  height: number;
}

/** A non-affine source georeferencing (GDAL's GCP polynomial): pixel/line ↔ source CRS. */
export interface PixelMap {
  forward(pixel: number, line: number): [number, number];
  reverse(x: number, y: number): [number, number];
}

/** Source pixel/line ↔ destination georeferenced coordinates (GDAL's GenImgProj transformer without a destination raster). */
class PixelToDst {
  private readonly inv: GeoTransform;
  private readonly gt: GeoTransform;
  private readonly map: PixelMap | null;
  constructor(
    private readonly src: Crs,
    private readonly dst: Crs,
    georef: GeoTransform | PixelMap,
  ) {
    this.map = Array.isArray(georef) ? null : (georef as PixelMap);
    this.gt = Array.isArray(georef) ? (georef as GeoTransform) : [0, 1, 0, 0, 0, 1];
    this.inv = invertGeoTransform(this.gt);
  }

  /** Transformers of both directions, looked up once (`getTransformer` builds a key string per call). */
  private toDst: Transformer | null = null;
  private toSrc: Transformer | null = null;
  /** `one`'s point, reused: the native grid's bisections call it thousands of times. */
  private readonly x1 = new Float64Array(1);
  private readonly y1 = new Float64Array(1);
  /** The result of the last successful `one`. */
  x = 0;
  y = 0;

  /** In place; failed points become NaN. */
  private apply(dstToSrc: boolean, xs: Float64Array, ys: Float64Array): void {
    const n = xs.length;
    if (!dstToSrc) {
      const g = this.gt;
      for (let i = 0; i < n; i++) {
        const px = xs[i]!;
        const py = ys[i]!;
        if (this.map) [xs[i], ys[i]] = this.map.forward(px, py);
        else {
          xs[i] = g[0] + px * g[1] + py * g[2];
          ys[i] = g[3] + px * g[4] + py * g[5];
        }
      }
      (this.toDst ??= getTransformer(this.src, this.dst)).forward(xs, ys);
    } else {
      (this.toSrc ??= getTransformer(this.dst, this.src)).forward(xs, ys);
      const g = this.inv;
      for (let i = 0; i < n; i++) {
        const gx = xs[i]!;
        const gy = ys[i]!;
        if (this.map) [xs[i], ys[i]] = this.map.reverse(gx, gy);
        else {
          xs[i] = g[0] + gx * g[1] + gy * g[2];
          ys[i] = g[3] + gx * g[4] + gy * g[5];
        }
      }
    }
  }

  /** In place; returns per-point success (NaN results count as failures). */
  run(dstToSrc: boolean, xs: Float64Array, ys: Float64Array): Uint8Array {
    this.apply(dstToSrc, xs, ys);
    const n = xs.length;
    const ok = new Uint8Array(n);
    for (let i = 0; i < n; i++) ok[i] = Number.isFinite(xs[i]!) && Number.isFinite(ys[i]!) ? 1 : 0;
    return ok;
  }

  /** One point, without allocating: true and the result in `this.x`/`this.y`, or false when it fails. */
  one(dstToSrc: boolean, x: number, y: number): boolean {
    const xs = this.x1;
    const ys = this.y1;
    xs[0] = x;
    ys[0] = y;
    this.apply(dstToSrc, xs, ys);
    if (!Number.isFinite(xs[0]!) || !Number.isFinite(ys[0]!)) return false;
    this.x = xs[0]!;
    this.y = ys[0]!;
    return true;
  }
}

/** 21 ratios 0, 0.05, …, 1 exactly as GDAL's float loop produces them. */
function twentySteps(): number[] {
  const out: number[] = [];
  for (let r = 0.0; r <= 1.01; r += 0.05) out.push(r > 0.99 ? 1.0 : r);
  return out;
}

/** GDAL's border check: true when every sample of the border fails to round-trip within a pixel. */
function mustAdjustBorder(
  t: PixelToDst,
  right: boolean,
  extent: [number, number, number, number],
  nPixels: number,
  nLines: number,
  psX: number,
  psY: number,
): boolean {
  const ratios = twentySteps();
  const xs = new Float64Array(ratios.length);
  const ys = new Float64Array(ratios.length);
  // GDAL recomputes the expected values with the unclamped loop variable (its last ratio is ~1.0).
  const expected: Array<[number, number]> = [];
  let r = 0.0;
  for (let i = 0; i < ratios.length; i++, r += 0.05) {
    const rr = ratios[i]!;
    if (right) {
      xs[i] = extent[2];
      ys[i] = extent[3] - psY * rr * nLines;
      expected.push([extent[2], extent[3] - psY * r * nLines]);
    } else {
      xs[i] = extent[0] + psX * rr * nPixels;
      ys[i] = extent[1];
      expected.push([extent[0] + psX * r * nPixels, extent[1]]);
    }
  }
  t.run(true, xs, ys);
  t.run(false, xs, ys);
  let bad = 0;
  for (let i = 0; i < ratios.length; i++) {
    const [ex, ey] = expected[i]!;
    if (!(Math.abs(xs[i]! - ex) <= psX) || !(Math.abs(ys[i]! - ey) <= psY)) bad++;
  }
  return bad === ratios.length;
}

/**
 * rasterio `calculate_default_transform(src, dst, width, height, *bounds)` for a source raster of
 * `width`×`height` pixels with geotransform `srcGeoTransform`. Throws `InvalidCrs` when too few
 * points can be transformed (e.g. between different celestial bodies).
 */
export function suggestedWarpOutput(src: Crs, dst: Crs, width: number, height: number, srcGeoTransform: GeoTransform | PixelMap): SuggestedWarp {
  const t = new PixelToDst(src, dst, srcGeoTransform);
  const W = width;
  const H = height;
  let nSteps = Math.trunc(Math.min(W, H) / 50 + 0.5);
  if (nSteps < 20) nSteps = 20;
  nSteps = Math.min(nSteps, 100);
  const step = 1 / nSteps;
  const ratioOf = (i: number): number => (i === nSteps ? 1.0 : i * step);
  const perSide = nSteps + 1;

  // Edge samples: top, bottom, left, right.
  let nPoints = 4 * perSide;
  let xs = new Float64Array(nPoints);
  let ys = new Float64Array(nPoints);
  for (let i = 0; i <= nSteps; i++) {
    const r = ratioOf(i);
    xs[i] = r * W;
    ys[i] = 0;
    xs[perSide + i] = r * W;
    ys[perSide + i] = H;
    xs[2 * perSide + i] = 0;
    ys[2 * perSide + i] = r * H;
    xs[3 * perSide + i] = W;
    ys[3 * perSide + i] = r * H;
  }
  let ok = t.run(false, xs, ys);
  let failed = 0;
  for (let i = 0; i < nPoints; i++) if (!ok[i]) failed++;

  if (dst.isGeographic) fixSignDiscontinuity(t, xs, ys, ok);

  if (failed === 0) {
    // Check that the edge points round-trip; if not, fall back to grid sampling.
    const rx = xs.slice();
    const ry = ys.slice();
    ok = t.run(true, rx, ry);
    for (let i = 0; failed === 0 && i < nPoints; i++) {
      if (!ok[i]) {
        failed++;
        break;
      }
      let r = (i % perSide) * step;
      if (r > 0.99) r = 1.0;
      let ex = 0;
      let ey = 0;
      if (i < perSide) ex = r * W;
      else if (i < 2 * perSide) {
        ex = r * W;
        ey = H;
      } else if (i < 3 * perSide) ey = r * H;
      else {
        ex = W;
        ey = r * H;
      }
      if (Math.abs(rx[i]! - ex) > W / nSteps || Math.abs(ry[i]! - ey) > H / nSteps) failed++;
    }
  }

  const gridMode = failed > 0;
  if (gridMode) {
    nPoints = perSide * perSide;
    xs = new Float64Array(nPoints);
    ys = new Float64Array(nPoints);
    let k = 0;
    for (let i = 0; i <= nSteps; i++) {
      const r = ratioOf(i);
      for (let j = 0; j <= nSteps; j++) {
        xs[k] = ratioOf(j) * W;
        ys[k] = r * H;
        k++;
      }
    }
    ok = t.run(false, xs, ys);
  }

  // Extent of the transformed points, refined by bisection where x changes sign or fails.
  let minX = 0;
  let minY = 0;
  let maxX = 0;
  let maxY = 0;
  let got = false;
  const add = (x: number, y: number): void => {
    if (!got) {
      got = true;
      minX = maxX = x;
      minY = maxY = y;
    } else {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  };
  failed = 0;
  for (let i = 0; i < nPoints; i++) {
    let xi = 0;
    let yi = 0;
    if (gridMode) {
      xi = i % perSide;
      yi = Math.trunc(i / perSide);
    } else if (i < 2 * perSide) {
      xi = i % perSide;
      yi = i < perSide ? 0 : nSteps;
    }
    if (xi > 0 && (ok[i - 1] || ok[i])) {
      let outBefore = xs[i - 1]!;
      let outAfter = xs[i]!;
      let inBefore = ((xi - 1) * W) / nSteps;
      let inAfter = (xi * W) / nSteps;
      let validBefore = ok[i - 1] === 1;
      let validAfter = ok[i] === 1;
      let iter = 0;
      while ((!validBefore || !validAfter || outBefore * outAfter < 0) && iter < 16) {
        const mid = (inBefore + inAfter) / 2;
        if (!t.one(false, mid, (yi * H) / nSteps)) {
          if (!validBefore) inBefore = mid;
          else if (!validAfter) inAfter = mid;
          else break;
        } else {
          const px = t.x;
          add(px, t.y);
          if (!validBefore || outBefore * px < 0) {
            validAfter = true;
            inAfter = mid;
            outAfter = px;
          } else {
            validBefore = true;
            outBefore = px;
            inBefore = mid;
          }
        }
        iter++;
      }
    }
    if (!ok[i]) {
      failed++;
      continue;
    }
    add(xs[i]!, ys[i]!);
  }
  if (failed > nPoints - 10 || !got) {
    throw Errors.invalidCrs(celestialBodyMismatch(src, dst) ?? 'Too many points failed to transform: unable to compute output bounds');
  }

  // Geographic output of a raster that contains a pole: GDAL ≥ 3.5 widens the extent to the whole
  // longitude range and to the pole (measured against GDAL 3.6: the x pixel size then divides
  // 360° exactly).
  let worldLongitudes = false;
  if (dst.isGeographic) {
    for (const lat of [90, -90]) {
      if (t.one(true, 0, lat) && t.x >= 0 && t.x <= W && t.y >= 0 && t.y <= H) {
        worldLongitudes = true;
        minX = -180;
        maxX = 180;
        if (lat > 0) maxY = 90;
        else minY = -90;
      }
    }
  }

  let dX = 0;
  let dY = 0;
  if (ok[0] && ok[nPoints - 1]) {
    dX = xs[nPoints - 1]! - xs[0]!;
    dY = ys[nPoints - 1]! - ys[0]!;
  }
  if (dX === 0 || dY === 0) {
    dX = maxX - minX;
    dY = maxY - minY;
  }
  const diagonal = Math.sqrt(dX * dX + dY * dY);
  const pixelSize = diagonal / Math.sqrt(W * W + H * H);
  const pixels = (maxX - minX) / pixelSize;
  const lines = (maxY - minY) / pixelSize;
  if (!(pixels < 2147483646 && lines < 2147483646)) {
    throw Errors.invalidCrs('Computed warp output dimensions are too big');
  }
  const nPixels = Math.trunc(pixels + 0.5);
  const nLines = Math.trunc(lines + 0.5);
  let psX = worldLongitudes ? 360 / nPixels : pixelSize;
  let psY = pixelSize;
  const ratios = [0.0, 0.001, 0.01, 0.1, 1.0];
  for (const r of worldLongitudes ? [] : ratios) {
    const tryX = psX - (psX * r) / nPixels;
    const extent: [number, number, number, number] = [minX, maxY - nLines * psY, minX + nPixels * tryX, maxY];
    if (!mustAdjustBorder(t, true, extent, nPixels, nLines, tryX, psY)) {
      psX = tryX;
      break;
    }
  }
  for (const r of ratios) {
    const tryY = psY - (psY * r) / nLines;
    const extent: [number, number, number, number] = [minX, maxY - nLines * tryY, minX + nPixels * psX, maxY];
    if (!mustAdjustBorder(t, false, extent, nPixels, nLines, psX, tryY)) {
      psY = tryY;
      break;
    }
  }
  return { geoTransform: [minX, psX, 0, maxY, 0, -psY], width: nPixels, height: nLines };
}

/**
 * GDAL ticket #7243: points of a geographic output that land on -180 while the rest of the
 * ring is on the positive side (or 180 on the negative side) are moved to the other sign when
 * both longitudes map back to the same source point.
 */
function fixSignDiscontinuity(t: PixelToDst, xs: Float64Array, ys: Float64Array, ok: Uint8Array): void {
  const UNINIT = -2;
  const INVALID = 0;
  let sign = UNINIT;
  for (let i = 0; i < xs.length; i++) {
    if (!ok[i]) continue;
    const x = xs[i]!;
    if (sign === 1 || sign === -1) {
      if (!((sign * x > 0 && sign * x <= 180) || Math.abs(x - sign * -180) < 1e-8)) sign = INVALID;
    } else if (sign === UNINIT) {
      for (let s = -1; s <= 1; s += 2) {
        if ((s * x > 0 && s * x <= 180) || Math.abs(x - s * -180) < 1e-8) {
          sign = s;
          break;
        }
      }
      if (sign === UNINIT) sign = INVALID;
    }
  }
  if (sign !== 1 && sign !== -1) return;
  for (let i = 0; i < xs.length; i++) {
    if (!ok[i] || Math.abs(xs[i]! - sign * -180) >= 1e-8) continue;
    if (!t.one(true, sign * -180, ys[i]!)) continue;
    const ax = t.x;
    const ay = t.y;
    if (t.one(true, sign * 180, ys[i]!) && Math.abs(ax - t.x) < 1e-8 && Math.abs(ay - t.y) < 1e-8) xs[i] = sign * 180;
  }
}
