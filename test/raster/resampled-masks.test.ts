/**
 * Masks stay 0/255 after non-nearest reads: they are sampled with nearest indexes, never
 * kernel-resampled (an averaged 0/255 mask used to come back with values like 64).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import { WGS84 } from '../../src/geo/crs.ts';
import { READ_RESAMPLING } from '../../src/raster/resampling.ts';
import { resampleKernel } from '../../src/raster/resample-kernel.ts';
import { nearestIndexes, sampleMaskNearest } from '../../src/raster/sample-index.ts';
import { openTiffGrid } from '../../src/formats/tiff/tiff-grid.ts';
import { GridReader } from '../../src/readers/grid/grid-reader.ts';
import { rasterIO, type LeveledRaster } from '../../src/readers/grid/raster-io.ts';
import type { SourceOpener } from '../../src/sources/open-source.ts';
import { fixture } from '../helpers/test-server.ts';

function distinct(mask: Uint8Array): number[] {
  return [...new Set(mask)].sort((a, b) => a - b);
}

/** 16×16 uint8 raster, one level, left half masked, with a per-dataset mask. */
function fakeRaster(): LeveledRaster {
  const w = 16;
  const h = 16;
  const data = new Uint8Array(w * h);
  const mask = new Uint8Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      data[r * w + c] = r * 10 + c;
      mask[r * w + c] = c < 7 ? 0 : 255;
    }
  }
  return {
    dtype: 'uint8',
    levels: [{ width: w, height: h, blockWidth: w, blockHeight: h, hasMask: true }],
    async readWindow(_level, { col, row, width, height }) {
      const band = new Uint8Array(width * height);
      const m = new Uint8Array(width * height);
      for (let r = 0; r < height; r++) {
        for (let c = 0; c < width; c++) {
          band[r * width + c] = data[(row + r) * w + col + c];
          m[r * width + c] = mask[(row + r) * w + col + c];
        }
      }
      return { bands: [band], mask: m };
    },
  };
}

describe('masks of resampled reads', () => {
  it('rasterIO: every non-nearest resampling keeps the mask 0/255, sampled at the nearest source pixel', async () => {
    const raster = fakeRaster();
    for (const resampling of READ_RESAMPLING) {
      const res = await rasterIO(raster, { col: 0.5, row: 1, width: 15, height: 14 }, 6, 5, [1], { resampling, withMask: true, fill: 0 });
      assert.ok(res.mask, resampling);
      assert.deepEqual(distinct(res.mask), [0, 255], resampling);
      // output column j samples source column floor(0.5 + (j + 0.5) * 2.5): 1, 4, 6, 9, 11, 14
      const row = [...res.mask.subarray(0, 6)];
      assert.deepEqual(row, [0, 0, 0, 255, 255, 255], resampling);
    }
  });

  it('sampleMaskNearest copies the sampled source value and gives 0 outside', () => {
    const src = new Uint8Array([0, 255, 255, 0, 255, 0]); // 3×2, starting at column 10, row 20
    const cols = new Int32Array([10, 11, -1, 12]);
    const rows = new Int32Array([21, -1, 20]);
    assert.deepEqual([...sampleMaskNearest(src, 3, 10, 20, cols, rows)], [0, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 255]);
    assert.deepEqual([...nearestIndexes(0, 4, 2, 4)], [1, 3]);
  });

  it('resampleKernel refuses nearest (nearest reads use nearestIndexes)', () => {
    const win = { col: 0, row: 0, width: 2, height: 2 };
    assert.throws(() => resampleKernel(new Uint8Array(4), 2, 2, win, 1, 1, 'nearest', null, 'uint8', 0), {
      kind: 'Internal',
      message: 'resampleKernel: nearest reads sample with nearestIndexes (sample-index.ts)',
    });
  });

  it('window and warped reads of a masked GeoTIFF (rgb_mask_2056.tif) give 0/255 masks', async () => {
    const bytes = new Uint8Array(readFileSync(fixture('datasets', 'rgb_mask_2056.tif')));
    const sources: SourceOpener = {
      async open(url) {
        return { url, size: bytes.length, fetch: async (offset: number, length: number) => bytes.slice(offset, offset + length) };
      },
      async openIfExists() {
        return null;
      },
    };
    const ds = await openTiffGrid('/data/rgb_mask_2056.tif', { sources, blockCache: createBlockCache(8 << 20), maxBlockBytes: 64 << 20, sidecars: false });
    assert.ok(ds.levels[0].hasMask, 'the fixture has a mask band');
    const reader = new GridReader(ds, { maxReadPixels: 1e8 });
    for (const resampling of ['bilinear', 'average', 'cubic'] as const) {
      const window = await reader.preview({ maxSize: 77, resampling });
      const warped = await reader.preview({ maxSize: 77, resampling, reproject: 'bilinear', dstCrs: WGS84 });
      for (const [label, img] of [
        ['window', window],
        ['warped', warped],
      ] as const) {
        for (const m of img.masks) assert.deepEqual(distinct(m), [0, 255], `${label} ${resampling}`);
      }
    }
  });
});
