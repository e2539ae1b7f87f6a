/**
 * Zarr stores and a NetCDF-3 file over loopback HTTP with Range: the same values as local, and
 * the request log shows the metadata read once and then only the chunks a read needs.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openNetcdf3 } from '../../../src/formats/netcdf3/open-netcdf3.ts';
import { openZarr, type OpenSource } from '../../../src/formats/zarr/open-zarr.ts';
import { createSourceOpener, type ManagedSourceOpener } from '../../../src/sources/open-source.ts';
import { DEFAULT_SOURCE_OPTIONS } from '../../../src/sources/options.ts';
import { startRangeServer, type RangeServer } from '../../helpers/http-range-server.ts';
import { EXPECTED, readAll, variableAt, ZARR_DIR } from './zarr-helpers.ts';

const FIXTURES = path.resolve(ZARR_DIR, '..');
let server: RangeServer;
let sources: ManagedSourceOpener;
const open: OpenSource = (loc, signal, first) => sources.open(loc, signal, first);
const openers: ManagedSourceOpener[] = [];
/** An opener with empty caches, so the request log shows every read. */
function freshOpener(): OpenSource {
  const o = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [], allowPrivateHosts: true, retries: 0, s3: { region: 'us-east-1' } });
  openers.push(o);
  return (loc, signal, first) => o.open(loc, signal, first);
}

before(async () => {
  server = await startRangeServer({ root: FIXTURES, validators: 'etag' });
  sources = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [], allowPrivateHosts: true, retries: 0, s3: { region: 'us-east-1' } });
});
after(async () => {
  await sources.close();
  for (const o of openers) await o.close();
  await server.close();
});

describe('Zarr over HTTP', () => {
  for (const store of ['v2.zarr', 'v3.zarr']) {
    it(`${store}: every value equals the local read`, async () => {
      const file = await openZarr(`${server.url}/zarr/${store}`, open);
      assert.match(file.version, /^etag:"/); // the ETag of the metadata document
      for (const [p, ea] of Object.entries(EXPECTED[store]!.arrays)) {
        if (ea.values === null || ea.dtype.startsWith('<U')) continue;
        const got = await readAll(variableAt(file, p));
        assert.deepEqual(got.values, ea.values, p);
      }
    });
  }

  for (const store of ['v2_plain.zarr', 'v3_plain.zarr']) {
    it(`${store} (no consolidated metadata, no listing): opened for the named variables, their values equal zarr-python's`, async () => {
      const names = Object.keys(EXPECTED[store]!.arrays).filter((p) => !['lat', 'lon', 'time'].includes(p));
      const file = await openZarr(`${server.url}/zarr/${store}`, freshOpener(), undefined, { hints: names });
      assert.deepEqual(file.probed, names);
      for (const [p, ea] of Object.entries(EXPECTED[store]!.arrays)) {
        // lat/lon/time were not named: found as sst's dimensions.
        const got = await readAll(variableAt(file, p));
        assert.deepEqual(got.values, ea.values, p);
      }
      await assert.rejects(openZarr(`${server.url}/zarr/${store}`, freshOpener()), { kind: 'BadRequest', message: /variable=/ });
    });
  }

  it('opening reads the metadata document only; a chunk read fetches that chunk only', async () => {
    const fresh = freshOpener();
    const first = server.requests.length;
    const file = await openZarr(`${server.url}/zarr/v2.zarr`, fresh);
    assert.deepEqual(
      server.requests.slice(first).map((r) => r.path),
      ['/zarr/v2.zarr/zarr.json', '/zarr/v2.zarr/.zmetadata'],
    );
    const v = variableAt(file, 'sst');
    const before = server.requests.length;
    const chunk = await v.readChunk([1, 1, 0]);
    assert.equal(chunk?.length, 8 * 16);
    assert.deepEqual(
      server.requests.slice(before).map((r) => r.path),
      ['/zarr/v2.zarr/sst/1.1.0'],
    );
    const again = server.requests.length;
    await v.readChunk([1, 1, 0]);
    assert.equal(server.requests.length, again, 'a chunk read again comes from the byte cache');
    const missingBefore = server.requests.length;
    assert.equal(await v.readChunk([2, 2, 0]), null);
    assert.deepEqual(
      server.requests.slice(missingBefore).map((r) => r.path),
      ['/zarr/v2.zarr/sst/2.2.0'],
    );
  });

  it('a chunk over 64 KiB is one request (the open reads the chunk, no header probe first)', async () => {
    // An uncompressed Zarr v2 uint8 array of one 300×400 chunk (120 000 bytes), written here:
    // the oracle is the bytes themselves.
    const dir = await mkdtemp(path.join(tmpdir(), 'rastile-zarr-big-'));
    const bytes = new Uint8Array(300 * 400).map((_, i) => (i * 31 + (i >> 9)) & 255);
    await writeFile(path.join(dir, '.zgroup'), JSON.stringify({ zarr_format: 2 }));
    await mkdir(path.join(dir, 'big'));
    const zarray = { zarr_format: 2, shape: [300, 400], chunks: [300, 400], dtype: '|u1', compressor: null, fill_value: 0, filters: null, order: 'C' };
    await writeFile(path.join(dir, 'big', '.zarray'), JSON.stringify(zarray));
    await writeFile(path.join(dir, 'big', '0.0'), bytes);
    const metadata = { '.zgroup': { zarr_format: 2 }, 'big/.zarray': zarray };
    await writeFile(path.join(dir, '.zmetadata'), JSON.stringify({ zarr_consolidated_format: 1, metadata }));
    const local = await startRangeServer({ root: dir, validators: 'etag' });
    try {
      const file = await openZarr(`${local.url}`, freshOpener());
      const v = variableAt(file, 'big');
      const before = local.requests.length;
      assert.deepEqual(await v.readChunk([0, 0]), bytes);
      assert.deepEqual(
        local.requests.slice(before).map((r) => `${r.path} ${r.range ?? ''}`),
        ['/big/0.0 bytes=0-8388607'],
      );
    } finally {
      await local.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a sharded chunk is read with two ranges of the shard (index, then the inner chunk)', async () => {
    const file = await openZarr(`${server.url}/zarr/v3.zarr`, freshOpener());
    const v = variableAt(file, 'sharded');
    const before = server.requests.length;
    await v.readChunk([1, 0]);
    const reqs = server.requests.slice(before);
    assert.ok(reqs.every((r) => r.path === '/zarr/v3.zarr/sharded/c/0/0' && r.range !== undefined));
    assert.ok(reqs.length <= 2, `${reqs.length} requests`);
  });

  it('a chunk the server fails on is an upstream error, and the store stays readable', async () => {
    const failing = await startRangeServer({ root: FIXTURES, status: (p) => (p === '/zarr/v3.zarr/temp/c/1/0/0' ? 500 : undefined) });
    try {
      const file = await openZarr(`${failing.url}/zarr/v3.zarr`, freshOpener());
      const v = variableAt(file, 'temp');
      await assert.rejects(v.readChunk([1, 0, 0]), (err: Error & { kind?: string; context?: object }) => {
        assert.equal(err.kind, 'UpstreamError');
        JSON.stringify({ detail: err.message, ...err.context });
        return true;
      });
      assert.equal((await v.readChunk([0, 0, 0]))?.length, 50);
    } finally {
      await failing.close();
    }
  });
});

describe('NetCDF-3 over HTTP', () => {
  it('equals the local read and reads one range per chunk', async () => {
    const src = await open(`${server.url}/netcdf3/classic.nc`);
    const nc = await openNetcdf3(src, undefined, { chunkBytes: 28 });
    const v = nc.root.variables.get('precip')!;
    const { values } = await readAll(v);
    const expected = (
      JSON.parse((await import('node:fs')).readFileSync(path.join(FIXTURES, 'netcdf3/expected.json'), 'utf8')) as Record<
        string,
        { variables: Record<string, { values: number[] }> }
      >
    )['classic.nc']!;
    assert.deepEqual(values, expected.variables['precip']!.values);
  });
});
