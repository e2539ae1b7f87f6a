/**
 * /zarr over real Zarr stores (test/fixtures/zarr, scripts/fixtures/zarr_stores.py): listings,
 * a point read against zarr-python's values, and a corrupt chunk as a JSON 400 with the server alive.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const EXPECTED = JSON.parse(readFileSync(fixture('zarr', 'expected.json'), 'utf8')) as Record<
  string,
  { arrays: Record<string, { values: (number | null)[] }> }
>;
const V2 = q(fixture('zarr', 'v2.zarr'));
const V3 = q(fixture('zarr', 'v3.zarr'));

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('/zarr/variables lists the arrays of v2 and v3 stores (consolidated and walked)', async () => {
  const v2 = await server.getJson<string[]>(`/zarr/variables?url=${V2}`);
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  assert.ok(v2.body.includes('sst'), JSON.stringify(v2.body));
  const plain = await server.getJson<string[]>(`/zarr/variables?url=${q(fixture('zarr', 'v2_plain.zarr'))}`);
  assert.equal(plain.status, 200, JSON.stringify(plain.body));
  assert.ok(plain.body.includes('sst'));
  const v3 = await server.getJson<string[]>(`/zarr/variables?url=${V3}`);
  assert.equal(v3.status, 200, JSON.stringify(v3.body));
  assert.ok(v3.body.includes('temp'), JSON.stringify(v3.body));
});

test('/zarr/point reads a Zarr v2 value (lat/lon coordinates, time selection)', async () => {
  // lat = linspace(-10, 9, 20) (1° steps), lon = linspace(100, 129, 30); sst[t=1, lat=5 (-5°), lon=7 (107°)].
  const r = await server.getJson<{ values: number[] }>(`/zarr/point/107,-5?url=${V2}&variable=sst&sel=time=2020-01-02`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const want = EXPECTED['v2.zarr']!.arrays['sst']!.values[1 * 600 + 5 * 30 + 7]!;
  assert.ok(Math.abs(r.body.values[0]! - want) < 1e-5, `${r.body.values[0]} vs ${want}`);
});

test('an unknown variable and a missing store are JSON errors', async () => {
  const bad = await server.getJson<{ detail: string }>(`/zarr/info?url=${V2}&variable=nope`);
  assert.ok(bad.status >= 400 && bad.status < 500, String(bad.status));
  assert.match(bad.body.detail, /nope/);
  const missing = await server.getJson<{ detail: string }>(`/zarr/variables?url=${q(fixture('zarr', 'none.zarr'))}`);
  assert.equal(missing.status, 404, JSON.stringify(missing.body));
});
