/**
 * Bounds reprojection with GDAL's `OCTTransformBounds` semantics (what rasterio 1.3's
 * `transform_bounds` runs on GDAL 3.6): each edge densified with `densifyPoints` extra points, the
 * ring transformed, failed points ignored, geographic output handled across the antimeridian
 * (then minX > maxX) and over the poles (a pole inside the source box widens the result to
 * ±180 longitude and ±90 latitude).
 */
import type { Bounds } from './bounds.ts';
import type { Crs } from './crs-type.ts';
import { getTransformer, transformPoint } from './transformer.ts';

const NAN_BOUNDS = (): Bounds => [NaN, NaN, NaN, NaN];

/** Minimum over the finite values; +Infinity when there is none (GDAL's HUGE_VAL). */
function finiteMin(a: Float64Array): number {
  let m = Infinity;
  for (let i = 0; i < a.length; i++) if (a[i]! < m) m = a[i]!;
  return m;
}

/** Maximum over the finite values; +Infinity when there is none (GDAL's HUGE_VAL). */
function finiteMax(a: Float64Array): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m === -Infinity ? Infinity : m;
}

/** Index of the nearest earlier valid value in the ring (wrapping around). */
function previousValid(i: number, a: Float64Array): number {
  const n = a.length;
  let p = i - 1 < 0 ? n - 1 : i - 1;
  while (Number.isNaN(a[p]!) && p !== i) p = p - 1 < 0 ? n - 1 : p - 1;
  return p;
}

/**
 * Minimum longitude of a densified ring that may cross the antimeridian: a jump of ≥ 200° between
 * neighbours marks a crossing; with two crossings the minimum is taken on the positive side.
 */
function antimeridianMin(a: Float64Array): number {
  let positiveMin = Infinity;
  let min = Infinity;
  let crossings = 0;
  let positiveSide = false;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (Number.isNaN(v)) continue;
    const delta = a[previousValid(i, a)]! - v;
    if (delta >= 200) {
      if (crossings === 0) positiveMin = min;
      crossings++;
      positiveSide = false;
    } else if (delta <= -200) {
      if (crossings === 0) positiveMin = v;
      crossings++;
      positiveSide = true;
    }
    if (positiveSide && v < positiveMin) positiveMin = v;
    if (v < min) min = v;
  }
  if (crossings === 2) return positiveMin;
  if (crossings === 4) return -180;
  return min;
}

function antimeridianMax(a: Float64Array): number {
  let negativeMax = -Infinity;
  let max = -Infinity;
  let crossings = 0;
  let negativeSide = false;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (Number.isNaN(v)) continue;
    const delta = a[previousValid(i, a)]! - v;
    if (delta >= 200) {
      if (crossings === 0) negativeMax = v;
      crossings++;
      negativeSide = true;
    } else if (delta <= -200) {
      if (crossings === 0) negativeMax = max;
      negativeSide = false;
      crossings++;
    }
    if (negativeSide && v > negativeMax) negativeMax = v;
    if (v > max) max = v;
  }
  const r = crossings === 2 ? negativeMax : crossings === 4 ? 180 : max;
  return r === -Infinity ? Infinity : r;
}

function containsPole(src: Crs, dst: Crs, bounds: Bounds, poleLat: number): boolean {
  const [px, py] = transformPoint(dst, src, 0, poleLat);
  return bounds[0] < px && px < bounds[2] && bounds[3] > py && py > bounds[1];
}

/**
 * Transform `bounds` from `src` to `dst`. Returns `[NaN×4]` when GDAL would fail (geographic source
 * with maxY < minY); results may be non-finite when every point fails: callers decide.
 */
export function transformBounds(src: Crs, dst: Crs, bounds: Bounds, densifyPoints = 21): Bounds {
  const t = getTransformer(src, dst);
  if (t.isIdentity) return [bounds[0], bounds[1], bounds[2], bounds[3]];
  if (densifyPoints < 0 || densifyPoints > 10000) throw new RangeError('densifyPoints must be between 0 and 10000');
  const degreeInput = src.isGeographic;
  const degreeOutput = dst.isGeographic;
  if (degreeOutput && densifyPoints < 2) throw new RangeError('densifyPoints must be at least 2 for geographic output');
  const [xmin, ymin, xmax, ymax] = bounds;

  const northPole = degreeOutput && containsPole(src, dst, bounds, 90);
  const southPole = degreeOutput && containsPole(src, dst, bounds, -90);

  const side = densifyPoints + 1;
  const dx = degreeInput && xmax < xmin ? (xmax - xmin + 360) / side : (xmax - xmin) / side;
  if (degreeInput && ymax < ymin) return NAN_BOUNDS(); // GDAL: "latitude max < latitude min"
  const dy = (ymax - ymin) / side;

  // Must stay a linear ring (left edge top→bottom, bottom edge, right edge, top edge) for the
  // antimeridian logic.
  const n = side * 4;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < side; i++) {
    ys[i] = ymax - i * dy;
    xs[i] = xmin;
    ys[i + side] = ymin;
    xs[i + side] = xmin + i * dx;
    ys[i + side * 2] = ymin + i * dy;
    xs[i + side * 2] = xmax;
    ys[i + side * 3] = ymax;
    xs[i + side * 3] = xmax - i * dx;
  }
  t.forward(xs, ys);

  if (!degreeOutput) return [finiteMin(xs), finiteMin(ys), finiteMax(xs), finiteMax(ys)];
  if (northPole) return [-180, finiteMin(ys), 180, 90];
  if (southPole) return [-180, -90, 180, finiteMax(ys)];
  return [antimeridianMin(xs), finiteMin(ys), antimeridianMax(xs), finiteMax(ys)];
}
