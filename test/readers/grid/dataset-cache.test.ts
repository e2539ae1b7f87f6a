/**
 * GeoTIFF GridDataset opening and caching: shared opens under per-caller AbortSignals, sidecar probes only
 * for local files, per-dataset palette/statistics/native grids shared by every reader.
 * Expected palette and statistics come from scripts/fixtures/datasets.py (rasterio 1.3 / GDAL 3.6.2).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createBlockCache } from '../../../src/formats/tiff/block-cache.ts';
import { getTileMatrixSet } from '../../../src/geo/tms.ts';
import { openTiffGrid, type TiffGridContext } from '../../../src/formats/tiff/tiff-grid.ts';
import { DatasetCache } from '../../../src/readers/grid/dataset-cache.ts';
import { GridReader, nativeGrids } from '../../../src/readers/grid/grid-reader.ts';
import type { Source } from '../../../src/sources/source.ts';
import type { SourceOpener } from '../../../src/sources/open-source.ts';
import { fixture } from '../../helpers/test-server.ts';

const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { info: { minmax?: Array<[number, number]>; colormap?: Record<string, number[]> } }>;
};

/** A Source over a fixture's bytes whose reads wait for `gate` and honour their AbortSignal. */
function memorySource(url: string, bytes: Uint8Array, gate: Promise<void> = Promise.resolve()): Source {
  return {
    url,
    size: bytes.length,
    async fetch(offset, length, signal) {
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => reject(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        void gate.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
      signal?.throwIfAborted();
      return bytes.slice(offset, offset + length);
    },
  };
}

interface FakeOpener extends SourceOpener {
  opened: string[];
  probed: string[];
}

function fakeOpener(name: string, gate?: Promise<void>): FakeOpener {
  const bytes = new Uint8Array(readFileSync(fixture('datasets', name)));
  const opener: FakeOpener = {
    opened: [],
    probed: [],
    async open(location) {
      opener.opened.push(location);
      return memorySource(location, bytes, gate);
    },
    async openIfExists(location) {
      opener.probed.push(location);
      return null;
    },
  };
  return opener;
}

const context = (sources: SourceOpener, sidecars = true): TiffGridContext => ({
  sources,
  blockCache: createBlockCache(8 << 20),
  maxBlockBytes: 64 << 20,
  sidecars,
});

/** The dataset cache the server builds: GeoTIFFs opened as GridDatasets. */
const tiffCache = (ctx: TiffGridContext, max: number): DatasetCache => new DatasetCache((location, signal) => openTiffGrid(location, ctx, signal), max);

describe('DatasetCache.open', () => {
  it('a caller that aborts does not fail the others waiting for the same open', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const opener = fakeOpener('rgb_uint8_utm.tif', gate);
    const cache = tiffCache(context(opener, false), 4);
    const first = new AbortController();
    const p1 = cache.open('/data/a.tif', first.signal);
    const p2 = cache.open('/data/a.tif', new AbortController().signal);
    first.abort(new DOMException('client went away', 'AbortError'));
    await assert.rejects(p1, { name: 'AbortError' });
    release();
    const ds = await p2;
    assert.equal(ds.width, 600);
    assert.equal(ds.height, 450);
    assert.deepEqual(opener.opened, ['/data/a.tif'], 'one shared open');
    assert.equal(await cache.open('/data/a.tif'), ds, 'cached once opened');
  });

  it('abandons the open when every caller aborted, and the next caller opens again', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const opener = fakeOpener('rgb_uint8_utm.tif', gate);
    const cache = tiffCache(context(opener, false), 4);
    const a = new AbortController();
    const p = cache.open('/data/b.tif', a.signal);
    a.abort(new DOMException('gone', 'AbortError'));
    await assert.rejects(p, { name: 'AbortError' });
    release();
    const ds = await cache.open('/data/b.tif');
    assert.equal(ds.width, 600);
    assert.equal(opener.opened.length, 2);
  });
});

describe('openTiffGrid sidecars', () => {
  it('probes .ovr/.msk/.aux.xml sidecars for local paths only (not /vsicurl/, /vsis3/, http, s3)', async () => {
    for (const location of ['/vsicurl/https://example.com/a.tif', '/vsis3/bucket/a.tif', 'https://example.com/a.tif', 's3://bucket/a.tif']) {
      const opener = fakeOpener('rgb_uint8_utm.tif');
      await openTiffGrid(location, context(opener));
      assert.deepEqual(opener.probed, [], location);
    }
    for (const location of ['/data/a.tif', 'file:///data/a.tif']) {
      const opener = fakeOpener('rgb_uint8_utm.tif');
      await openTiffGrid(location, context(opener));
      assert.deepEqual(
        opener.probed,
        ['.ovr', '.msk', '.msk.ovr', '.aux.xml'].map((s) => `${location}${s}`),
        location,
      );
    }
  });
});

describe('per-dataset derived values', () => {
  it('palette: built once, the colormap of every read, equal to rasterio’s colormap', async () => {
    const ds = await openTiffGrid('/data/palette_3413.tif', context(fakeOpener('palette_3413.tif')));
    const want = expected.files['palette_3413.tif']!.info.colormap!;
    assert.ok(ds.colormap);
    assert.equal(ds.colormap.size, Object.keys(want).length);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(ds.colormap.get(Number(k)), v, `entry ${k}`);
    const reader = new GridReader(ds, { maxReadPixels: 1 << 24 });
    const a = await reader.preview({ maxSize: 32 });
    const b = await reader.preview({ maxSize: 16 });
    assert.equal(a.colormap, ds.colormap);
    assert.equal(b.colormap, ds.colormap);
  });

  it('statistics tags: parsed once, equal to rasterio’s minmax, unscaled per read without touching the dataset', async () => {
    const ds = await openTiffGrid('/data/int16_scale_laea.tif', context(fakeOpener('int16_scale_laea.tif')));
    assert.deepEqual(
      ds.bands.map((b) => b.statistics),
      expected.files['int16_scale_laea.tif']!.info.minmax,
    );
    assert.ok(Object.isFrozen(ds.bands[0]!.statistics));
    const reader = new GridReader(ds, { maxReadPixels: 1 << 24 });
    const raw = await reader.preview({ maxSize: 16 });
    assert.deepEqual(raw.datasetStatistics, [[-1500, 2500]]);
    const band = ds.bands[0]!;
    const unscaled = await reader.preview({ maxSize: 16, unscale: true });
    assert.deepEqual(unscaled.datasetStatistics, [[-1500 * band.scale + band.offset, 2500 * band.scale + band.offset]]);
    assert.deepEqual(
      ds.bands.map((b) => b.statistics),
      [[-1500, 2500]],
      'the dataset’s values are unchanged',
    );
  });

  it('the native grid in a TMS CRS is computed once per dataset and shared by every request’s reader', async () => {
    const ds = await openTiffGrid('/data/float32_nan_4326.tif', context(fakeOpener('float32_nan_4326.tif')));
    const tms = getTileMatrixSet('WebMercatorQuad');
    const t = tms.tileAt(5, 47, 4, true);
    const limits = { maxReadPixels: 1 << 24 };
    const a = await new GridReader(ds, limits).tile(tms, t.x, t.y, t.z, {});
    assert.equal(nativeGrids(ds).size, 1);
    const grid = nativeGrids(ds).get(tms.crs.id)!;
    assert.ok(Object.isFrozen(grid));
    const b = await new GridReader(ds, limits).tile(tms, t.x, t.y, t.z, {});
    assert.equal(nativeGrids(ds).size, 1);
    assert.equal(nativeGrids(ds).get(tms.crs.id), grid, 'the second reader used the cached grid');
    assert.deepEqual(b.bands, a.bands);
    assert.deepEqual(b.masks, a.masks);
  });

  it('boundsIn returns arrays the caller may modify', async () => {
    const ds = await openTiffGrid('/data/float32_nan_4326.tif', context(fakeOpener('float32_nan_4326.tif')));
    const reader = new GridReader(ds, { maxReadPixels: 1 << 24 });
    const b = reader.boundsIn(ds.crs);
    assert.deepEqual(b, [-10, 40, 20, 55]);
    b[0] = 999;
    assert.deepEqual(reader.bounds, [-10, 40, 20, 55]);
    assert.deepEqual(reader.boundsIn(ds.crs), [-10, 40, 20, 55]);
  });
});
