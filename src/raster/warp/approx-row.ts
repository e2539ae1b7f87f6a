/**
 * GDAL's approximate transformer (GDALApproxTransform) for one row of destination pixels:
 * transform the first, middle and last point exactly; if the middle point is within
 * `maxError` (source pixels, Manhattan) of the straight line between the ends, interpolate
 * every point linearly, else split the row in two and recurse. Any failed exact point
 * (NaN) makes the whole row fall back to exact transforms.
 */
export type PixelTransform = (xs: Float64Array, ys: Float64Array) => void;

const SMALL = 5;

export function approxRow(
  exact: PixelTransform,
  xs: Float64Array, // destination pixel x coordinates, increasing; overwritten with source x
  ys: Float64Array, // destination pixel y (constant along the row); overwritten with source y
  maxError: number,
): void {
  const n = xs.length;
  if (n <= SMALL || maxError <= 0) {
    exact(xs, ys);
    return;
  }
  const copyX = xs.slice();
  const copyY = ys.slice();
  const mid = (n - 1) >> 1;
  const sx = Float64Array.of(xs[0], xs[mid], xs[n - 1]);
  const sy = Float64Array.of(ys[0], ys[mid], ys[n - 1]);
  exact(sx, sy);
  if (!(Number.isFinite(sx[0]) && Number.isFinite(sx[1]) && Number.isFinite(sx[2]) && Number.isFinite(sy[0]) && Number.isFinite(sy[1]) && Number.isFinite(sy[2]))) {
    exact(xs, ys);
    return;
  }
  if (!segment(exact, copyX, copyY, 0, n, sx, sy, maxError, xs, ys)) {
    xs.set(copyX);
    ys.set(copyY);
    exact(xs, ys);
  }
}

/** Fills out[start, start+count) from the exact first/middle/last transforms; false on failure. */
function segment(
  exact: PixelTransform,
  dstX: Float64Array,
  dstY: Float64Array,
  start: number,
  count: number,
  sx: Float64Array,
  sy: Float64Array,
  maxError: number,
  outX: Float64Array,
  outY: Float64Array,
): boolean {
  const last = start + count - 1;
  const mid = start + ((count - 1) >> 1);
  const span = dstX[last] - dstX[start];
  const dX = (sx[2] - sx[0]) / span;
  const dY = (sy[2] - sy[0]) / span;
  const t = dstX[mid] - dstX[start];
  const error = Math.abs(sx[0] + dX * t - sx[1]) + Math.abs(sy[0] + dY * t - sy[1]);
  if (error > maxError) {
    const n1 = mid - start + 1;
    const n2 = last - mid + 1;
    if (n1 <= SMALL || n2 <= SMALL) {
      const xsSub = dstX.slice(start, last + 1);
      const ysSub = dstY.slice(start, last + 1);
      exact(xsSub, ysSub);
      for (let i = 0; i < xsSub.length; i++) if (!Number.isFinite(xsSub[i]) || !Number.isFinite(ysSub[i])) return false;
      outX.set(xsSub, start);
      outY.set(ysSub, start);
      return true;
    }
    const m1 = start + ((n1 - 1) >> 1);
    const m2 = mid + ((n2 - 1) >> 1);
    const qx = Float64Array.of(dstX[m1], dstX[m2]);
    const qy = Float64Array.of(dstY[m1], dstY[m2]);
    exact(qx, qy);
    if (!Number.isFinite(qx[0]) || !Number.isFinite(qx[1]) || !Number.isFinite(qy[0]) || !Number.isFinite(qy[1])) return false;
    return (
      segment(exact, dstX, dstY, start, n1, Float64Array.of(sx[0], qx[0], sx[1]), Float64Array.of(sy[0], qy[0], sy[1]), maxError, outX, outY) &&
      segment(exact, dstX, dstY, mid, n2, Float64Array.of(sx[1], qx[1], sx[2]), Float64Array.of(sy[1], qy[1], sy[2]), maxError, outX, outY)
    );
  }
  for (let i = start; i <= last; i++) {
    const d = dstX[i] - dstX[start];
    outX[i] = sx[0] + dX * d;
    outY[i] = sy[0] + dY * d;
  }
  return true;
}
