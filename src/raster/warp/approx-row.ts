/**
 * GDAL's approximate transformer (GDALApproxTransform) for one row of destination pixels.
 *
 * Transform the first, middle (index (n−1)/2) and last points exactly; if the middle point lies
 * within `maxError` (source pixels, Manhattan) of the straight line between the ends, every
 * point is interpolated linearly from the first one. Otherwise the row is split into a left
 * part [0, mid) and a right part [mid, n) — the middle point starts the right part — whose own
 * middle points (and the left part's last point) are transformed exactly, and each part is
 * handled the same way; a part of 5 points or fewer is transformed exactly. A failed exact
 * transform of the three first points makes the whole row exact.
 *
 * The split matters: interpolating over [0, mid] instead of [0, mid) moves coordinates by
 * ~1e-4 px, enough to flip floor() for pixel centres that land next to a source pixel edge.
 */
export type PixelTransform = (xs: Float64Array, ys: Float64Array) => void;

const SMALL = 5;

/** Scratch for the 2–3 point exact transforms (copied to locals right away). */
const SX = new Float64Array(3);
const SY = new Float64Array(3);

export function approxRow(
  exact: PixelTransform,
  xs: Float64Array, // destination pixel x coordinates, increasing; overwritten with source x
  ys: Float64Array, // destination pixel y (constant along the row); overwritten with source y
  maxError: number,
): void {
  const n = xs.length;
  if (n <= SMALL || maxError <= 0 || ys[0] !== ys[n - 1] || xs[0] === xs[n - 1]) {
    exact(xs, ys);
    return;
  }
  const mid = (n - 1) >> 1;
  const sx = SX.subarray(0, 3);
  const sy = SY.subarray(0, 3);
  sx[0] = xs[0];
  sx[1] = xs[mid];
  sx[2] = xs[n - 1];
  sy[0] = ys[0];
  sy[1] = ys[mid];
  sy[2] = ys[n - 1];
  exact(sx, sy);
  const x0 = sx[0], y0 = sy[0], xm = sx[1], ym = sy[1], x1 = sx[2], y1 = sy[2];
  if (!(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(xm) && Number.isFinite(ym) && Number.isFinite(x1) && Number.isFinite(y1))) {
    exact(xs, ys);
    return;
  }
  segment(exact, xs, ys, 0, n, x0, y0, xm, ym, x1, y1, maxError);
}

/** Exact transform of xs/ys[from, to) in place. */
function exactRange(exact: PixelTransform, xs: Float64Array, ys: Float64Array, from: number, to: number): void {
  if (to > from) exact(xs.subarray(from, to), ys.subarray(from, to));
}

/**
 * Points [start, start+count) with the exact transforms of the first (a), middle (m) and last
 * (b) points known.
 */
function segment(
  exact: PixelTransform,
  xs: Float64Array,
  ys: Float64Array,
  start: number,
  count: number,
  ax: number,
  ay: number,
  mx: number,
  my: number,
  bx: number,
  by: number,
  maxError: number,
): void {
  const half = (count - 1) >> 1;
  const mid = start + half;
  const last = start + count - 1;
  const x0 = xs[start];
  const span = xs[last] - x0;
  const dX = (bx - ax) / span;
  const dY = (by - ay) / span;
  const t = xs[mid] - x0;
  const error = Math.abs(ax + dX * t - mx) + Math.abs(ay + dY * t - my);
  if (!(error > maxError)) {
    for (let i = last; i >= start; i--) {
      const d = xs[i] - x0;
      xs[i] = ax + dX * d;
      ys[i] = ay + dY * d;
    }
    return;
  }
  const leftCount = half; // [start, mid)
  const rightCount = count - half; // [mid, last]
  const leftMid = start + ((leftCount - 1) >> 1);
  const rightMid = mid + ((rightCount - 1) >> 1);
  const exactLeft = leftCount <= SMALL;
  const exactRight = rightCount <= SMALL;
  let lmx = NaN, lmy = NaN, lbx = NaN, lby = NaN, rmx = NaN, rmy = NaN;
  if (!exactLeft || !exactRight) {
    let k = 0;
    if (!exactLeft) {
      SX[0] = xs[leftMid];
      SY[0] = ys[leftMid];
      SX[1] = xs[mid - 1];
      SY[1] = ys[mid - 1];
      k = 2;
    }
    if (!exactRight) {
      SX[k] = xs[rightMid];
      SY[k] = ys[rightMid];
      k++;
    }
    exact(SX.subarray(0, k), SY.subarray(0, k));
    let j = 0;
    if (!exactLeft) {
      lmx = SX[0];
      lmy = SY[0];
      lbx = SX[1];
      lby = SY[1];
      j = 2;
    }
    if (!exactRight) {
      rmx = SX[j];
      rmy = SY[j];
    }
    let ok = true;
    for (let i = 0; i < k; i++) if (!Number.isFinite(SX[i]) || !Number.isFinite(SY[i])) ok = false;
    if (!ok) {
      // GDAL: the interiors fall back to exact transforms, the known points are kept.
      exactRange(exact, xs, ys, start + 1, mid);
      exactRange(exact, xs, ys, mid + 1, last);
      xs[start] = ax;
      ys[start] = ay;
      xs[mid] = mx;
      ys[mid] = my;
      xs[last] = bx;
      ys[last] = by;
      return;
    }
  }
  if (exactLeft) {
    exactRange(exact, xs, ys, start + 1, mid);
    xs[start] = ax;
    ys[start] = ay;
  } else {
    segment(exact, xs, ys, start, leftCount, ax, ay, lmx, lmy, lbx, lby, maxError);
  }
  if (exactRight) {
    exactRange(exact, xs, ys, mid + 1, last);
    xs[mid] = mx;
    ys[mid] = my;
    xs[last] = bx;
    ys[last] = by;
  } else {
    segment(exact, xs, ys, mid, rightCount, mx, my, rmx, rmy, bx, by, maxError);
  }
}
