/**
 * Zarr stores without consolidated metadata over loopback HTTP (no listing there): the v2 store
 * zarr-python 2.13 wrote without `consolidate_metadata` and the hand-written v3 store without
 * `consolidated_metadata` are opened from the variables a request names — their own metadata,
 * then their dimensions' coordinate arrays — and give the values zarr-python read at fixture
 * time (test/fixtures/zarr/expected.json); listings without a variable are a 400 saying what to pass.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXPECTED } from '../formats/zarr/zarr-helpers.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

let data: RangeServer;
let server: TestServer;
before(async () => {
  data = await startRangeServer({ root: fixture('zarr'), validators: 'etag' });
  server = await startTestServer();
});
after(async () => {
  await server.close();
  await data.close();
});

const sst = EXPECTED['v2_plain.zarr']!.arrays['sst']!.values as Array<number | null>;

describe('Zarr v2 without .zmetadata over HTTP', () => {
  it('a point of sst: every time step as zarr-python reads it, coordinates found from _ARRAY_DIMENSIONS', async () => {
    const url = q(`${data.url}/v2_plain.zarr`);
    const first = data.requests.length;
    // lat = -10…9 (step 1), lon = 100…129: (105, -5) is column 5, row 5.
    const r = await server.getJson<{ values: number[]; band_names: string[] }>(`/zarr/point/105,-5?url=${url}&variable=sst`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const want = [0, 1, 2].map((t) => sst[t * 600 + 5 * 30 + 5]!);
    r.body.values.forEach((v, i) => assert.ok(Math.abs(v - want[i]!) < 1e-6, `time ${i}: ${v} vs ${want[i]}`));
    const paths = new Set(data.requests.slice(first).map((x) => x.path));
    for (const doc of ['sst/.zarray', 'sst/.zattrs', 'lat/.zarray', 'lon/.zarray', 'time/.zarray']) assert.ok(paths.has(`/v2_plain.zarr/${doc}`), doc);
  });

  it('bands described by the time coordinate as xarray prints it (datetime64[ns])', async () => {
    const r = await server.getJson<{ band_descriptions: string[][] }>(`/zarr/info?url=${q(`${data.url}/v2_plain.zarr`)}&variable=sst`);
    // [str(t) for t in xr.open_zarr(store, consolidated=False).sst.time.values] gives these, except
    // 'NaT' for the first: zarr-python stored fill_value 0 for the int64 time array and xarray
    // masks it (time 0 = 2020-01-01); coordinate variables are not masked here.
    assert.deepEqual(r.body.band_descriptions, [
      ['b1', '2020-01-01T00:00:00.000000000'],
      ['b2', '2020-01-02T00:00:00.000000000'],
      ['b3', '2020-01-03T00:00:00.000000000'],
    ]);
  });

  it('a time selection on the decoded CF time axis', async () => {
    const r = await server.getJson<{ values: number[] }>(`/zarr/point/105,-5?url=${q(`${data.url}/v2_plain.zarr`)}&variable=sst&sel=time=2020-01-02`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(Math.abs(r.body.values[0]! - sst[600 + 5 * 30 + 5]!) < 1e-6);
  });

  it('listings without a variable: a 400 naming what to pass; an unknown variable: a 400 naming it', async () => {
    const url = q(`${data.url}/v2_plain.zarr`);
    for (const p of ['/zarr/variables', '/zarr/dataset/keys', '/zarr/dataset/dict']) {
      const r = await server.getJson<{ detail: string }>(`${p}?url=${url}`);
      assert.equal(r.status, 400, p);
      assert.match(r.body.detail, /no consolidated metadata \(\.zmetadata.*variable=/, p);
    }
    const bad = await server.getJson<{ detail: string }>(`/zarr/info?url=${url}&variable=nope`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /Variable 'nope' not found in the Zarr store .*cannot be listed/);
    // A later request for the real variable still opens (the store is probed again for it).
    assert.equal((await server.get(`/zarr/info?url=${url}&variable=sst`)).status, 200);
  });
});

describe('Zarr v3 without consolidated_metadata over HTTP', () => {
  it('info of temp (no coordinate arrays: index axes) and of grp/be_zstd by group', async () => {
    const url = q(`${data.url}/v3_plain.zarr`);
    const temp = await server.getJson<{ width: number; height: number; count: number; dtype: string }>(`/zarr/info?url=${url}&variable=temp`);
    assert.equal(temp.status, 200, JSON.stringify(temp.body));
    assert.deepEqual([temp.body.width, temp.body.height, temp.body.count, temp.body.dtype], [12, 10, 4, 'float32']);
    const be = await server.getJson<{ width: number; height: number; dtype: string }>(`/zarr/info?url=${url}&group=grp&variable=be_zstd`);
    assert.equal(be.status, 200, JSON.stringify(be.body));
    assert.deepEqual([be.body.width, be.body.height, be.body.dtype], [12, 10, 'float64']); // int32 with a fill value: masked, float64 as xarray makes it
    // Concurrent first opens for different variables share one open; the one it lacks opens again.
    const fresh = q(`${data.url}/v3_plain.zarr/`); // another location string: not yet opened
    const both = await Promise.all([
      server.getJson<{ width: number }>(`/zarr/info?url=${fresh}&variable=temp`),
      server.getJson<{ width: number }>(`/zarr/info?url=${fresh}&group=grp&variable=be_zstd`),
    ]);
    assert.deepEqual(
      both.map((r) => [r.status, r.body.width]),
      [
        [200, 12],
        [200, 12],
      ],
    );
    const list = await server.getJson<{ detail: string }>(`/zarr/variables?url=${url}`);
    assert.equal(list.status, 400);
    assert.match(list.body.detail, /consolidated_metadata in zarr\.json/);
  });
});
