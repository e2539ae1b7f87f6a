/**
 * /cog dataset endpoints against GDAL: info, info.geojson, GET and POST statistics, tile sets.
 * Expected values come from scripts/fixtures/datasets.py (rasterio 1.3 / GDAL 3.6.2).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { assertClose } from '../helpers/assert-close.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface Expected {
  files: Record<
    string,
    {
      info: Record<string, unknown>;
      wgs84_bounds: number[];
      statistics_default: { shape: number[]; stats: Record<string, Record<string, unknown>> };
      statistics_max64: { shape: number[]; stats: Record<string, Record<string, unknown>> };
      statistics_full_custom: { query: string; stats: Record<string, Record<string, unknown>> };
      statistics_categorical?: { query: string; stats: Record<string, Record<string, unknown>> };
      post_statistics_4326: { geometry: unknown; stats: Record<string, Record<string, number>> };
      post_statistics_native: { geometry: unknown; dst_crs: string; stats: Record<string, Record<string, number>> };
    }
  >;
}

const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as Expected;
const FILES = Object.keys(expected.files);

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

describe('GET /cog/info', () => {
  for (const name of FILES) {
    it(`${name} equals rasterio's info`, async () => {
      const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${q(fixture('datasets', name))}`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(r.body, expected.files[name].info);
    });
  }
});

describe('GET /cog/info.geojson', () => {
  for (const name of FILES) {
    it(`${name} footprint in EPSG:4326`, async () => {
      const r = await server.getJson<{ type: string; bbox: number[]; geometry: { type: string }; properties: unknown }>(
        `/cog/info.geojson?url=${q(fixture('datasets', name))}`,
      );
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/geo\+json/);
      assert.equal(r.body.type, 'Feature');
      assertClose(r.body.bbox, expected.files[name].wgs84_bounds, 1e-9, 'bbox');
      const [w, , e] = expected.files[name].wgs84_bounds;
      assert.equal(r.body.geometry.type, w > e ? 'MultiPolygon' : 'Polygon');
      assert.deepEqual(r.body.properties, expected.files[name].info);
    });
  }
  it('crs parameter returns bounds in that CRS', async () => {
    const r = await server.getJson<{ bbox: number[] }>(`/cog/info.geojson?url=${q(fixture('datasets', 'uint16_nodata_utm.tif'))}&crs=EPSG:32618`);
    assert.deepEqual(r.body.bbox, expected.files['uint16_nodata_utm.tif'].info['bounds']);
  });
});

describe('GET /cog/statistics equals GDAL-resampled statistics', () => {
  for (const name of FILES) {
    const e = expected.files[name];
    const cases: Array<[string, string, Record<string, Record<string, unknown>>]> = [
      ['default (max_size 1024)', '', e.statistics_default.stats],
      ['max_size=64 (overview)', '&max_size=64', e.statistics_max64.stats],
      ['full resolution, percentiles and bin edges', `&${e.statistics_full_custom.query}`, e.statistics_full_custom.stats],
    ];
    if (e.statistics_categorical) cases.push(['categorical with c', `&${e.statistics_categorical.query}`, e.statistics_categorical.stats]);
    for (const [label, query, stats] of cases) {
      it(`${name}: ${label}`, async () => {
        const r = await server.getJson<Record<string, unknown>>(`/cog/statistics?url=${q(fixture('datasets', name))}${query}`);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(Object.keys(r.body), Object.keys(stats));
        assertClose(r.body, stats, 1e-9, name);
      });
    }
  }
});

describe('POST /cog/statistics equals GDAL WarpedVRT feature statistics', () => {
  for (const name of FILES) {
    for (const key of ['post_statistics_4326', 'post_statistics_native'] as const) {
      it(`${name}: ${key}`, async () => {
        const e = expected.files[name][key];
        const dst = 'dst_crs' in e ? `&dst_crs=${q(e.dst_crs)}` : '';
        const r = await server.post(`/cog/statistics?url=${q(fixture('datasets', name))}${dst}`, {
          type: 'Feature',
          properties: { name: 'aoi' },
          geometry: e.geometry,
        });
        assert.equal(r.status, 200);
        assert.match(r.headers.get('content-type') ?? '', /^application\/geo\+json/);
        const body = (await r.json()) as { type: string; properties: { name: string; statistics: Record<string, Record<string, number>> } };
        assert.equal(body.type, 'Feature');
        assert.equal(body.properties.name, 'aoi');
        // Nearest-neighbour warps match GDAL up to the half-pixel choices of the approximate
        // transformer: compare the summary values with a small relative tolerance.
        for (const [band, st] of Object.entries(e.stats)) {
          const got = body.properties.statistics[band];
          for (const k of ['min', 'max', 'count', 'mean', 'median', 'std', 'valid_percent', 'valid_pixels', 'masked_pixels']) {
            assertClose(got[k], st[k], 1e-3, `${band}.${k}`);
          }
        }
      });
    }
  }

  it('FeatureCollection in, FeatureCollection out, one statistics block per feature', async () => {
    const e = expected.files['uint16_nodata_utm.tif'].post_statistics_4326;
    const feature = { type: 'Feature', properties: null, geometry: e.geometry };
    const r = await server.post(`/cog/statistics?url=${q(fixture('datasets', 'uint16_nodata_utm.tif'))}`, {
      type: 'FeatureCollection',
      features: [feature, feature],
    });
    assert.equal(r.status, 200);
    const body = (await r.json()) as { type: string; features: Array<{ properties: { statistics: Record<string, Record<string, number>> } }> };
    assert.equal(body.type, 'FeatureCollection');
    assert.equal(body.features.length, 2);
    for (const f of body.features) assertClose(f.properties.statistics['b1']['mean'], e.stats['b1']['mean'], 1e-3, 'mean');
  });

  it('cover_scale changes coverage weights but not min/max', async () => {
    const e = expected.files['uint16_nodata_utm.tif'].post_statistics_native;
    const body = { type: 'Feature', properties: {}, geometry: e.geometry };
    const base = `/cog/statistics?url=${q(fixture('datasets', 'uint16_nodata_utm.tif'))}&dst_crs=${q(e.dst_crs)}`;
    const a = (await (await server.post(`${base}&cover_scale=1`, body)).json()) as { properties: { statistics: { b1: Record<string, number> } } };
    const b = (await (await server.post(`${base}&cover_scale=50`, body)).json()) as { properties: { statistics: { b1: Record<string, number> } } };
    assert.equal(a.properties.statistics.b1['min'], b.properties.statistics.b1['min']);
    assert.equal(a.properties.statistics.b1['max'], b.properties.statistics.b1['max']);
    // cover_scale=1: every touched pixel weighs 1, so count = valid pixels
    assert.equal(a.properties.statistics.b1['count'], a.properties.statistics.b1['valid_pixels']);
    assert.ok(b.properties.statistics.b1['count'] < b.properties.statistics.b1['valid_pixels']);
  });
});

describe('statistics parameters (TiTiler pins)', () => {
  const url = q(fixture('datasets', 'uint16_nodata_utm.tif'));
  it('duplicate band names collapse', async () => {
    const r = await server.getJson<Record<string, { description: string; histogram: number[][] }>>(`/cog/statistics?url=${url}&bidx=1&bidx=1&bidx=1`);
    assert.deepEqual(Object.keys(r.body), ['b1']);
    assert.equal(r.body['b1'].description, 'b1');
    assert.equal(r.body['b1'].histogram[0].length, 10);
    assert.deepEqual(
      Object.keys(r.body['b1']).sort(),
      [
        'count',
        'description',
        'histogram',
        'majority',
        'masked_pixels',
        'max',
        'mean',
        'median',
        'min',
        'minority',
        'percentile_2',
        'percentile_98',
        'std',
        'sum',
        'unique',
        'valid_percent',
        'valid_pixels',
      ].sort(),
    );
  });
  it('expression: one output per block, described by its text', async () => {
    const r = await server.getJson<Record<string, { description: string; max: number }>>(`/cog/statistics?url=${url}&expression=${q('b1*2;b1+1')}`);
    assert.deepEqual(Object.keys(r.body), ['b1', 'b2']);
    assert.equal(r.body['b1'].description, 'b1*2');
    const plain = await server.getJson<Record<string, { max: number }>>(`/cog/statistics?url=${url}`);
    assert.equal(r.body['b1'].max, plain.body['b1'].max * 2);
    assert.equal(r.body['b2'].max, plain.body['b1'].max + 1);
  });
  it('percentiles replace the defaults', async () => {
    const r = await server.getJson<Record<string, Record<string, unknown>>>(`/cog/statistics?url=${url}&p=4&p=5`);
    assert.ok('percentile_4' in r.body['b1'] && 'percentile_5' in r.body['b1']);
    assert.ok(!('percentile_2' in r.body['b1']));
  });
  it('histogram bins and range', async () => {
    const r = await server.getJson<Record<string, { histogram: number[][] }>>(`/cog/statistics?url=${url}&histogram_bins=3&histogram_range=5000,10000`);
    assert.equal(r.body['b1'].histogram[0].length, 3);
    assert.equal(r.body['b1'].histogram[1][0], 5000);
    assert.equal(r.body['b1'].histogram[1][3], 10000);
  });
  it('nodata override and unscale', async () => {
    const a = await server.getJson<Record<string, { min: number; valid_pixels: number }>>(`/cog/statistics?url=${url}&nodata=1000`);
    const b = await server.getJson<Record<string, { min: number; valid_pixels: number }>>(`/cog/statistics?url=${url}`);
    assert.equal(a.body['b1'].min, 0); // 0 is data now
    assert.ok(a.body['b1'].valid_pixels > b.body['b1'].valid_pixels);
    const s = await server.getJson<Record<string, { min: number }>>(`/cog/statistics?url=${q(fixture('datasets', 'int16_scale_laea.tif'))}&unscale=true`);
    const raw = expected.files['int16_scale_laea.tif'].statistics_default.stats['b1']['min'] as number;
    assertClose(s.body['b1'].min, raw * 0.01 - 10, 1e-6, 'unscaled min');
  });
  it('width/height override max_size', async () => {
    const r = await server.getJson<Record<string, { valid_pixels: number; masked_pixels: number }>>(
      `/cog/statistics?url=${url}&width=100&height=50&max_size=10`,
    );
    assert.equal(r.body['b1'].valid_pixels + r.body['b1'].masked_pixels, 5000);
  });
  it('a band index beyond the band count is a 400', async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/statistics?url=${url}&bidx=2`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /band/i);
  });
  it('an expression that does not parse or names a missing band is a 400', async () => {
    for (const expr of ['b1+', 'b9*2', 'sqrt(', 'b1.constructor', '1+1']) {
      const r = await server.getJson<{ detail: string }>(`/cog/statistics?url=${url}&expression=${q(expr)}`);
      assert.equal(r.status, 400, `${expr}: ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.detail, 'string');
    }
  });
});

describe('GET /cog/tiles and /cog/tiles/{tms}', () => {
  const url = q(fixture('datasets', 'rgb_uint8_utm.tif'));
  it('lists the 13 tile sets with links', async () => {
    const r = await server.getJson<{
      tilesets: Array<{ title: string; crs: string; links: Array<{ rel: string; href: string }>; boundingBox: { lowerLeft: number[]; crs: string } }>;
    }>(`/cog/tiles?url=${url}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.tilesets.length, 13);
    assert.match(r.body.tilesets[0].title, /CDB1GlobalGrid/);
    const wmq = r.body.tilesets.find((t) => t.title.includes('WebMercatorQuad'))!;
    assert.equal(wmq.crs, 'http://www.opengis.net/def/crs/EPSG/0/3857');
    assert.deepEqual(
      wmq.links.map((l) => l.rel),
      ['self', 'tile', 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme'],
    );
    assert.ok(wmq.links[1].href.startsWith(`${server.url}/cog/tiles/WebMercatorQuad/{z}/{x}/{y}?url=`));
    assertClose(wmq.boundingBox.lowerLeft, expected.files['rgb_uint8_utm.tif'].wgs84_bounds.slice(0, 2), 1e-9, 'lowerLeft');
    assert.equal(wmq.boundingBox.crs, 'http://www.opengis.net/def/crs/EPSG/0/4326');
  });
  it('html when asked', async () => {
    const a = await server.get(`/cog/tiles?url=${url}&f=html`);
    assert.match(a.headers.get('content-type') ?? '', /text\/html/);
    const b = await server.get(`/cog/tiles?url=${url}`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.match(b.headers.get('content-type') ?? '', /text\/html/);
    const c = await server.get(`/cog/tiles?url=${url}`, { headers: { accept: '*/*' } });
    assert.match(c.headers.get('content-type') ?? '', /application\/json/);
  });
  it('tile set metadata with limits for the dataset zoom range', async () => {
    const r = await server.getJson<{
      tileMatrixSetLimits: Array<{ tileMatrix: string; minTileRow: number; maxTileRow: number }>;
      links: Array<{ rel: string }>;
      crs: string;
    }>(`/cog/tiles/WebMercatorQuad?url=${url}`);
    assert.equal(r.status, 200);
    assert.ok(r.body.tileMatrixSetLimits.length >= 1);
    assert.deepEqual(
      r.body.links.map((l) => l.rel),
      ['self', 'tile', 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme', 'data'],
    );
    const o = await server.getJson<{ tileMatrixSetLimits: Array<{ tileMatrix: string }> }>(`/cog/tiles/WebMercatorQuad?url=${url}&minzoom=5&maxzoom=6`);
    assert.deepEqual(
      o.body.tileMatrixSetLimits.map((l) => l.tileMatrix),
      ['5', '6'],
    );
  });
});

describe('tileMatrixSets', () => {
  it('lists 13 and serves each definition', async () => {
    const r = await server.getJson<{ tileMatrixSets: Array<{ id: string; links: Array<{ href: string }> }> }>('/tileMatrixSets');
    assert.equal(r.body.tileMatrixSets.length, 13);
    const wmq = r.body.tileMatrixSets.find((t) => t.id === 'WebMercatorQuad')!;
    assert.equal(wmq.links[0].href, `${server.url}/tileMatrixSets/WebMercatorQuad`);
    for (const { id } of r.body.tileMatrixSets) {
      const d = await server.getJson<{ id: string; tileMatrices: Array<{ id: string; cornerOfOrigin: string }> }>(`/tileMatrixSets/${id}`);
      assert.equal(d.body.id, id);
      assert.ok(d.body.tileMatrices.every((m) => m.cornerOfOrigin === 'topLeft'));
    }
  });
});
