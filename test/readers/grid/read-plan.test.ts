/**
 * Read plans as data (readers/grid/read-plan.ts): level, window or warp grid and output size of
 * a part / preview, checked directly, and executed by a GridReader over an in-memory GridDataset
 * that records which level each read came from (the plan is what runs).
 *
 * Expected values follow the rules the planner implements: rasterio `windows.from_bounds`,
 * rio-tiler `part` (sizes, max_size) and GDAL's overview choice (GDALBandGetBestOverviewLevel2:
 * the coarsest overview whose decimation is below desired × 1.2).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GridDataset, GridLevel } from '../../../src/formats/grid-dataset.ts';
import { boundsFromGeoTransform, type GeoTransform } from '../../../src/geo/affine.ts';
import type { Bounds, Window } from '../../../src/geo/bounds.ts';
import { crsFromEpsg, WGS84 } from '../../../src/geo/crs.ts';
import { transformBounds } from '../../../src/geo/transform.ts';
import { GridReader } from '../../../src/readers/grid/grid-reader.ts';
import { planPart, planPreview, type ReadPlan } from '../../../src/readers/grid/read-plan.ts';

const MERCATOR = crsFromEpsg(3857);
const RES = 10;
const X0 = 1_000_000;
const Y0 = 6_000_000;
const GT: GeoTransform = [X0, RES, 0, Y0, 0, -RES];
const LEVELS: GridLevel[] = [1024, 512, 256, 128].map((n) => ({ width: n, height: n, blockWidth: 256, blockHeight: 256, hasMask: false }));

/** A 1024² uint16 raster in EPSG:3857 with three overviews; pixel value = 1 + level. Records the levels read. */
function fakeDataset(): GridDataset & { levelsRead: number[] } {
  const levelsRead: number[] = [];
  return {
    levelsRead,
    location: 'memory://grid',
    version: '',
    driver: 'Memory',
    width: 1024,
    height: 1024,
    count: 1,
    dtype: 'uint16',
    crs: MERCATOR,
    geoTransform: GT,
    bounds: boundsFromGeoTransform(GT, 1024, 1024),
    levels: LEVELS,
    bands: [{ description: '', colorInterp: 'gray', scale: 1, offset: 0, nodata: null, metadata: {}, statistics: null }],
    nodata: null,
    nodataType: 'None',
    alphaBand: null,
    dataBands: [1],
    colormap: undefined,
    async readWindow(level: number, window: Window, bands: readonly number[]) {
      levelsRead.push(level);
      return { bands: bands.map(() => new Uint16Array(window.width * window.height).fill(1 + level)), mask: null };
    },
  };
}

/** Bounds of a full-resolution pixel window. */
const px = (col: number, row: number, width: number, height: number): Bounds => [
  X0 + col * RES,
  Y0 - (row + height) * RES,
  X0 + (col + width) * RES,
  Y0 - row * RES,
];

/** Plans, and reads through a GridReader that reports the plan it ran. */
async function planAndRead(read: (r: GridReader) => Promise<unknown>): Promise<{ plan: ReadPlan; levelsRead: number[] }> {
  const ds = fakeDataset();
  const plans: ReadPlan[] = [];
  await read(new GridReader(ds, { maxReadPixels: 1 << 24 }, (p) => plans.push(p)));
  assert.equal(plans.length, 1);
  return { plan: plans[0]!, levelsRead: ds.levelsRead };
}

const native = (): GeoTransform => {
  throw new Error('no warp expected');
};

describe('read plans', () => {
  it('native-resolution tile: a direct window at level 0', async () => {
    const req = { bounds: px(256, 512, 256, 256), width: 256, height: 256 };
    const plan = planPart(fakeDataset(), req, native);
    assert.equal(plan.kind, 'window');
    assert.ok(plan.kind === 'window');
    assert.equal(plan.level, 0);
    assert.deepEqual(plan.window, { col: 256, row: 512, width: 256, height: 256 });
    assert.equal(plan.boundless, false);
    assert.deepEqual([plan.width, plan.height, plan.readWidth, plan.readHeight, plan.padding], [256, 256, 256, 256, 0]);
    assert.deepEqual(plan.bounds, req.bounds);
    const run = await planAndRead((r) => r.part(req));
    assert.deepEqual(run.plan, plan, 'the reader runs the same plan');
    assert.deepEqual(new Set(run.levelsRead), new Set([0]));
  });

  it('overview-level tile: 1024 source pixels onto 256 read from the 4× overview', async () => {
    const req = { bounds: px(0, 0, 1024, 1024), width: 256, height: 256 };
    const plan = planPart(fakeDataset(), req, native);
    assert.ok(plan.kind === 'window');
    assert.equal(plan.level, 2);
    assert.deepEqual(plan.window, { col: 0, row: 0, width: 1024, height: 1024 });
    assert.deepEqual([plan.width, plan.height], [256, 256]);
    const run = await planAndRead((r) => r.part(req));
    assert.deepEqual(new Set(run.levelsRead), new Set([2]));
    // between two overviews: decimation 3 → the 2× overview (4 ≥ 3 × 1.2)
    assert.equal(planPart(fakeDataset(), { bounds: px(0, 0, 768, 768), width: 256, height: 256 }, native).level, 1);
  });

  it('boundless same-CRS read: the window reaches past the raster', async () => {
    const req = { bounds: px(-128, 896, 256, 256), width: 256, height: 256 };
    const plan = planPart(fakeDataset(), req, native);
    assert.ok(plan.kind === 'window');
    assert.deepEqual(plan.window, { col: -128, row: 896, width: 256, height: 256 });
    assert.equal(plan.boundless, true);
    assert.equal(plan.level, 0);
    const run = await planAndRead((r) => r.part(req));
    assert.deepEqual(new Set(run.levelsRead), new Set([plan.level]));
    // downsampled and boundless: the level of the boundless VRT chain
    const far = planPart(fakeDataset(), { bounds: px(-1024, 0, 2048, 1024), width: 256, height: 128 }, native);
    assert.ok(far.kind === 'window' && far.boundless);
    const farRun = await planAndRead((r) => r.part({ bounds: px(-1024, 0, 2048, 1024), width: 256, height: 128 }));
    assert.deepEqual(new Set(farRun.levelsRead), new Set([far.level]));
  });

  it('reprojected tile: a warp grid at the native resolution, its implicit overview, the tile size', async () => {
    const ds = fakeDataset();
    const wgs = transformBounds(MERCATOR, WGS84, ds.bounds, 21);
    // a fixed native grid in EPSG:4326 (1e-4°) and a tile of 0.0512° = 512 native pixels onto 256
    const nativeGt: GeoTransform = [8.9, 1e-4, 0, 47.5, 0, -1e-4];
    const [cx, cy] = [(wgs[0] + wgs[2]) / 2, (wgs[1] + wgs[3]) / 2];
    const bounds: Bounds = [cx - 0.0256, cy - 0.0256, cx + 0.0256, cy + 0.0256];
    const plan = planPart(ds, { bounds, dstCrs: WGS84, width: 256, height: 256 }, () => nativeGt);
    assert.ok(plan.kind === 'warp');
    assert.equal(plan.crs, WGS84.id);
    assert.deepEqual([plan.grid.width, plan.grid.height], [512, 512]);
    assert.deepEqual(plan.grid.bounds, bounds);
    assert.deepEqual([plan.width, plan.height, plan.readWidth, plan.readHeight], [256, 256, 256, 256]);
    // implicit VRT overviews 512, 256, 128, 64 → decimation 2 picks the 256 one
    assert.equal(plan.level, 1);
    // the same through a reader (its own native grid from the dataset), executed from the plan's level
    const run = await planAndRead((r) => r.part({ bounds, dstCrs: WGS84, width: 256, height: 256 }));
    assert.equal(run.plan.kind, 'warp');
    assert.deepEqual(run.levelsRead, [run.plan.level]);
  });

  it('preview with max_size: the whole raster fitted to max_size, from the matching overview', async () => {
    const plan = planPreview(fakeDataset(), { maxSize: 300 });
    assert.ok(plan.kind === 'window');
    assert.deepEqual(plan.window, { col: 0, row: 0, width: 1024, height: 1024 });
    assert.deepEqual([plan.width, plan.height], [300, 300]);
    // decimation 1024 / 300 = 3.41: the 4× overview is below 3.41 × 1.2
    assert.equal(plan.level, 2);
    const run = await planAndRead((r) => r.preview({ maxSize: 300 }));
    assert.deepEqual(run.plan, plan);
    assert.deepEqual(new Set(run.levelsRead), new Set([2]));
    const wide = planPreview(fakeDataset(), { maxSize: 100, width: 64 });
    assert.deepEqual([wide.width, wide.height], [100, 100], 'max_size wins over a single side (rio-tiler)');
  });

  it('plans are plain JSON', () => {
    const plan = planPart(fakeDataset(), { bounds: px(0, 0, 512, 512), width: 256, height: 256, padding: 2 }, native);
    assert.deepEqual(JSON.parse(JSON.stringify(plan)), plan);
  });
});
