/**
 * Zarr stores at a location with a query string (a presigned URL, `?token=`): every key is
 * appended to the path part and every key request carries the query. The local HTTP server
 * answers 403 to any request without the token, so a key request that lost it fails the read.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { FIXTURES, fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const EXPECTED = JSON.parse(readFileSync(fixture('zarr', 'expected.json'), 'utf8')) as Record<
  string,
  { arrays: Record<string, { values: (number | null)[] }> }
>;
const TOKEN = { 'X-Amz-Signature': 'abc/def+1=', token: 'secret' };
const QUERY = `?${new URLSearchParams(TOKEN).toString()}`;

let http: RangeServer;
let server: TestServer;
before(async () => {
  http = await startRangeServer({ root: FIXTURES, requireQuery: TOKEN, validators: 'etag' });
  server = await startTestServer();
});
after(async () => {
  await server.close();
  await http.close();
});

const storeUrl = (name: string): string => `${http.url}/zarr/${name}${QUERY}`;

function assertEveryRequestSigned(): void {
  assert.ok(http.requests.length > 0);
  for (const r of http.requests) assert.ok(r.url.endsWith(QUERY), `request without the query: ${r.url}`);
  http.requests.length = 0;
}

test('/zarr/variables of signed v2 and v3 stores (consolidated metadata)', async () => {
  for (const [name, variable] of [
    ['v2.zarr', 'sst'],
    ['v3.zarr', 'temp'],
  ] as const) {
    const r = await server.getJson<string[]>(`/zarr/variables?url=${q(storeUrl(name))}`);
    assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
    assert.ok(r.body.includes(variable), `${name}: ${JSON.stringify(r.body)}`);
  }
  assertEveryRequestSigned();
});

test('/zarr/info of a named variable of a signed unconsolidated store (probed keys keep the query)', async () => {
  const r = await server.getJson<Record<string, unknown>>(`/zarr/info?url=${q(storeUrl('v2_plain.zarr'))}&variable=sst`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.ok(
    http.requests.some((x) => x.path === '/zarr/v2_plain.zarr/sst/.zarray'),
    http.requests.map((x) => x.url).join('\n'),
  );
  assertEveryRequestSigned();
});

test('/zarr/point reads a value of a signed store (zarr-python oracle), keys on the path, query kept', async () => {
  const r = await server.getJson<{ values: number[] }>(`/zarr/point/107,-5?url=${q(storeUrl('v2.zarr'))}&variable=sst&sel=time=2020-01-02`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const want = EXPECTED['v2.zarr']!.arrays['sst']!.values[1 * 600 + 5 * 30 + 7]!;
  assert.ok(Math.abs(r.body.values[0]! - want) < 1e-5, `${r.body.values[0]} vs ${want}`);
  assert.ok(
    http.requests.some((x) => x.path === '/zarr/v2.zarr/.zmetadata' || x.path.startsWith('/zarr/v2.zarr/sst/')),
    http.requests.map((x) => x.url).join('\n'),
  );
  assertEveryRequestSigned();
});

test('an unconsolidated signed store without a variable: the 400 names the store, not its signature', async () => {
  const r = await server.getJson<{ detail: string }>(`/zarr/variables?url=${q(storeUrl('v2_plain.zarr'))}`);
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.match(r.body.detail, new RegExp(`The Zarr store at ${http.url}/zarr/v2_plain.zarr has no consolidated metadata`));
  assert.doesNotMatch(r.body.detail, /secret|X-Amz/);
  http.requests.length = 0;
});

test('without the token the store is a 403, not a missing store', async () => {
  const r = await server.getJson<{ detail: string }>(`/zarr/variables?url=${q(`${http.url}/zarr/v2.zarr?token=wrong`)}`);
  assert.equal(r.status, 403, JSON.stringify(r.body));
});
