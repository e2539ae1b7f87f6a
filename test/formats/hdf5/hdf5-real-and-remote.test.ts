/**
 * The HDF5 reader on the real GHRSST GAMSSA granules (values checked against h5py, recorded in
 * test/fixtures/hdf5/gamssa.json by scripts/fixtures/make-hdf5-fixtures.py; skipped when
 * ../shared/fixtures is absent), and over loopback HTTP with Range: open plus one chunk
 * fetch only the ranges they need.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HEAD_BYTES } from '../../../src/formats/hdf5/file-context.ts';
import { openHdf5 } from '../../../src/formats/hdf5/open-hdf5.ts';
import { createSourceOpener } from '../../../src/sources/open-source.ts';
import { sourceOptionsFromEnv } from '../../../src/sources/options.ts';
import { startRangeServer, type RangeServer } from '../../helpers/http-range-server.ts';
import { fileSource } from '../file-source.ts';
import { SHARED } from '../../helpers/test-server.ts';
import { allVariables } from './read-all.ts';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');
const SHARED_DATA = path.join(SHARED, 'fixtures', 'cmr', 'data');

interface GamssaExpected {
  size: number;
  analysed_sst: {
    _FillValue: number;
    scale_factor: number;
    add_offset: number;
    units: string;
    shape: number[];
    chunks: number[];
    picks: number[][];
    sum: number;
  };
  sea_ice_fraction: { _FillValue: number; scale_factor: number; sum: number };
  lat: number[];
  lon: number[];
  title: string;
}

const gamssa = JSON.parse(readFileSync(path.join(DIR, 'gamssa.json'), 'utf8')) as Record<string, GamssaExpected>;
const granules = existsSync(SHARED_DATA)
  ? (readdirSync(SHARED_DATA, { recursive: true }) as string[]).filter((p) => path.basename(p) in gamssa).map((p) => path.join(SHARED_DATA, p))
  : [];

const sum = (a: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
};

describe(
  'GHRSST GAMSSA granules (real NetCDF-4: dense attributes, v1 B-tree, shuffle + deflate)',
  { skip: granules.length === 0 && 'no ../shared/fixtures' },
  () => {
    for (const file of granules) {
      it(path.basename(file), async () => {
        const exp = gamssa[path.basename(file)];
        const f = await openHdf5(await fileSource(file));
        assert.equal(f.driver, 'netCDF');
        assert.equal(f.root.attrs.title, exp.title);
        const vars = allVariables(f);
        const sst = vars.get('/analysed_sst')!;
        assert.deepEqual(sst.dims, ['time', 'lat', 'lon']);
        assert.deepEqual(sst.shape, exp.analysed_sst.shape);
        assert.deepEqual(sst.chunkShape, exp.analysed_sst.chunks);
        for (const k of ['_FillValue', 'scale_factor', 'add_offset', 'units'] as const) assert.equal(sst.attrs[k], exp.analysed_sst[k], `analysed_sst ${k}`);
        assert.equal(sst.fillValue, exp.analysed_sst._FillValue);
        const chunk = (await sst.readChunk([0, 0, 0]))!;
        assert.ok(chunk instanceof Int16Array);
        for (const [, y, x, value] of exp.analysed_sst.picks) assert.equal(chunk[y * 1440 + x], value, `analysed_sst[0, ${y}, ${x}]`);
        assert.equal(sum(chunk), exp.analysed_sst.sum);
        const ice = vars.get('/sea_ice_fraction')!;
        assert.equal(ice.attrs._FillValue, exp.sea_ice_fraction._FillValue);
        assert.equal(ice.attrs.scale_factor, exp.sea_ice_fraction.scale_factor);
        assert.equal(sum((await ice.readChunk([0, 0, 0]))!), exp.sea_ice_fraction.sum);
        assert.deepEqual(Array.from((await vars.get('/lat')!.readChunk([0]))!.slice(0, 3)), exp.lat);
        assert.deepEqual(Array.from((await vars.get('/lon')!.readChunk([0]))!.slice(-3)), exp.lon);
      });
    }
  },
);

describe('HDF5 over loopback HTTP with Range', () => {
  let server: RangeServer;
  let shared: RangeServer | null = null;
  before(async () => {
    server = await startRangeServer({ root: DIR });
    if (granules.length > 0) shared = await startRangeServer({ root: path.dirname(granules[0]) });
  });
  after(async () => {
    await server.close();
    await shared?.close();
  });
  const opener = () => createSourceOpener({ ...sourceOptionsFromEnv({}), allowPrivateHosts: true, retryBaseDelayMs: 1 });

  it('reads the same values as from the file, fetching only the ranges it needs', async () => {
    // A 64 KiB head (the default 256 KiB would hold this whole 77 KB file): the later reads show
    // that only the needed ranges are fetched.
    const src = await opener().open(`${server.url}/latest.h5`, undefined, { offset: 0, length: 64 * 1024 });
    const f = await openHdf5(src, undefined, { headBytes: 64 * 1024 });
    const remote = allVariables(f).get('/fixed_array')!;
    const local = allVariables(await openHdf5(await fileSource(path.join(DIR, 'latest.h5')))).get('/fixed_array')!;
    const [requests, bytes] = [src.stats!.requests, src.stats!.bytesFetched];
    assert.deepEqual(await remote.readChunk([1, 2]), await local.readChunk([1, 2]));
    // at most the fixed array header and data block pages, then the chunk: nothing else
    assert.ok(src.stats!.requests - requests <= 3, `${src.stats!.requests - requests} requests for one chunk`);
    assert.ok(src.stats!.bytesFetched - bytes <= 2 * 8192 + 64, `${src.stats!.bytesFetched - bytes} bytes for one chunk`);
    assert.ok(
      server.requests.every((r) => r.range !== undefined),
      'every request is a range request',
    );
    assert.ok(src.stats!.bytesFetched <= statSync(path.join(DIR, 'latest.h5')).size);
  });

  it('opens a GAMSSA granule and reads its first analysed_sst chunk in 2 requests', { skip: granules.length === 0 && 'no ../shared/fixtures' }, async () => {
    const name = path.basename(granules[0]);
    const src = await opener().open(`${shared!.url}/${name}`, undefined, { offset: 0, length: HEAD_BYTES });
    const f = await openHdf5(src);
    assert.equal(src.stats!.requests, 1, 'open: the head only (the opener reads it, openHdf5 finds it cached)');
    const sst = allVariables(f).get('/analysed_sst')!;
    const chunk = (await sst.readChunk([0, 0, 0]))!;
    assert.equal(sum(chunk), gamssa[name].analysed_sst.sum);
    assert.equal(src.stats!.requests, 2, 'one request for the chunk');
    // the 256 KiB head and the chunk (most of this 1 MB granule), never the whole file
    assert.ok(src.stats!.bytesFetched < gamssa[name].size, `${src.stats!.bytesFetched} bytes of ${gamssa[name].size}`);
    const ranges = shared!.requests.map((r) => r.range);
    assert.ok(ranges.every((r) => r !== undefined));
  });
});
