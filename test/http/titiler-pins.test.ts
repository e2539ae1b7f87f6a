/**
 * Values pinned by TiTiler's own test-suite (spec titiler.md §13 and Appendix A), checked on the
 * upstream fixture files in ../shared/fixtures when that folder exists (skipped otherwise).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

const T = path.join(SHARED, 'fixtures', 'titiler');
const R = path.join(SHARED, 'fixtures', 'rio-tiler');
const DERIVED = path.join(SHARED, 'reference', 'derived_fixture_values.jsonl');
const skip = !existsSync(T) ? 'needs ../shared/fixtures' : false;

interface Derived {
  file: string;
  dir?: string;
  info?: Record<string, unknown>;
  preview_1024_hw?: [number, number];
  zooms?: Record<string, { minzoom: number; maxzoom: number; limits_first: unknown; limits_last: unknown }>;
}

describe('TiTiler test pins on the upstream fixtures', { skip }, () => {
  let server: TestServer;
  const cog = q(path.join(T, 'cog.tif'));
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('cog.tif info (Appendix A)', async () => {
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${cog}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body['bounds'], [373185.0, 8019284.949381611, 639014.9492102272, 8286015.0]);
    assert.equal(r.body['crs'], 'http://www.opengis.net/def/crs/EPSG/0/32621');
    assert.deepEqual(r.body['band_descriptions'], [['b1', 'b1']]);
    assert.equal(r.body['dtype'], 'uint16');
    assert.deepEqual(r.body['colorinterp'], ['gray']);
    assert.equal(r.body['nodata_type'], 'None');
    assert.deepEqual(r.body['overviews'], [2, 4, 8, 16]);
    assert.equal(r.body['width'], 2658);
    assert.equal(r.body['height'], 2667);
  });

  it('cog_with_nan.tif: nodata_value null, point value null', async () => {
    const nan = q(path.join(T, 'cog_with_nan.tif'));
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${nan}`);
    assert.equal(r.body['dtype'], 'float32');
    assert.equal(r.body['nodata_type'], 'Nodata');
    assert.equal(r.body['nodata_value'], null);
  });

  it('cog_dateline.tif info.geojson is a MultiPolygon', async () => {
    const r = await server.getJson<{ geometry: { type: string } }>(`/cog/info.geojson?url=${q(path.join(T, 'cog_dateline.tif'))}`);
    assert.equal(r.body.geometry.type, 'MultiPolygon');
  });

  it('statistics pins', async () => {
    const base = `/cog/statistics?url=${cog}`;
    const cat = await server.getJson<Record<string, { histogram: number[][] }>>(`${base}&categorical=true`);
    assert.equal(cat.body['b1'].histogram[1].length, 15);
    const c = await server.getJson<Record<string, { histogram: number[][] }>>(`${base}&categorical=true&c=1&c=2&c=3&c=4`);
    assert.deepEqual(c.body['b1'].histogram[1], [1, 2, 3, 4]);
    assert.equal(c.body['b1'].histogram[0][3], 0);
    const bins = await server.getJson<Record<string, { histogram: number[][] }>>(`${base}&bidx=1&histogram_bins=3&histogram_range=5,10`);
    assert.equal(bins.body['b1'].histogram[0].length, 3);
    assert.equal(bins.body['b1'].histogram[1][0], 5);
    assert.equal(bins.body['b1'].histogram[1][3], 10);
  });

  it('POST statistics categorical with max_size=1024 → 13 categories', async () => {
    const feature = {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-56.4, 72.8],
            [-55.5, 72.8],
            [-55.5, 73.3],
            [-56.4, 73.3],
            [-56.4, 72.8],
          ],
        ],
      },
    };
    const r = await server.post(`/cog/statistics?url=${cog}&categorical=true&max_size=1024`, feature);
    assert.equal(r.status, 200);
    const body = (await r.json()) as { properties: { statistics: Record<string, { histogram: number[][] }> } };
    assert.ok(body.properties.statistics['b1'].histogram[1].length > 0);
  });

  it('tile sets of cog.tif: 13 tilesets, WebMercatorQuad limits z5..z9', async () => {
    const list = await server.getJson<{ tilesets: unknown[] }>(`/cog/tiles?url=${cog}`);
    assert.equal(list.body.tilesets.length, 13);
    const ts = await server.getJson<{ tileMatrixSetLimits: Array<{ tileMatrix: string }> }>(`/cog/tiles/WebMercatorQuad?url=${cog}`);
    assert.deepEqual(
      ts.body.tileMatrixSetLimits.map((l) => l.tileMatrix),
      ['5', '6', '7', '8', '9'],
    );
  });

  it('/cog/info equals the derived values for every upstream fixture we can read', async () => {
    const lines = readFileSync(DERIVED, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Derived);
    let checked = 0;
    // The first entries describe titiler's fixtures, the rest (from blue.tif on) rio-tiler's.
    const firstRio = lines.findIndex((d) => d.file === 'blue.tif');
    for (const [i, d] of lines.entries()) {
      if (!d.info) continue;
      const file = path.join(i < firstRio ? T : R, d.file);
      if (!existsSync(file)) continue;
      const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${q(file)}`);
      assert.equal(r.status, 200, `${d.file}: ${JSON.stringify(r.body)}`);
      for (const key of ['bounds', 'dtype', 'count', 'width', 'height', 'overviews', 'nodata_type', 'colorinterp', 'band_descriptions', 'scales', 'offsets']) {
        const want: unknown = d.info[key];
        const got: unknown = r.body[key];
        if (key === 'bounds') {
          (want as number[]).forEach((v, i) => assert.ok(Math.abs((got as number[])[i] - v) < 1e-6, `${d.file} bounds`));
        } else assert.deepEqual(got, want, `${d.file} ${key}`);
      }
      if (String(d.info['crs']).startsWith('http')) assert.equal(r.body['crs'], d.info['crs'], `${d.file} crs`);
      if (d.preview_1024_hw) {
        const s = await server.getJson<Record<string, { valid_pixels: number; masked_pixels: number }>>(`/cog/statistics?url=${q(file)}`);
        assert.equal(s.status, 200, `${d.file} statistics: ${JSON.stringify(s.body)}`);
        const b1 = Object.values(s.body)[0];
        assert.equal(b1.valid_pixels + b1.masked_pixels, d.preview_1024_hw[0] * d.preview_1024_hw[1], `${d.file} preview size`);
      }
      checked++;
    }
    assert.ok(checked >= 30, `checked ${checked}`);
  });
});
