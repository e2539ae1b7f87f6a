/**
 * Boundless nearest reads whose window carries floating noise (tile bounds → pixel window):
 * the rows and columns our plan samples must be the ones rasterio 1.3 / GDAL 3.6.2 sampled,
 * for every output row and column (fixture: scripts/fixtures/boundless_noise.py).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { boundlessNearestPlan, type NearestPlan } from '../../../src/raster/warp/boundless-vrt.ts';
import { fixture } from '../../helpers/test-server.ts';

interface Level {
  width: number;
  height: number;
  rows?: number[];
  cols?: number[];
}

interface Case {
  name: string;
  window: [number, number, number, number];
  rows: number[];
  cols: number[];
}

const oracle = JSON.parse(readFileSync(fixture('warp', 'boundless-noise.json'), 'utf8')) as { levels: Level[]; cases: Case[] };
const levels = oracle.levels.map((l) => ({ width: l.width, height: l.height }));

/** Full-resolution index + 1 held by each sampled row (or column) of the plan; 0 outside. */
function sampledValues(plan: NearestPlan, axis: 'rows' | 'cols'): number[] {
  const table = oracle.levels[plan.level][axis];
  return Array.from(plan[axis], (k) => (k < 0 ? 0 : table ? table[k] : k + 1));
}

describe('boundless nearest plan with noisy windows (rasterio oracle)', () => {
  for (const c of oracle.cases) {
    it(c.name, () => {
      const [col, row, width, height] = c.window;
      const win = { col, row, width, height };
      // rasterio reads band 1 through the VRT's implicit overviews, band 2 straight from the raster.
      const first = boundlessNearestPlan(levels, win, 256, 256, true);
      const rest = boundlessNearestPlan(levels, win, 256, 256, false);
      assert.deepEqual(sampledValues(first, 'rows'), c.rows);
      assert.deepEqual(sampledValues(rest, 'cols'), c.cols);
    });
  }
});
