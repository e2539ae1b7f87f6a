/**
 * Every validation failure is a FastAPI-shaped 422: {"detail":[{"type","loc","msg","input",…}]}.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ValidationIssue as Issue } from '../../src/http/validation/issues.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
const url = q(fixture('datasets', 'uint16_nodata_utm.tif'));

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

async function expect422(path: string, init?: RequestInit): Promise<Issue[]> {
  const r = await server.get(path, init);
  const text = await r.text();
  assert.equal(r.status, 422, `${path} → ${r.status} ${text}`);
  assert.match(r.headers.get('content-type') ?? '', /application\/json/);
  const body = JSON.parse(text) as { detail: Issue[] };
  assert.ok(Array.isArray(body.detail) && body.detail.length > 0);
  for (const d of body.detail) {
    assert.equal(typeof d.type, 'string');
    assert.ok(Array.isArray(d.loc));
    assert.equal(typeof d.msg, 'string');
    assert.ok('input' in d);
  }
  return body.detail;
}

describe('422 validation errors', () => {
  it('missing url', async () => {
    const [d] = await expect422('/cog/info');
    assert.deepEqual(d, { type: 'missing', loc: ['query', 'url'], msg: 'Field required', input: null });
  });

  it('wrong integer types, with the list index in loc', async () => {
    const issues = await expect422(`/cog/statistics?url=${url}&bidx=1&bidx=a&max_size=big`);
    assert.deepEqual(
      issues.map((i) => [i.type, i.loc]),
      [
        ['int_parsing', ['query', 'bidx', 1]],
        ['int_parsing', ['query', 'max_size']],
      ],
    );
    assert.equal(issues[0].input, 'a');
  });

  it('bidx=1,2 is not an integer (repeat the key instead)', async () => {
    const [d] = await expect422(`/cog/statistics?url=${url}&bidx=1,2`);
    assert.equal(d.type, 'int_parsing');
  });

  it('values outside enums', async () => {
    const [d] = await expect422(`/cog/statistics?url=${url}&resampling=somethingwrong`);
    assert.equal(d.type, 'literal_error');
    assert.deepEqual(d.loc, ['query', 'resampling']);
    assert.match(d.msg, /^Input should be 'nearest', 'bilinear', .* or 'rms'$/);
    const [r] = await expect422(`/cog/statistics?url=${url}&reproject=q5`);
    assert.deepEqual(r.loc, ['query', 'reproject']);
    const [a] = await expect422(`/cog/statistics?url=${url}&algorithm=hillshad`);
    assert.deepEqual(a.loc, ['query', 'algorithm']);
  });

  it('booleans accept pydantic forms only', async () => {
    const [d] = await expect422(`/cog/statistics?url=${url}&unscale=maybe`);
    assert.equal(d.type, 'bool_parsing');
  });

  it('nodata must be nan/inf/-inf or a number', async () => {
    const [d] = await expect422(`/cog/statistics?url=${url}&nodata=invalid-value`);
    assert.equal(d.type, 'value_error');
    assert.deepEqual(d.loc, ['query', 'nodata']);
  });

  it('percentiles are integers', async () => {
    const [d] = await expect422(`/cog/statistics?url=${url}&p=2.5`);
    assert.deepEqual(d.loc, ['query', 'p', 0]);
  });

  it('histogram_bins pattern and histogram_range rules', async () => {
    const [b] = await expect422(`/cog/statistics?url=${url}&histogram_bins=-3`);
    assert.equal(b.type, 'string_pattern_mismatch');
    assert.deepEqual(b.ctx, { pattern: '^\\d+(,\\d+)*$' });
    const [r1] = await expect422(`/cog/statistics?url=${url}&histogram_range=8`);
    assert.equal(r1.type, 'string_pattern_mismatch');
    const [r2] = await expect422(`/cog/statistics?url=${url}&histogram_range=10,5`);
    assert.equal(r2.type, 'value_error');
    assert.deepEqual(r2.loc, ['query', 'histogram_range']);
    const [e] = await expect422(`/cog/statistics?url=${url}&histogram_bins=5,3,9`);
    assert.equal(e.type, 'value_error');
  });

  it('algorithm_params must be JSON', async () => {
    const [d] = await expect422(`/cog/statistics?url=${url}&algorithm=hillshade&algorithm_params=${q('{oops')}`);
    assert.equal(d.msg, 'Value error, invalid JSON content');
  });

  it('cover_scale must be in 1..1000', async () => {
    const feature = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [0, 0] } };
    for (const [v, type] of [
      ['0', 'greater_than'],
      ['1001', 'less_than_equal'],
    ] as const) {
      const r = await server.post(`/cog/statistics?url=${url}&cover_scale=${v}`, feature);
      assert.equal(r.status, 422);
      const body = (await r.json()) as { detail: Issue[] };
      assert.equal(body.detail[0].type, type);
      assert.deepEqual(body.detail[0].loc, ['query', 'cover_scale']);
    }
  });

  it('a body that is not a Feature or FeatureCollection', async () => {
    for (const body of [
      { type: 'Point', coordinates: [0, 0] },
      [1, 2],
      {
        type: 'Feature',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
            ],
          ],
        },
      },
    ]) {
      const r = await server.post(`/cog/statistics?url=${url}`, body);
      assert.equal(r.status, 422, JSON.stringify(body));
      const parsed = (await r.json()) as { detail: Issue[] };
      assert.equal(parsed.detail[0].loc[0], 'body');
    }
    const r = await fetch(`${server.url}/cog/statistics?url=${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    assert.equal(r.status, 422);
    const parsed = (await r.json()) as { detail: Issue[] };
    assert.equal(parsed.detail[0].type, 'json_invalid');
  });

  it('unknown tile matrix set', async () => {
    const [d] = await expect422(`/cog/tiles/WebMercatorQua?url=${url}`);
    assert.equal(d.type, 'literal_error');
    assert.deepEqual(d.loc, ['path', 'tileMatrixSetId']);
    assert.match(d.msg, /'WebMercatorQuad'/);
    const [t] = await expect422('/tileMatrixSets/WebMercatorQua');
    assert.deepEqual(t.loc, ['path', 'tileMatrixSetId']);
  });

  it('invalid CRS', async () => {
    const [d] = await expect422(`/cog/info.geojson?url=${url}&crs=invalid`);
    assert.equal(d.msg, 'Value error, invalid CRS format');
    assert.deepEqual(d.loc, ['query', 'crs']);
  });

  it('f must be html or json', async () => {
    const [d] = await expect422(`/cog/tiles?url=${url}&f=xml`);
    assert.deepEqual(d.loc, ['query', 'f']);
  });

  it('reports every failing field at once', async () => {
    const issues = await expect422('/cog/statistics?max_size=x&categorical=maybe');
    assert.deepEqual(issues.map((i) => i.loc.join('.')).sort(), ['query.categorical', 'query.max_size', 'query.url']);
  });

  it('422 responses are not kept by caches (no-store: unlike TiTiler, issue 12)', async () => {
    const r = await server.get('/cog/info');
    assert.equal(r.status, 422);
    assert.equal(r.headers.get('cache-control'), 'no-store');
  });
});
