/**
 * TileMatrixSet.limits transforms the two corners once for all zooms: the result must equal the
 * per-zoom computation (tileAt on geographic corners, clamped to the matrix) exactly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bounds } from '../../src/geo/bounds.ts';
import { getTileMatrixSet, TMS_IDS, type TileMatrixLimits } from '../../src/geo/tms.ts';

/** morecantile's `minmax` per zoom, written out the long way. */
function referenceLimits(id: string, [w, s, e, n]: Bounds, minzoom: number, maxzoom: number): TileMatrixLimits[] {
  const tms = getTileMatrixSet(id);
  const out: TileMatrixLimits[] = [];
  for (let z = Math.max(minzoom, tms.minzoom); z <= maxzoom; z++) {
    const m = tms.matrix(z);
    const ul = tms.tileAt(w, n, z, true);
    const lr = tms.tileAt(e, s, z, true);
    out.push({
      tileMatrix: m.id,
      minTileRow: Math.max(Math.min(ul.y, lr.y), 0),
      maxTileRow: Math.min(Math.max(ul.y, lr.y), m.matrixHeight),
      minTileCol: Math.max(Math.min(ul.x, lr.x), 0),
      maxTileCol: Math.min(Math.max(ul.x, lr.x), m.matrixWidth),
    });
  }
  return out;
}

const BOUNDS: Bounds[] = [
  [-61.28762442711404, 72.22979795551834, -52.301598718454485, 74.66298001264106],
  [-10, 40, 20, 55],
  [170, -20, -170, 10], // across the antimeridian
  [-180, -90, 180, 90],
  [5, 60, 25, 89.9],
];

describe('TileMatrixSet.limits', () => {
  for (const id of TMS_IDS) {
    it(`${id}: same limits as the per-zoom computation`, () => {
      const tms = getTileMatrixSet(id);
      const maxzoom = Math.min(tms.maxzoom, tms.minzoom + 12);
      for (const b of BOUNDS) assert.deepEqual(tms.limits(b, tms.minzoom, maxzoom), referenceLimits(id, b, tms.minzoom, maxzoom), `${id} ${b.join(',')}`);
    });
  }

  it('WebMercatorQuad keeps titiler’s cog.tif limits', () => {
    const limits = getTileMatrixSet('WebMercatorQuad').limits([-61.28762442711404, 72.22979795551834, -52.301598718454485, 74.66298001264106], 5, 9);
    assert.deepEqual(limits[0], { tileMatrix: '5', minTileRow: 5, maxTileRow: 6, minTileCol: 10, maxTileCol: 11 });
    assert.deepEqual(limits[4], { tileMatrix: '9', minTileRow: 92, maxTileRow: 104, minTileCol: 168, maxTileCol: 181 });
  });
});
