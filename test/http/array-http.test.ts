/**
 * Array datasets over loopback HTTP with Range requests: the NetCDF-4 and NetCDF-3 fixtures read
 * through an http(s) source give the values they give locally (xarray's), every request is a
 * ranged read, and a second, different read of the same file sends no request at all (metadata,
 * coordinates and chunks are cached).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { parseNpy } from '../helpers/npy.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const EXPECTED = JSON.parse(readFileSync(fixture('array', 'expected.json'), 'utf8')) as { sst: { feb: Array<number | null> } };

let data: RangeServer;
let server: TestServer;
before(async () => {
  // ETags: a source whose responses carry no validator is opened again on every use (never stale).
  data = await startRangeServer({ root: fixture('array'), validators: 'etag' });
  server = await startTestServer();
});
after(async () => {
  await server.close();
  await data.close();
});

async function values(path: string): Promise<Array<number | null>> {
  const r = await server.get(path);
  assert.equal(r.status, 200, await r.clone().text());
  const img = parseNpy(Buffer.from(await r.arrayBuffer()));
  const n = img.shape[1] * img.shape[2];
  return Array.from({ length: n }, (_, i) => (img.data[n + i] > 0 ? img.data[i] : null));
}

for (const name of ['sst-nc4.nc', 'sst-nc3.nc']) {
  test(`${name} over HTTP: the local values, ranged reads only, nothing fetched again for a second read (ETag-validated)`, async () => {
    const url = q(`${data.url}/${name}`);
    const got = await values(`/zarr/bbox/-180,-90,180,90/36x18.npy?url=${url}&variable=sst&sel=time=2000-02-01`);
    got.forEach((v, i) => {
      const want = EXPECTED.sst.feb[i];
      assert.ok(want === null ? v === null : v !== null && Math.abs(v - want) < 1e-4, `pixel ${i}: ${v} vs ${want}`);
    });
    const sent = data.requestsFor(`/${name}`);
    assert.ok(sent.length > 0);
    for (const r of sent) assert.match(r.range ?? '', /^bytes=\d+-\d+$/, 'every request is ranged');
    const before = sent.length;
    await values(`/zarr/bbox/0,0,90,45/9x5.npy?url=${url}&variable=sst&sel=time=2000-02-01`);
    assert.equal(data.requestsFor(`/${name}`).length, before, 'a second read of the same file sends no request');
  });
}
