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

/** Destination pixel centre k of a row starting at column c0 (a function, not a closure per row). */
const px = (c0: number, k: number): number => c0 + k + 0.5;

/** Scratch for the 2–3 point exact transforms (copied to locals right away). */
const SX = new Float64Array(3);
const SY = new Float64Array(3);

/**
 * The row is the `n` destination pixel centres x = c0 + k + 0.5 (k = 0…n−1) at `y`; `at` lists
 * the k wanted (increasing, repeats allowed). Writes the source coordinates of point at[i] to
 * outX[i], outY[i], exactly the values the whole-row scheme above gives there: segments are split
 * at the same points and transformed the same way, but subtrees holding no wanted point are
 * skipped and only wanted points are interpolated. A tile samples a few hundred of the warped
 * VRT's 512-pixel block row, so this does a fraction of the work. With `outAt`, point at[i] goes to
 * outX[outAt + i] (a block's row inside its coordinate scratch, without a view object per row).
 */
export function approxRowAt(
  exact: PixelTransform,
  c0: number,
  y: number,
  n: number,
  maxError: number,
  at: Int32Array,
  outX: Float64Array,
  outY: Float64Array,
  outAt = 0,
): void {
  const m = at.length;
  if (m === 0) return;
  if (n <= SMALL || maxError <= 0) {
    exactAt(exact, c0, y, at, 0, m, outX, outY, outAt);
    return;
  }
  const mid = (n - 1) >> 1;
  const sx = SX;
  const sy = SY;
  sx[0] = px(c0, 0);
  sx[1] = px(c0, mid);
  sx[2] = px(c0, n - 1);
  sy[0] = sy[1] = sy[2] = y;
  exact(sx, sy);
  const x0 = sx[0],
    y0 = sy[0],
    xm = sx[1],
    ym = sy[1],
    x1 = sx[2],
    y1 = sy[2];
  if (!(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(xm) && Number.isFinite(ym) && Number.isFinite(x1) && Number.isFinite(y1))) {
    exactAt(exact, c0, y, at, 0, m, outX, outY, outAt);
    return;
  }
  segmentAt(exact, c0, y, 0, n, x0, y0, xm, ym, x1, y1, maxError, at, 0, m, outX, outY, outAt);
}

/** Views of SX/SY of 1–3 points (one view object per length, made once). */
const SXV = [SX.subarray(0, 0), SX.subarray(0, 1), SX.subarray(0, 2), SX];
const SYV = [SY.subarray(0, 0), SY.subarray(0, 1), SY.subarray(0, 2), SY];

let exactScratchX = new Float64Array(64);
let exactScratchY = new Float64Array(64);
/** Views of the exact scratch by length, made once each (a tile asks for the same few lengths over and over). */
let exactViewsX: Float64Array[] = [];
let exactViewsY: Float64Array[] = [];

/** Exact transforms of the wanted points at[lo…hi). */
function exactAt(
  exact: PixelTransform,
  c0: number,
  y: number,
  at: Int32Array,
  lo: number,
  hi: number,
  outX: Float64Array,
  outY: Float64Array,
  outAt: number,
): void {
  const m = hi - lo;
  if (m <= 0) return;
  if (exactScratchX.length < m) {
    exactScratchX = new Float64Array(m);
    exactScratchY = new Float64Array(m);
    exactViewsX = [];
    exactViewsY = [];
  }
  const xs = (exactViewsX[m] ??= exactScratchX.subarray(0, m));
  const ys = (exactViewsY[m] ??= exactScratchY.subarray(0, m));
  for (let i = 0; i < m; i++) {
    xs[i] = px(c0, at[lo + i]);
    ys[i] = y;
  }
  exact(xs, ys);
  outX.set(xs, outAt + lo);
  outY.set(ys, outAt + lo);
}

/** One segment [start, start+count) with its first (a), middle (m) and last (b) points transformed; at[lo…hi) are the wanted points in it. */
function segmentAt(
  exact: PixelTransform,
  c0: number,
  y: number,
  start: number,
  count: number,
  ax: number,
  ay: number,
  mx: number,
  my: number,
  bx: number,
  by: number,
  maxError: number,
  at: Int32Array,
  lo: number,
  hi: number,
  outX: Float64Array,
  outY: Float64Array,
  outAt: number,
): void {
  if (lo >= hi) return;
  const half = (count - 1) >> 1;
  const mid = start + half;
  const last = start + count - 1;
  const x0 = px(c0, start);
  const span = px(c0, last) - x0;
  const dX = (bx - ax) / span;
  const dY = (by - ay) / span;
  const t = px(c0, mid) - x0;
  const error = Math.abs(ax + dX * t - mx) + Math.abs(ay + dY * t - my);
  if (!(error > maxError)) {
    for (let i = lo; i < hi; i++) {
      const d = px(c0, at[i]) - x0;
      outX[outAt + i] = ax + dX * d;
      outY[outAt + i] = ay + dY * d;
    }
    return;
  }
  let split = lo; // first wanted point of the right part [mid, last]
  while (split < hi && at[split] < mid) split++;
  const leftCount = half;
  const rightCount = count - half;
  const leftMid = start + ((leftCount - 1) >> 1);
  const rightMid = mid + ((rightCount - 1) >> 1);
  const exactLeft = leftCount <= SMALL;
  const exactRight = rightCount <= SMALL;
  let lmx = NaN,
    lmy = NaN,
    lbx = NaN,
    lby = NaN,
    rmx = NaN,
    rmy = NaN;
  if (!exactLeft || !exactRight) {
    // the split points, wanted or not: a failure of any of them makes both parts exact
    let k = 0;
    if (!exactLeft) {
      SX[0] = px(c0, leftMid);
      SX[1] = px(c0, mid - 1);
      SY[0] = SY[1] = y;
      k = 2;
    }
    if (!exactRight) {
      SX[k] = px(c0, rightMid);
      SY[k] = y;
      k++;
    }
    exact(SXV[k], SYV[k]);
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
      exactAt(exact, c0, y, at, lo, hi, outX, outY, outAt);
      return;
    }
  }
  if (exactLeft) exactAt(exact, c0, y, at, lo, split, outX, outY, outAt);
  else segmentAt(exact, c0, y, start, leftCount, ax, ay, lmx, lmy, lbx, lby, maxError, at, lo, split, outX, outY, outAt);
  if (exactRight) exactAt(exact, c0, y, at, split, hi, outX, outY, outAt);
  else segmentAt(exact, c0, y, mid, rightCount, mx, my, rmx, rmy, bx, by, maxError, at, split, hi, outX, outY, outAt);
}
