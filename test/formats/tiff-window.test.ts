/**
 * readWindow: windows across block boundaries (tiles, strips, band-separate, masks), duplicate
 * band lists, validation, and the block cache (a second read decodes nothing; concurrent reads
 * share one decode). Oracle: the full-level read, itself checked against GDAL in
 * tiff-dataset.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import type { TypedArray } from '../../src/dtype.ts';
import { allBands, openFixture } from './tiff-fixtures.ts';

function crop(full: TypedArray, fullWidth: number, col: number, row: number, width: number, height: number): number[] {
  const out: number[] = [];
  for (let y = row; y < row + height; y++) for (let x = col; x < col + width; x++) out.push(full[y * fullWidth + x]);
  return out;
}

const WINDOWS: Array<[number, number, number, number]> = [
  [0, 0, 1, 1],
  [63, 63, 2, 2], // four 64² tiles meet
  [100, 30, 130, 90], // several blocks, partial on every side
  [250, 150, 50, 50], // right and bottom edge blocks (partial tiles)
  [0, 199, 300, 1], // last row
  [299, 0, 1, 200], // last column
  [1, 5, 298, 17], // strips: several partial strips
];

describe('TiffDataset.readWindow', () => {
  for (const name of [
    'cog_deflate_pred2_rgb.tif',
    'gtiff_lzw_pred2_uint16_mask.tif',
    'bigtiff_uint32_planar.tif',
    'gtiff_deflate_pred2_int32_be_strips.tif',
    'gtiff_lzw_rgb_strips.tif',
    'gtiff_nbits4_lzw.tif',
    'ext_sidecars.tif',
    'gtiff_lerc_zstd_uint16_planar.tif',
  ]) {
    it(`windows across block boundaries equal the full read: ${name}`, async () => {
      const ds = await openFixture(name);
      for (let level = 0; level < ds.levels.length; level++) {
        const L = ds.levels[level];
        const bands = allBands(ds.count);
        const full = await ds.readWindow(level, 0, 0, L.width, L.height, bands);
        for (const [c, r, w, h] of WINDOWS) {
          const col = Math.min(c, L.width - 1);
          const row = Math.min(r, L.height - 1);
          const width = Math.min(w, L.width - col);
          const height = Math.min(h, L.height - row);
          const win = await ds.readWindow(level, col, row, width, height, bands);
          win.bands.forEach((b, i) => {
            assert.equal(b.length, width * height);
            assert.deepEqual(
              Array.from(b),
              crop(full.bands[i], L.width, col, row, width, height),
              `level ${level} band ${i + 1} window ${[col, row, width, height]}`,
            );
          });
          if (full.mask !== null) assert.deepEqual(Array.from(win.mask!), crop(full.mask, L.width, col, row, width, height));
          else assert.equal(win.mask, null);
        }
      }
    });
  }

  it('a cache that drops blocks all the time recycles their buffers without corrupting reads', async () => {
    // room for ~2 blocks: nearly every decode drops a block whose buffers the next decodes reuse,
    // while many concurrent windows still copy out of blocks being dropped
    for (const name of ['cog_deflate_pred2_rgb.tif', 'gtiff_deflate32946_uint16.tif', 'gtiff_deflate_pred2_int32_be_strips.tif']) {
      const ref = await openFixture(name);
      const L = ref.levels[0];
      const bands = allBands(ref.count);
      const full = await ref.readWindow(0, 0, 0, L.width, L.height, bands);
      const blockBytes = L.blockWidth * L.blockHeight * ref.count * full.bands[0].BYTES_PER_ELEMENT;
      const small = createBlockCache(2 * blockBytes + 512);
      const ds = await openFixture(name, { blockCache: small });
      for (let round = 0; round < 6; round++) {
        const reads = [];
        for (let k = 0; k < 40; k++) {
          const col = (k * 37 + round * 11) % (L.width - 20);
          const row = (k * 53 + round * 7) % (L.height - 20);
          reads.push(ds.readWindow(0, col, row, 20, 20, bands).then((w) => ({ w, col, row })));
        }
        for (const { w, col, row } of await Promise.all(reads)) {
          w.bands.forEach((b, i) => assert.deepEqual(Array.from(b), crop(full.bands[i], L.width, col, row, 20, 20), `${name} band ${i + 1} at ${col},${row}`));
        }
        await new Promise((r) => setImmediate(r)); // let dropped buffers return to the pool
      }
      const blocks = Math.ceil(L.width / L.blockWidth) * Math.ceil(L.height / L.blockHeight);
      assert.ok(small.stats.decodes > 2 * blocks, `${name}: ${small.stats.decodes} decodes of ${blocks} blocks`);
    }
  });

  it('returns one array per requested band, duplicates as separate copies', async () => {
    const ds = await openFixture('bigtiff_uint32_planar.tif');
    const all = await ds.readWindow(0, 60, 60, 10, 10, [1, 2, 3]);
    const dup = await ds.readWindow(0, 60, 60, 10, 10, [3, 1, 3, 3]);
    assert.equal(dup.bands.length, 4);
    assert.ok(dup.bands.every((b) => b instanceof Uint32Array));
    assert.deepEqual(dup.bands[0], all.bands[2]);
    assert.deepEqual(dup.bands[1], all.bands[0]);
    assert.deepEqual(dup.bands[2], all.bands[2]);
    assert.notEqual(dup.bands[0], dup.bands[2]);
    dup.bands[0][0] = 0;
    assert.equal(dup.bands[2][0], all.bands[2][0]);
  });

  it('rejects windows outside the level (a planner bug: Internal) and unknown bands', async () => {
    const ds = await openFixture('cog_deflate_pred2_rgb.tif');
    await assert.rejects(ds.readWindow(0, 290, 0, 20, 10, [1]), { kind: 'Internal' });
    await assert.rejects(ds.readWindow(0, -1, 0, 2, 2, [1]), { kind: 'Internal' });
    await assert.rejects(ds.readWindow(0, 0, 0, 0, 2, [1]), { kind: 'Internal' });
    await assert.rejects(ds.readWindow(1, 0, 0, 151, 1, [1]), { kind: 'Internal' });
    await assert.rejects(ds.readWindow(3, 0, 0, 1, 1, [1]), { kind: 'Internal' });
    await assert.rejects(ds.readWindow(0, 0, 0, 2, 2, [4]), { kind: 'InvalidBandIndex', context: { band: 4 } });
    await assert.rejects(ds.readWindow(0, 0, 0, 2, 2, [0]), { kind: 'InvalidBandIndex' });
  });

  it('stops waiting when the signal aborts', async () => {
    const ds = await openFixture('cog_deflate_pred2_rgb.tif');
    const ctrl = new AbortController();
    ctrl.abort(new Error('client went away'));
    await assert.rejects(ds.readWindow(0, 0, 0, 10, 10, [1], ctrl.signal), /client went away/);
  });

  it('decodes each block once: a second read is served from the block cache', async () => {
    const cache = createBlockCache(16 * 1024 * 1024);
    const ds = await openFixture('gtiff_lzw_pred2_uint16_mask.tif', { blockCache: cache });
    // 100..229 × 30..119 touches tile columns 1..3 and rows 0..1 of the image and of the mask
    const first = await ds.readWindow(0, 100, 30, 130, 90, [1]);
    assert.equal(cache.stats.decodes, 12);
    const second = await ds.readWindow(0, 100, 30, 130, 90, [1, 1]);
    assert.equal(cache.stats.decodes, 12, 'nothing decoded again');
    assert.deepEqual(second.bands[0], first.bands[0]);
    assert.deepEqual(second.mask, first.mask);
    // a dataset opened again on the same file shares the cache (keys are url + image + block)
    const again = await openFixture('gtiff_lzw_pred2_uint16_mask.tif', { blockCache: cache });
    await again.readWindow(0, 128, 64, 10, 10, [1]);
    assert.equal(cache.stats.decodes, 12);
  });

  it('shares one decode between concurrent reads of the same blocks', async () => {
    const cache = createBlockCache(16 * 1024 * 1024);
    const ds = await openFixture('cog_deflate_pred2_rgb.tif', { blockCache: cache });
    const reads = await Promise.all([0, 1, 2, 3].map(() => ds.readWindow(0, 120, 120, 20, 20, [1, 2, 3])));
    assert.equal(cache.stats.decodes, 4); // 4 tiles, pixel-interleaved: one decode per tile
    for (const r of reads) assert.deepEqual(r.bands, reads[0].bands);
    assert.equal(cache.stats.inFlight, 0);
  });

  it('keeps the cache within its byte budget', async () => {
    const cache = createBlockCache(100 * 1024);
    const ds = await openFixture('cog_deflate_pred2_rgb.tif', { blockCache: cache });
    await ds.readWindow(0, 0, 0, 300, 200, [1, 2, 3]);
    assert.ok(cache.stats.bytes <= 100 * 1024);
    assert.ok(cache.stats.entries >= 1);
  });
});
