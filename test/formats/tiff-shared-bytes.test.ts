/**
 * Block decoders that only read their input get the stored bytes through Source.fetchShared (a
 * view of the byte cache's array, no copy): the decoded values are those of a plain read, and the
 * shared arrays are neither written into nor given to the buffer pool (they are the cache's).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import { TiffDataset } from '../../src/formats/tiff/tiff-dataset.ts';
import { BUFFER_POOL } from '../../src/util/buffer-pool.ts';
import { fileSource } from './file-source.ts';
import { allBands, fixture } from './tiff-fixtures.ts';

async function readAll(ds: TiffDataset): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let level = 0; level < ds.levels.length; level++) {
    const L = ds.levels[level]!;
    out.push(await ds.readWindow(level, 0, 0, L.width, L.height, allBands(ds.count)));
  }
  return out;
}

describe('shared (uncopied) block bytes', () => {
  for (const [name, compressed] of [
    ['cog_deflate_pred2_rgb.tif', true],
    ['gtiff_deflate32946_uint16.tif', true],
    ['gtiff_lzw_pred2_uint16_mask.tif', true],
    ['gtiff_packbits_int8_strips.tif', true],
    ['gtiff_zstd_pred2_float32_planar.tif', true],
    ['gtiff_none_int16_rps1.tif', false],
  ] as const) {
    it(`${name}: same values as a plain read; shared arrays stay untouched and are never given to the pool`, async () => {
      const open = (source: Awaited<ReturnType<typeof fileSource>>) => TiffDataset.open(source, { blockCache: createBlockCache(32 * 1024 * 1024) });
      const expected = await readAll(await open(await fileSource(fixture(name))));

      const source = await fileSource(fixture(name));
      const handedOut: Array<{ view: Uint8Array; copy: Uint8Array }> = [];
      // views into pooled buffers: a release of one by the reader would show in BUFFER_POOL.owns
      source.fetchShared = async (offset: number, length: number) => {
        const bytes = await source.fetch(offset, length);
        const view = BUFFER_POOL.bytes(Math.max(bytes.length, 64 * 1024) + 16).subarray(16, 16 + bytes.length);
        view.set(bytes);
        handedOut.push({ view, copy: bytes });
        return view;
      };
      assert.deepEqual(await readAll(await open(source)), expected);
      assert.equal(handedOut.length > 0, compressed);
      for (const { view, copy } of handedOut) {
        assert.ok(BUFFER_POOL.owns(view.buffer), 'a shared array was given to the pool');
        assert.deepEqual(view, copy);
        BUFFER_POOL.release(view.buffer);
      }
    });
  }
});
