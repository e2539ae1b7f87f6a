/**
 * approxRowAt must give, at the points it is asked for, bit for bit what approxRow gives for the
 * whole row (GDAL's approximate transformer): same splits, same exact points, same failures.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crsFromEpsg } from '../../../src/geo/crs.ts';
import { getTransformer } from '../../../src/geo/transform.ts';
import { approxRow, approxRowAt, type PixelTransform } from '../../../src/raster/warp/approx-row.ts';

/** Deterministic pseudo-random numbers. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function compare(exact: PixelTransform, c0: number, y: number, n: number, maxError: number, at: Int32Array): void {
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    xs[k] = c0 + k + 0.5;
    ys[k] = y;
  }
  approxRow(exact, xs, ys, maxError);
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

describe('approxRowAt', () => {
  it('equals approxRow on curved transforms, including failing points', () => {
    const random = rng(7);
    const curved = (bend: number, hole: [number, number] | null): PixelTransform => (xs, ys) => {
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
