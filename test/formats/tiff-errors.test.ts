/**
 * Broken and hostile files: a clear RastileError (InvalidFormat / UnsupportedFeature), raised
 * only when the missing or bad bytes are needed, never a hang or a huge allocation.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { TiffDataset } from '../../src/formats/tiff/tiff-dataset.ts';
import { createBlockCache } from '../../src/formats/tiff/block-cache.ts';
import type { Source } from '../../src/sources/source.ts';
import { Errors } from '../../src/errors.ts';
import { fileSource } from './file-source.ts';
import { expected, fixture, openFixture } from './tiff-fixtures.ts';

/** An in-memory source over (possibly modified) bytes. */
function memorySource(bytes: Uint8Array, url = 'memory://test.tif'): Source {
  return {
    url,
    size: bytes.length,
    async fetch(offset: number, length: number): Promise<Uint8Array> {
      return bytes.slice(offset, Math.min(bytes.length, offset + length));
    },
  };
}

/**
 * A little-endian classic TIFF: an 8×8 RGB uint8 image and a 4×4 reduced-resolution image whose
 * BitsPerSample array lies at byte FAR_BITS, far from the headers (so reading it is a request of
 * its own while the file is opened). `overviewWidth` lets a test corrupt the overview's directory.
 */
const FAR_BITS = 40_000;
function twoImageTiff(overviewWidth: number): Uint8Array {
  const bytes = new Uint8Array(FAR_BITS + 6);
  const v = new DataView(bytes.buffer);
  v.setUint16(0, 0x4949, true);
  v.setUint16(2, 42, true);
  v.setUint32(4, 8, true);
  const SHORT = 3;
  const LONG = 4;
  const ifd = (at: number, entries: Array<[number, number, number, number]>, next: number): void => {
    v.setUint16(at, entries.length, true);
    entries.forEach(([tag, type, count, value], i) => {
      const e = at + 2 + i * 12;
      v.setUint16(e, tag, true);
      v.setUint16(e + 2, type, true);
      v.setUint32(e + 4, count, true);
      if (type === SHORT && count === 1) v.setUint16(e + 8, value, true);
      else v.setUint32(e + 8, value, true);
    });
    v.setUint32(at + 2 + entries.length * 12, next, true);
  };
  const bits = (at: number): void => [0, 2, 4].forEach((o) => v.setUint16(at + o, 8, true));
  // IFD 0 at 8 (10 entries, ends at 134), its BitsPerSample at 134; IFD 1 at 140; pixels at 300 and 500
  ifd(
    8,
    [
      [256, SHORT, 1, 8],
      [257, SHORT, 1, 8],
      [258, SHORT, 3, 134],
      [259, SHORT, 1, 1],
      [262, SHORT, 1, 2],
      [273, LONG, 1, 300],
      [277, SHORT, 1, 3],
      [278, SHORT, 1, 8],
      [279, LONG, 1, 192],
      [284, SHORT, 1, 1],
    ],
    140,
  );
  bits(134);
  ifd(
    140,
    [
      [254, LONG, 1, 1],
      [256, SHORT, 1, overviewWidth],
      [257, SHORT, 1, 4],
      [258, SHORT, 3, FAR_BITS],
      [259, SHORT, 1, 1],
      [262, SHORT, 1, 2],
      [273, LONG, 1, 500],
      [277, SHORT, 1, 3],
      [278, SHORT, 1, 4],
      [279, LONG, 1, 48],
      [284, SHORT, 1, 1],
    ],
    0,
  );
  bits(FAR_BITS);
  for (let i = 0; i < 192; i++) bytes[300 + i] = i;
  for (let i = 0; i < 48; i++) bytes[500 + i] = 200 + i;
  return bytes;
}

/** `inner` failing with an UpstreamError on every read that touches [from, to). */
function failingSource(inner: Source, from: number, to: number): Source {
  return {
    url: inner.url,
    size: inner.size,
    fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
      if (offset < to && offset + length > from) return Promise.reject(Errors.upstream('Connection to example.com failed (ECONNRESET)'));
      return inner.fetch(offset, length, signal);
    },
  };
}

describe('TIFF errors', () => {
  it('lists the broken fixtures it tests', () => {
    const broken = Object.entries(expected)
      .filter(([, e]) => e.error !== undefined)
      .map(([n]) => n)
      .sort();
    assert.deepEqual(broken, [
      'bad_corrupt_tile.tif',
      'bad_cyclic_ifd.tif',
      'bad_huge_tiles.tif',
      'bad_lzma_unsupported.tif',
      'bad_not_a_tiff.tif',
      'bad_truncated.tif',
    ]);
  });

  it('rejects a file that is not a TIFF', async () => {
    await assert.rejects(openFixture('bad_not_a_tiff.tif'), { kind: 'InvalidFormat', message: /is not a TIFF file/ });
    await assert.rejects(TiffDataset.open(memorySource(new Uint8Array(0)), { blockCache: createBlockCache(1024) }), {
      kind: 'InvalidFormat',
    });
  });

  it('rejects a looping chain of image directories instead of spinning', async () => {
    await assert.rejects(openFixture('bad_cyclic_ifd.tif'), { kind: 'InvalidFormat', message: /looping chain/ });
  });

  it('rejects a directory pointer beyond the end of the file', async () => {
    const bytes = new Uint8Array(await readFile(fixture('gtiff_nbits1.tif')));
    new DataView(bytes.buffer).setUint32(4, bytes.length + 1000, true); // first IFD offset (classic, little-endian)
    await assert.rejects(TiffDataset.open(memorySource(bytes), { blockCache: createBlockCache(1024) }), { kind: 'InvalidFormat' });
  });

  it('reads what a truncated file still has and fails clearly on the missing blocks', async () => {
    const good = await openFixture('cog_deflate_pred2_rgb.tif');
    const cut = await openFixture('bad_truncated.tif');
    // COG order: overviews first, then full-resolution tiles row by row; the first tile survives
    const a = await good.readWindow(0, 0, 0, 128, 128, [1, 2, 3]);
    const b = await cut.readWindow(0, 0, 0, 128, 128, [1, 2, 3]);
    assert.deepEqual(b.bands, a.bands);
    const ovr = await cut.readWindow(2, 0, 0, 75, 50, [1]);
    assert.deepEqual(ovr.bands[0], (await good.readWindow(2, 0, 0, 75, 50, [1])).bands[0]);
    await assert.rejects(cut.readWindow(0, 256, 128, 44, 72, [1]), { kind: 'InvalidFormat', message: /is truncated/ });
  });

  it('reports corrupt compressed data of one block, other blocks still read', async () => {
    const ds = await openFixture('bad_corrupt_tile.tif');
    const corrupt = expected['bad_corrupt_tile.tif'].corrupt_block!;
    const across = Math.ceil(ds.width / 64); // 64² tiles
    const [col, row] = [(corrupt % across) * 64, Math.floor(corrupt / across) * 64];
    await assert.rejects(ds.readWindow(0, col, row, 10, 10, [1]), { kind: 'InvalidFormat', message: /Corrupt deflate data/ });
    const ok = await ds.readWindow(0, 0, 0, 64, 64, [1]);
    assert.equal(ok.bands[0].length, 64 * 64);
  });

  it('refuses blocks larger than the decode cap when the file is opened, naming the tile size', async () => {
    await assert.rejects(openFixture('bad_huge_tiles.tif'), {
      kind: 'InvalidFormat',
      message: /TileWidth×TileLength 65535×65535.*over the 67108864-byte limit/,
    });
    await assert.rejects(openFixture('cog_deflate_pred2_rgb.tif', { maxBlockBytes: 10_000 }), { kind: 'InvalidFormat', message: /over the 10000-byte limit/ });
  });

  it('opens a file with an unknown compression and fails on read with UnsupportedFeature', async () => {
    const ds = await openFixture('bad_lzma_unsupported.tif');
    assert.equal(ds.compression, 'LZMA');
    await assert.rejects(ds.readWindow(0, 0, 0, 4, 4, [1]), { kind: 'UnsupportedFeature', message: 'Unsupported TIFF compression 34925' });
  });

  it('turns truncated headers and garbage tag values into InvalidFormat', async () => {
    const bytes = new Uint8Array(await readFile(fixture('gtiff_metadata_int16_point.tif')));
    for (const cut of [4, 9, 100, 200]) {
      await assert.rejects(
        TiffDataset.open(memorySource(bytes.slice(0, cut)), { blockCache: createBlockCache(1024) }),
        { kind: 'InvalidFormat' },
        `cut at ${cut}`,
      );
    }
  });

  it('fails clearly when the block offsets point past the end', async () => {
    const bytes = new Uint8Array(await readFile(fixture('gtiff_none_int16_rps1.tif')));
    const ds = await TiffDataset.open(memorySource(bytes.slice(0, bytes.length - 200)), { blockCache: createBlockCache(1 << 20) });
    const ok = await ds.readWindow(0, 0, 0, 160, 10, [1]);
    assert.equal(ok.bands[0].length, 1600);
    await assert.rejects(ds.readWindow(0, 0, 80, 160, 10, [1]), { kind: 'InvalidFormat', message: /truncated/ });
  });

  it('opens a file with an overview and reads both levels (the synthetic file used below)', async () => {
    const ds = await TiffDataset.open(memorySource(twoImageTiff(4)), { blockCache: createBlockCache(1 << 20) });
    assert.deepEqual(
      ds.levels.map((l) => [l.width, l.height]),
      [
        [8, 8],
        [4, 4],
      ],
    );
    assert.deepEqual(ds.warnings, []);
    const ovr = await ds.readWindow(1, 0, 0, 4, 4, [2]);
    assert.deepEqual(
      Array.from(ovr.bands[0]),
      Array.from({ length: 16 }, (_, i) => 200 + i * 3 + 1),
    );
  });

  it('fails to open when reading an overview directory fails with an I/O error (no degraded dataset)', async () => {
    const source = failingSource(memorySource(twoImageTiff(4)), FAR_BITS, FAR_BITS + 6);
    await assert.rejects(TiffDataset.open(source, { blockCache: createBlockCache(1 << 20) }), {
      kind: 'UpstreamError',
      message: /ECONNRESET/,
    });
  });

  it('still opens, with a warning, when an overview directory is corrupt', async () => {
    const ds = await TiffDataset.open(memorySource(twoImageTiff(0)), { blockCache: createBlockCache(1 << 20) });
    assert.deepEqual(
      ds.levels.map((l) => [l.width, l.height]),
      [[8, 8]],
    );
    assert.equal(ds.warnings.length, 1);
    assert.match(ds.warnings[0], /^Ignored an unreadable image: TIFF image 1 has an invalid size \(0×4\)/);
  });

  it('fails to open when a sidecar cannot be read for an I/O error, ignores a broken one', async () => {
    const path = fixture('ext_sidecars.tif');
    const opts = async (overviewSource: Source) => ({
      blockCache: createBlockCache(1 << 20),
      overviewSource,
      maskSource: await fileSource(path + '.msk'),
    });
    const ovr = await fileSource(path + '.ovr');
    await assert.rejects(TiffDataset.open(await fileSource(path), await opts(failingSource(ovr, 0, Infinity))), {
      kind: 'UpstreamError',
    });
    const broken = memorySource(new TextEncoder().encode('not a TIFF at all'), path + '.ovr');
    const ds = await TiffDataset.open(await fileSource(path), await opts(broken));
    assert.deepEqual(
      ds.levels.map((l) => [l.width, l.height]),
      [[300, 200]],
    );
    assert.equal(ds.warnings.length, 1);
    assert.match(ds.warnings[0], /^Ignored external overviews '.*ext_sidecars\.tif\.ovr': .*is not a TIFF file/);
  });

  it('treats every random corruption as an error or a result, never a crash or hang', async () => {
    const original = new Uint8Array(await readFile(fixture('gtiff_lzw_pred2_uint16_mask.tif')));
    let seed = 12345;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let trial = 0; trial < 40; trial++) {
      const bytes = original.slice();
      // damage the header area (IFDs and tag arrays live in the first few KB) or random bytes
      for (let k = 0; k < 6; k++) bytes[Math.floor(rand() * (trial % 2 ? 2048 : bytes.length))] = Math.floor(rand() * 256);
      try {
        const ds = await TiffDataset.open(memorySource(bytes, `memory://trial${trial}`), {
          blockCache: createBlockCache(1 << 20),
          maxBlockBytes: 1 << 20,
        });
        await ds.readWindow(0, 0, 0, Math.min(ds.levels[0].width, 100), Math.min(ds.levels[0].height, 100), [1]);
      } catch (err) {
        assert.ok((err as { kind?: string }).kind !== undefined, `trial ${trial}: expected a RastileError, got ${(err as Error).stack}`);
      }
    }
  });
});
