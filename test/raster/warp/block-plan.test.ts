/**
 * The warp's destination-block plan: blocks far from the source are left out, blocks over it
 * kept, and no output pixel that maps into the source is ever in a left-out block.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invertGeoTransform, type GeoTransform } from '../../../src/geo/affine.ts';
import { crsFromEpsg } from '../../../src/geo/crs.ts';
import { getTransformer } from '../../../src/geo/transform.ts';
import { planBlocks, type WarpBlock } from '../../../src/raster/warp/block-plan.ts';
import { gridToSource } from '../../../src/raster/warp/grid-transform.ts';

function identity(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

const inBlock = (blocks: WarpBlock[], i: number, j: number): boolean => blocks.some((b) => i >= b.i0 && i < b.i1 && j >= b.j0 && j < b.j1);

/** A 1000×1000 source of 100 m in UTM 32N (~9.5–10.8°E, ~47.8–48.7°N) seen from a world grid. */
function worldCase(width: number, height: number, srcOrigin: [number, number]) {
  const grid: GeoTransform = [-180, 360 / width, 0, 90, 0, -180 / height];
  const src: GeoTransform = [srcOrigin[0], 100, 0, srcOrigin[1], 0, -100];
  const exact = gridToSource(grid, invertGeoTransform(src), getTransformer(crsFromEpsg(4326), crsFromEpsg(32632)));
  const cols = identity(width);
  const rows = identity(height);
  return { exact, cols, rows, blocks: planBlocks({ exact, cols, rows, sourceWidth: 1000, sourceHeight: 1000, margin: 0 }) };
}

/** Output pixels whose centre lands inside the source, by exact transforms of every pixel. */
function hits(c: ReturnType<typeof worldCase>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const w = c.cols.length;
  for (let i = 0; i < c.rows.length; i++) {
    const xs = Float64Array.from({ length: w }, (_, j) => j + 0.5);
    const ys = new Float64Array(w).fill(i + 0.5);
    c.exact(xs, ys);
    for (let j = 0; j < w; j++) if (xs[j] >= 0 && xs[j] < 1000 && ys[j] >= 0 && ys[j] < 1000) out.push([i, j]);
  }
  return out;
}

describe('planBlocks', () => {
  it('a world grid over a small UTM source: far blocks empty, the source’s blocks kept', () => {
    const c = worldCase(2048, 1024, [500000, 5400000]);
    const area = c.blocks.reduce((s, b) => s + (b.j1 - b.j0) * (b.i1 - b.i0), 0);
    // (blocks kept: the data's, and those along the fold 90° from the central meridian, where
    // points fail to transform and nothing can be proven)
    assert.ok(area < 0.01 * 2048 * 1024, `planned ${area} pixels`);
    // far away: the antimeridian, the poles, the other side of the zone's fold
    for (const [i, j] of [
      [0, 0],
      [1023, 2047],
      [512, 0],
      [300, 1700],
      [270, 1400],
    ])
      assert.ok(!inBlock(c.blocks, i, j), `(${i}, ${j})`);
    const got = hits(c);
    assert.ok(got.length > 10);
    for (const [i, j] of got) assert.ok(inBlock(c.blocks, i, j), `pixel (${i}, ${j}) maps into the source but its block was left out`);
    for (const b of c.blocks) if (b.window) assert.ok(b.window[2] > b.window[0] && b.window[3] > b.window[1]);
  });

  it('a source 10° east of the central meridian (zone edge) is found the same way', () => {
    const c = worldCase(1440, 720, [1280000, 5300000]);
    const got = hits(c);
    assert.ok(got.length > 10);
    for (const [i, j] of got) assert.ok(inBlock(c.blocks, i, j), `pixel (${i}, ${j})`);
    assert.ok(!inBlock(c.blocks, 360, 0));
  });

  // lattice 0, 64, 128, 191, 255 → centres 100.5…355.5, widened by the 64-pixel step + 1
  it('a grid inside the source is one block per 256², its window the probe’s box (pixel centres 100.5…355.5) plus 2 px for curvature', () => {
    const src: GeoTransform = [0, 1, 0, 0, 0, -1];
    const grid: GeoTransform = [100, 1, 0, -100, 0, -1];
    const t = getTransformer(crsFromEpsg(32632), crsFromEpsg(32632));
    const exact = gridToSource(grid, invertGeoTransform(src), t);
    const blocks = planBlocks({ exact, cols: identity(512), rows: identity(300), sourceWidth: 1000, sourceHeight: 1000, margin: 0 });
    assert.equal(blocks.length, 4);
    assert.deepEqual(blocks[0], { j0: 0, j1: 256, i0: 0, i1: 256, window: [98, 98, 358, 358] });
  });

  // A preview of a global EPSG:4326 raster in EPSG:3857 (GDAL's suggested grid reaches the poles):
  // the polar rows map onto a sliver of source rows, a thin probe box that the area test alone
  // took for "mostly off the source" and halved down to 8×8 (620 blocks for 85×1024 pixels).
  it('a Mercator grid whose every probe lands inside the source is not halved', () => {
    const src: GeoTransform = [-180, 360 / 1024, 0, 90, 0, -180 / 512];
    const top = 2.4e7; // ~88.9°N … ~88.9°S: all inside the source
    const grid: GeoTransform = [-20037508.34, (2 * 20037508.34) / 85, 0, top, 0, (-2 * top) / 1024];
    const exact = gridToSource(grid, invertGeoTransform(src), getTransformer(crsFromEpsg(3857), crsFromEpsg(4326)));
    const blocks = planBlocks({ exact, cols: identity(85), rows: identity(1024), sourceWidth: 1024, sourceHeight: 512, margin: 0 });
    assert.equal(blocks.length, 4);
    for (const [k, b] of blocks.entries()) assert.deepEqual([b.j0, b.j1, b.i0, b.i1], [0, 85, 256 * k, 256 * (k + 1)]);
  });
});
