/**
 * A chunk larger than what one request may hold (RASTILE limits.maxRequestBytes) is a clear 400
 * naming the variable, its chunk shape and the limit, before any chunk is read; the server stays up.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
before(async () => {
  // sst of v2.zarr is stored in chunks of 1×8×16 float32 (512 bytes decoded)
  server = await startTestServer((c) => {
    c.limits.maxRequestBytes = 400;
  });
});
after(() => server.close());

test('a chunk over the request budget: 400 naming it; a small one still reads', async () => {
  const url = q(fixture('zarr', 'v2.zarr'));
  const r = await server.getJson<{ detail: string }>(`/zarr/point/105,-5?url=${url}&variable=sst`);
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.match(r.body.detail, /Variable '\/sst' is stored in chunks of 1×8×16 float32 \(512 bytes decoded\), over the 400-byte chunk limit/);
  const ok = await server.getJson<{ values: number[] }>(`/zarr/point/-157.5,45?url=${q(fixture('zarr', 'dtypes.zarr'))}&variable=half`);
  assert.equal(ok.status, 200, JSON.stringify(ok.body)); // 4×4 float32 chunks (64 bytes)
});
