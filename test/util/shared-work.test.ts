/**
 * util/shared-work.ts: the scope a time series' steps share repeated pure work through. Oracle for
 * the shared paths: the same read outside a scope (every single-step request), which the
 * rasterio-checked tests of the warp and the cutline cover — values must be identical, and the
 * scope must have served the repeats (hits), not recomputed them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import { openTiffGrid } from '../../src/formats/tiff/tiff-grid.ts';
import type { Bounds } from '../../src/geo/bounds.ts';
import { WGS84 } from '../../src/geo/crs.ts';
import type { Geometry } from '../../src/geo/geometry.ts';
import type { ImageData } from '../../src/raster/image-data.ts';
import { cutToGeometry } from '../../src/readers/cutline.ts';
import { GridReader } from '../../src/readers/grid/grid-reader.ts';
import type { SourceOpener } from '../../src/sources/open-source.ts';
import { currentSharedWork, runWithSharedWork, SharedWork } from '../../src/util/shared-work.ts';
import { fixture } from '../helpers/test-server.ts';

describe('SharedWork', () => {
  it('computes a key once per scope; nothing is kept outside a scope', async () => {
    assert.equal(currentSharedWork(), undefined);
    const work = new SharedWork(1000);
    let calls = 0;
    const compute = () => ++calls;
    await runWithSharedWork(async () => {
      assert.equal(currentSharedWork(), work);
      await Promise.resolve();
      assert.equal(currentSharedWork(), work, 'the scope follows async work');
      assert.equal(work.get('a', 10, compute), 1);
      assert.equal(work.get('a', 10, compute), 1);
      assert.equal(work.get('b', 10, compute), 2);
    }, work);
    assert.equal(calls, 2);
    assert.equal(work.hits, 1);
    assert.equal(work.bytesKept, 20);
  });

  it('keeps within its bytes (oldest dropped), computes oversized values without keeping them', () => {
    const work = new SharedWork(100);
    let calls = 0;
    const compute = () => ++calls;
    work.get('big', 101, compute);
    work.get('big', 101, compute);
    assert.equal(calls, 2, 'a value over the budget is not kept');
    work.get('a', 60, compute);
    work.get('b', 60, compute); // drops 'a'
    assert.equal(work.bytesKept, 60);
    work.get('b', 60, compute);
    work.get('a', 60, compute);
    assert.equal(calls, 5);
    assert.equal(work.hits, 1);
  });

  it('an async value is shared while pending; a rejected one is forgotten', async () => {
    const work = new SharedWork(1000);
    let calls = 0;
    const ok = () => Promise.resolve(++calls);
    const [x, y] = await Promise.all([work.get('p', 1, ok), work.get('p', 1, ok)]);
    assert.deepEqual([x, y, calls], [1, 1, 1]);
    const fail = () => Promise.reject(new Error('no'));
    await assert.rejects(work.get('q', 1, fail));
    await new Promise((r) => setImmediate(r));
    assert.equal(await work.get('q', 1, ok), 2, 'recomputed after the rejection');
  });
});

describe('shared warp coordinates and cutlines (identical to an unshared read)', () => {
  let reader: GridReader;
  before(async () => {
    const bytes = new Uint8Array(readFileSync(fixture('datasets', 'rgb_uint8_utm.tif')));
    const sources: SourceOpener = {
      async open(url) {
        return { url, size: bytes.length, fetch: async (offset: number, length: number) => bytes.slice(offset, offset + length) };
      },
      async openIfExists() {
        return null;
      },
    };
    const ds = await openTiffGrid('/data/rgb_uint8_utm.tif', { sources, blockCache: createBlockCache(8 << 20), maxBlockBytes: 64 << 20, sidecars: false });
    reader = new GridReader(ds, { maxReadPixels: 1e8 });
  });

  // EPSG:32633 source read onto EPSG:4326 bounds: a warp
  const BOX: Bounds = [15.02, 50.48, 15.15, 50.545];
  const GEOMETRY: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [15.03, 50.49],
        [15.14, 50.5],
        [15.1, 50.54],
        [15.03, 50.49],
      ],
    ],
  };
  const read = (width: number, reproject: 'nearest' | 'bilinear'): Promise<ImageData> =>
    reader.part({ bounds: BOX, dstCrs: WGS84, width, height: 150, reproject, indexes: [1, 2, 3] });
  const pixels = (img: ImageData) => ({ bands: img.bands.map((b) => Array.from(b)), masks: img.masks.map((m) => Array.from(m)) });

  for (const reproject of ['nearest', 'bilinear'] as const) {
    it(`a ${reproject} warp: steps in one scope compute the coordinates once, with the same pixels`, async () => {
      const alone = pixels(await read(200, reproject));
      const work = new SharedWork();
      const [a, b] = await runWithSharedWork(() => Promise.all([read(200, reproject), read(200, reproject)]), work);
      const c = await runWithSharedWork(() => read(200, reproject), work);
      assert.equal(work.hits, 2, 'the second and third reads used the first one’s coordinates');
      assert.deepEqual(pixels(a!), alone);
      assert.deepEqual(pixels(b!), alone);
      assert.deepEqual(pixels(c), alone);
      // another output size is another warp
      const other = await runWithSharedWork(() => read(199, reproject), work);
      assert.equal(work.hits, 2);
      assert.deepEqual(pixels(other), pixels(await read(199, reproject)));
    });
  }

  it('cutToGeometry: the cutline is rasterised once per scope, with the same masks', async () => {
    const img = await read(200, 'nearest');
    const alone = cutToGeometry(img, GEOMETRY, WGS84);
    const work = new SharedWork();
    const [x, y] = runWithSharedWork(() => [cutToGeometry(img, GEOMETRY, WGS84), cutToGeometry(img, GEOMETRY, WGS84)], work);
    assert.equal(work.hits, 1);
    assert.deepEqual(pixels(x!.cut), pixels(alone.cut));
    assert.deepEqual(pixels(y!.cut), pixels(alone.cut));
    assert.ok(alone.cut.masks[0]!.some((v) => v === 0) && alone.cut.masks[0]!.some((v) => v !== 0), 'the cutline masks some pixels, keeps others');
  });
});
