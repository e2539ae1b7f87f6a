/**
 * approxRowAt must give, at the points it is asked for, bit for bit what GDAL's approximate
 * transformer gives for the whole row: same splits, same exact points, same failures. The oracle
 * is the straightforward whole-row version (what src/ used before it learnt to skip points).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crsFromEpsg } from '../../../src/geo/crs.ts';
import { getTransformer } from '../../../src/geo/transform.ts';
import { approxRowAt, type PixelTransform } from '../../../src/raster/warp/approx-row.ts';

/** Deterministic pseudo-random numbers. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function compare(exact: PixelTransform, c0: number, y: number, n: number, maxError: number, at: Int32Array): void {
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    xs[k] = c0 + k + 0.5;
    ys[k] = y;
  }
  referenceApproxRow(exact, xs, ys, maxError);
  const ox = new Float64Array(at.length);
  const oy = new Float64Array(at.length);
  approxRowAt(exact, c0, y, n, maxError, at, ox, oy);
  for (let i = 0; i < at.length; i++) {
    assert.ok(Object.is(ox[i], xs[at[i]]) && Object.is(oy[i], ys[at[i]]), `n=${n} y=${y} point ${at[i]}: ${ox[i]},${oy[i]} vs ${xs[at[i]]},${ys[at[i]]}`);
  }
}

function picks(random: () => number, n: number): Int32Array[] {
  const all = Int32Array.from({ length: n }, (_, k) => k);
  const start = Math.floor(random() * n);
  const run = Int32Array.from({ length: Math.min(n - start, 1 + Math.floor(random() * 300)) }, (_, k) => start + k);
  const sparse = Int32Array.from({ length: 200 }, () => Math.floor(random() * n)).sort();
  const stretched = Int32Array.from({ length: 256 }, (_, k) => Math.floor(((k + 0.5) * n) / 256));
  return [all, run, sparse, stretched, new Int32Array(0), Int32Array.of(0, n - 1)];
}

// ---- the whole-row oracle --------------------------------------------------------------------
const SMALL = 5;
const SX = new Float64Array(3);
const SY = new Float64Array(3);

function referenceApproxRow(
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
  const x0 = sx[0],
    y0 = sy[0],
    xm = sx[1],
    ym = sy[1],
    x1 = sx[2],
    y1 = sy[2];
  if (!(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(xm) && Number.isFinite(ym) && Number.isFinite(x1) && Number.isFinite(y1))) {
    exact(xs, ys);
    return;
  }
  referenceSegment(exact, xs, ys, 0, n, x0, y0, xm, ym, x1, y1, maxError);
}

/** Exact transform of xs/ys[from, to) in place. */
function exactRange(exact: PixelTransform, xs: Float64Array, ys: Float64Array, from: number, to: number): void {
  if (to > from) exact(xs.subarray(from, to), ys.subarray(from, to));
}

/**
 * Points [start, start+count) with the exact transforms of the first (a), middle (m) and last
 * (b) points known.
 */
function referenceSegment(
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
  let lmx = NaN,
    lmy = NaN,
    lbx = NaN,
    lby = NaN,
    rmx = NaN,
    rmy = NaN;
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
    referenceSegment(exact, xs, ys, start, leftCount, ax, ay, lmx, lmy, lbx, lby, maxError);
  }
  if (exactRight) {
    exactRange(exact, xs, ys, mid + 1, last);
    xs[mid] = mx;
    ys[mid] = my;
    xs[last] = bx;
    ys[last] = by;
  } else {
    referenceSegment(exact, xs, ys, mid, rightCount, mx, my, rmx, rmy, bx, by, maxError);
  }
}

describe('approxRowAt', () => {
  it('equals approxRow on curved transforms, including failing points', () => {
    const random = rng(7);
    const curved =
      (bend: number, hole: [number, number] | null): PixelTransform =>
      (xs, ys) => {
        for (let i = 0; i < xs.length; i++) {
          const x = xs[i];
          const y = ys[i];
          if (hole && x > hole[0] && x < hole[1]) {
            xs[i] = ys[i] = NaN;
            continue;
          }
          xs[i] = x * 0.9 + bend * Math.sin(x / 37) + 0.01 * y;
          ys[i] = y * 1.1 + bend * Math.cos(x / 53) * Math.sqrt(1 + x / 500);
        }
      };
    for (const bend of [0, 0.05, 0.4, 3, 40]) {
      for (const hole of [null, [100, 101], [300.2, 340], [-1, 2]] as Array<[number, number] | null>) {
        for (const n of [1, 4, 5, 6, 7, 33, 256, 511, 512]) {
          const y = 10 + Math.floor(random() * 1000) + 0.5;
          for (const at of picks(random, n)) compare(curved(bend, hole), 0, y, n, 0.125, at);
        }
      }
    }
  });

  it('equals approxRow through a real projection (UTM → Web Mercator pixel grid)', () => {
    const t = getTransformer(crsFromEpsg(3857), crsFromEpsg(32632));
    const exact: PixelTransform = (xs, ys) => {
      for (let i = 0; i < xs.length; i++) {
        xs[i] = 900000 + xs[i] * 611.5;
        ys[i] = 6300000 - ys[i] * 611.5;
      }
      t.forward(xs, ys);
      for (let i = 0; i < xs.length; i++) {
        xs[i] = (xs[i] - 300000) / 30;
        ys[i] = (5300000 - ys[i]) / 30;
      }
    };
    const random = rng(11);
    for (let row = 0; row < 20; row++) {
      const y = Math.floor(random() * 600) + 0.5;
      for (const c0 of [0, 512, 1024]) for (const at of picks(random, 512)) compare(exact, c0, y, 512, 0.125, at);
    }
  });
});
