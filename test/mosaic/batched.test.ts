/**
 * The batch loop shared by mosaicRead and readEach, and the linked abort controller behind it:
 * batch signals, abort propagation, and that no listener is left on the caller's signal.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { RastileError } from '../../src/errors.ts';
import { getTileMatrixSet } from '../../src/geo/tms.ts';
import { batches, NO_DATA_SKIP_KINDS, noItemsError } from '../../src/mosaic/batched.ts';
import { mosaicRead } from '../../src/mosaic/mosaic-read.ts';
import { createPixelSelection } from '../../src/mosaic/pixel-selection.ts';
import { readEach } from '../../src/mosaic/read-each.ts';
import { GranuleMosaicReader } from '../../src/granule/granule-mosaic-reader.ts';
import { LinkedAbortController } from '../../src/sources/linked-controller.ts';
import { readAssetsConcurrently } from '../../src/readers/stac/read-assets.ts';
import type { Granule } from '../../src/search/types.ts';

const listeners = (s: AbortSignal): number => getEventListeners(s, 'abort').length;

describe('LinkedAbortController', () => {
  it('aborts with the parent reason, alone on abort(), and stops following after dispose()', () => {
    const parent = new AbortController();
    const a = new LinkedAbortController(parent.signal);
    assert.equal(listeners(parent.signal), 1, 'one listener while linked');
    parent.abort('gone');
    assert.equal(a.signal.aborted, true, 'follows the parent');
    assert.equal(a.signal.reason, 'gone', 'with its reason');

    const p2 = new AbortController();
    const b = new LinkedAbortController(p2.signal);
    b.abort('mine');
    assert.equal(p2.signal.aborted, false, 'the parent is untouched');
    b.dispose();
    assert.equal(listeners(p2.signal), 0, 'dispose removes the listener');
    const c = new LinkedAbortController(p2.signal);
    c.dispose();
    p2.abort('late');
    assert.equal(c.signal.aborted, false, 'a disposed controller no longer follows the parent');

    const done = new AbortController();
    done.abort('already');
    const d = new LinkedAbortController(done.signal);
    assert.equal(d.signal.reason, 'already', 'an aborted parent aborts at once');
    assert.equal(new LinkedAbortController().signal.aborted, false, 'no parent');
  });
});

describe('batches', () => {
  it('gives batches of `concurrency` items, each signal aborted once the consumer moves on', async () => {
    const parent = new AbortController();
    const seen: Array<{ items: number[]; signal: AbortSignal }> = [];
    for await (const b of batches([1, 2, 3, 4, 5], 2.7, parent.signal)) {
      assert.equal(b.signal.aborted, false, 'live while consumed');
      assert.equal(listeners(parent.signal), 1, 'linked to the caller while consumed');
      seen.push(b);
    }
    assert.deepEqual(
      seen.map((b) => b.items),
      [[1, 2], [3, 4], [5]],
      'concurrency floored to 2',
    );
    assert.ok(
      seen.every((b) => b.signal.aborted),
      'every batch signal aborted afterwards',
    );
    assert.equal(listeners(parent.signal), 0, 'no listener left on the caller signal');
  });

  it('leaving the loop early aborts the batch and returns the item source', async () => {
    const parent = new AbortController();
    let returned = false;
    let pulled = 0;
    async function* items() {
      try {
        for (let i = 0; i < 10; i++) {
          pulled++;
          yield i;
        }
      } finally {
        returned = true;
      }
    }
    let signal: AbortSignal | undefined;
    for await (const b of batches(items(), 3, parent.signal)) {
      signal = b.signal;
      break;
    }
    assert.equal(signal?.aborted, true, 'batch aborted');
    assert.equal(returned, true, 'source returned');
    assert.equal(pulled, 3, 'one batch pulled');
    assert.equal(listeners(parent.signal), 0, 'no listener left');
  });

  it('a caller abort reaches the running batch', async () => {
    const parent = new AbortController();
    await assert.rejects(
      (async () => {
        for await (const b of batches([1, 2], 2, parent.signal)) {
          parent.abort(new RastileError('UpstreamTimeout', 'too slow'));
          assert.equal(b.signal.aborted, true, 'batch follows the caller');
        }
      })().then(async () => {
        for await (const _ of batches([1], 1, parent.signal)) assert.fail('no batch after the caller aborted');
      }),
      (e: unknown) => e instanceof RastileError && e.kind === 'UpstreamTimeout',
      'throws the caller reason before the next batch',
    );
  });

  it('exports the shared skip kinds and the no-items error', () => {
    assert.deepEqual([...NO_DATA_SKIP_KINDS].sort(), ['PointOutsideBounds', 'TileOutsideBounds'], 'skip kinds');
    const e = noItemsError('tile 1-2-3');
    assert.equal(e.kind, 'NoData', 'kind');
    assert.equal(e.message, 'No assets found for tile 1-2-3', 'message');
    assert.equal(noItemsError(undefined).message, 'No assets found for the request', 'default');
  });
});

describe('no listener left on the caller signal', () => {
  it('mosaicRead, readEach and readAssetsConcurrently', async () => {
    const parent = new AbortController();
    const image = await mosaicRead(
      [1, 2, 3],
      async () => ({
        width: 1,
        height: 1,
        dtype: 'uint8' as const,
        bands: [Uint8Array.of(1)],
        masks: [Uint8Array.of(255)],
        bounds: [0, 0, 1, 1] as [number, number, number, number],
        crs: (await import('../../src/geo/crs.ts')).WGS84,
        bandNames: ['b1'],
        bandDescriptions: ['b1'],
        nodata: null,
        scales: [1],
        offsets: [0],
      }),
      { method: createPixelSelection('first'), concurrency: 2, signal: parent.signal },
    );
    assert.equal(image.used.length, 1, 'first stopped after one item');
    assert.equal(listeners(parent.signal), 0, 'mosaicRead');
    assert.deepEqual(
      await readEach([1, 2, 3], async (n) => n * 2, { concurrency: 2, signal: parent.signal }),
      [1, 2, 3].map((n) => ({ item: n, value: n * 2 })),
      'readEach values',
    );
    assert.equal(listeners(parent.signal), 0, 'readEach');
    assert.deepEqual(
      await readAssetsConcurrently([{ asset: { name: 'a' } }, { asset: { name: 'b' } }], parent.signal, async (a) => a.asset.name),
      ['a', 'b'],
      'read-assets values',
    );
    assert.equal(listeners(parent.signal), 0, 'readAssetsConcurrently');
  });

  it('GranuleMosaicReader removes its link to the request signal (it used to leave one per read)', async () => {
    const parent = new AbortController();
    let searchSignal: AbortSignal | undefined;
    const reader = new GranuleMosaicReader({
      search: async function* (_area, signal): AsyncGenerator<Granule> {
        searchSignal = signal;
        yield* []; // a search that finds nothing
      },
      assets: () => [],
      openAsset: () => Promise.reject(new Error('not used')),
      layer: { assets: [], assetAsBand: false },
      pixelSelection: 'first',
      concurrency: 2,
      bounds: [-180, -90, 180, 90],
    });
    const tms = getTileMatrixSet('WebMercatorQuad');
    await assert.rejects(
      reader.tile(tms, 0, 0, 1, {}, parent.signal),
      (e: unknown) => e instanceof RastileError && e.kind === 'NoData' && /No assets found for tile 1-0-0/.test(e.message),
      'empty search → NoData',
    );
    assert.equal(searchSignal?.aborted, true, 'the search signal is aborted when the read ends');
    assert.equal(listeners(parent.signal), 0, 'tile: no listener left');
    await assert.rejects(
      reader.pointEach(10, 10, tms.crs, {}, parent.signal),
      (e: unknown) => e instanceof RastileError && e.kind === 'NoData',
      'point: NoData',
    );
    assert.equal(listeners(parent.signal), 0, 'point: no listener left');
  });
});
