/**
 * Legacy (0.x) granule-search URLs → 301/308 redirects to /raster or /array (titiler-cmr §7 and
 * its test_legacy.py cases, with our backend names): status, absolute Location, renamed /
 * ordered / repeated query, `@2x` dropped, numbers re-printed, POST 308, backend=xarray → /array.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { legacyQuery } from '../../src/http/factories/granule-legacy-redirects.ts';
import { pyUrlencode } from '../../src/http/query-string.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => server.close());

interface Redirect {
  status: number;
  location: string;
  path: string;
  query: Array<[string, string]>;
  rawQuery: string;
  cacheControl: string | null;
}

async function call(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<Redirect> {
  const r = await fetch(`${server.url}${pathAndQuery}`, {
    method,
    redirect: 'manual',
    ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
  });
  await r.arrayBuffer();
  const location = r.headers.get('location') ?? '';
  const u = location ? new URL(location) : null;
  return {
    status: r.status,
    location,
    path: u ? u.pathname : '',
    query: u ? [...u.searchParams] : [],
    rawQuery: u ? u.search.slice(1) : '',
    cacheControl: r.headers.get('cache-control'),
  };
}

const get = (p: string) => call('GET', p);
const post = (p: string, body?: unknown) => call('POST', p, body);

describe('legacy GET redirects (301)', () => {
  it('tilejson → /raster by default, absolute Location on this host', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?collection_concept_id=C123&temporal=2024-01-01T00:00:00Z');
    assert.equal(r.status, 301, 'status');
    assert.ok(r.location.startsWith(`${server.url}/raster/`), `absolute location: ${r.location}`);
    assert.equal(r.path, '/raster/WebMercatorQuad/tilejson.json', 'path');
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C123'],
        ['temporal', '2024-01-01T00:00:00Z'],
      ],
      'query kept',
    );
    assert.equal(r.rawQuery, 'collection_concept_id=C123&temporal=2024-01-01T00%3A00%3A00Z', 'python-style encoding');
    assert.equal(r.cacheControl, 'private, max-age=3600', 'Cache-Control on the 301');
  });

  it('backend=xarray → /array, backend dropped', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?backend=xarray&collection_concept_id=C123');
    assert.equal(r.status, 301, 'status');
    assert.equal(r.path, '/array/WebMercatorQuad/tilejson.json', 'path');
    assert.deepEqual(r.query, [['collection_concept_id', 'C123']], 'no backend in query');
  });

  it('backend=rasterio → /raster', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?collection_concept_id=C1&backend=rasterio');
    assert.equal(r.path, '/raster/WebMercatorQuad/tilejson.json', 'path');
    assert.deepEqual(r.query, [['collection_concept_id', 'C1']], 'query');
  });

  it('concept_id → collection_concept_id', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?concept_id=C123&temporal=2024-01-01T00:00:00Z');
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C123'],
        ['temporal', '2024-01-01T00:00:00Z'],
      ],
      'renamed in place',
    );
  });

  it('datetime → temporal', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?collection_concept_id=C123&datetime=2024-01-01T00:00:00Z');
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C123'],
        ['temporal', '2024-01-01T00:00:00Z'],
      ],
      'renamed',
    );
  });

  it('bands_regex → assets_regex', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?collection_concept_id=C123&bands_regex=B0[0-9]');
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C123'],
        ['assets_regex', 'B0[0-9]'],
      ],
      'renamed',
    );
    assert.ok(r.rawQuery.includes('assets_regex=B0%5B0-9%5D'), `brackets encoded: ${r.rawQuery}`);
  });

  it('variable → variables', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?backend=xarray&concept_id=C1&variable=sst');
    assert.equal(r.path, '/array/WebMercatorQuad/tilejson.json', 'path');
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C1'],
        ['variables', 'sst'],
      ],
      'renamed',
    );
  });

  it('every rename at once, on map.html', async () => {
    const r = await get('/WebMercatorQuad/map.html?backend=rasterio&concept_id=C456&datetime=2024-06-01T00:00:00Z&bands_regex=B04');
    assert.equal(r.status, 301, 'status');
    assert.equal(r.path, '/raster/WebMercatorQuad/map.html', 'path');
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C456'],
        ['temporal', '2024-06-01T00:00:00Z'],
        ['assets_regex', 'B04'],
      ],
      'renames',
    );
  });

  it('the titiler-cmr example: @2x dropped, bands repeated, everything renamed', async () => {
    const r = await get(
      '/tiles/WebMercatorQuad/5/8/12@2x.png?concept_id=C1&datetime=2020-01-01T00:00:00Z/2020-01-02T00:00:00Z&backend=rasterio&bands=B04&bands=B03&bands_regex=B[0-9][0-9]',
    );
    assert.equal(r.status, 301, 'status');
    assert.equal(
      r.location,
      `${server.url}/raster/tiles/WebMercatorQuad/5/8/12.png?collection_concept_id=C1&temporal=2020-01-01T00%3A00%3A00Z%2F2020-01-02T00%3A00%3A00Z&assets=B04&assets=B03&assets_regex=B%5B0-9%5D%5B0-9%5D`,
      'exact Location',
    );
  });

  it('plain tile, tile with format, tile with scale only', async () => {
    assert.equal((await get('/tiles/WebMercatorQuad/5/10/12?collection_concept_id=C123')).path, '/raster/tiles/WebMercatorQuad/5/10/12', 'plain');
    assert.equal((await get('/tiles/WebMercatorQuad/5/10/12.png?collection_concept_id=C123')).path, '/raster/tiles/WebMercatorQuad/5/10/12.png', 'format');
    const scaled = await get('/tiles/WebMercatorQuad/5/10/12@2x?collection_concept_id=C123');
    assert.equal(scaled.status, 301, 'scale status');
    assert.equal(scaled.path, '/raster/tiles/WebMercatorQuad/5/10/12', 'scale dropped');
    assert.deepEqual(scaled.query, [['collection_concept_id', 'C123']], 'no tilesize added');
    assert.equal((await get('/tiles/WebMercatorQuad/05/010/12.jpg')).path, '/raster/tiles/WebMercatorQuad/5/10/12.jpg', 'integers re-printed');
    assert.equal((await get('/tiles/WebMercatorQuad/5/10/12.png')).location, `${server.url}/raster/tiles/WebMercatorQuad/5/10/12.png`, 'no ? without a query');
  });

  it('tile indices must be integers (422)', async () => {
    const r = await fetch(`${server.url}/tiles/WebMercatorQuad/5/a/12.png`, { redirect: 'manual' });
    assert.equal(r.status, 422, 'status');
    const body = (await r.json()) as { detail: Array<{ loc: unknown[] }> };
    assert.deepEqual(body.detail[0].loc, ['path', 'x'], 'loc');
  });

  it('preview → /raster/preview (and /array with backend=xarray)', async () => {
    assert.equal((await get('/preview?collection_concept_id=C123')).path, '/raster/preview', 'raster');
    assert.equal((await get('/preview?collection_concept_id=C123&backend=xarray')).path, '/array/preview', 'array');
  });

  it('bbox numbers re-printed Python-style', async () => {
    const r = await get('/bbox/-100,40,-90,50.png?collection_concept_id=C123');
    assert.equal(r.status, 301, 'status');
    assert.equal(r.location, `${server.url}/raster/bbox/-100.0,40.0,-90.0,50.0.png?collection_concept_id=C123`, 'location');
    const small = await get('/bbox/0.00001,-0.5,1e2,2.25.tif');
    assert.equal(small.path, '/raster/bbox/1e-05,-0.5,100.0,2.25.tif', 'repr of small and exponent floats');
  });

  it('bbox with size', async () => {
    const r = await get('/bbox/-100,40,-90,50/256x128.png?concept_id=C1');
    assert.equal(r.path, '/raster/bbox/-100.0,40.0,-90.0,50.0/256x128.png', 'path');
    assert.deepEqual(r.query, [['collection_concept_id', 'C1']], 'query');
  });

  it('timeseries tilejson and bbox', async () => {
    const t = await get('/timeseries/WebMercatorQuad/tilejson.json?collection_concept_id=C123&backend=xarray');
    assert.equal(t.path, '/array/timeseries/WebMercatorQuad/tilejson.json', 'tilejson');
    const b = await get('/timeseries/bbox/-100,40,-90,50.gif?concept_id=C123&datetime=2024-01-01T00:00:00Z');
    assert.equal(b.path, '/raster/timeseries/bbox/-100.0,40.0,-90.0,50.0.gif', 'bbox gif');
    assert.deepEqual(
      b.query,
      [
        ['collection_concept_id', 'C123'],
        ['temporal', '2024-01-01T00:00:00Z'],
      ],
      'renamed',
    );
    const s = await get('/timeseries/bbox/-100,40,-90,50/64x64.gif?concept_id=C123');
    assert.equal(s.path, '/raster/timeseries/bbox/-100.0,40.0,-90.0,50.0/64x64.gif', 'sized gif');
  });

  it('repeated values are kept in order (sel), with a rename', async () => {
    const r = await get(`/WebMercatorQuad/tilejson.json?concept_id=C123&sel=${encodeURIComponent('time={datetime}')}&sel=band%3D1`);
    assert.deepEqual(
      r.query,
      [
        ['collection_concept_id', 'C123'],
        ['sel', 'time={datetime}'],
        ['sel', 'band=1'],
      ],
      'repeats',
    );
    assert.equal(r.rawQuery, 'collection_concept_id=C123&sel=time%3D%7Bdatetime%7D&sel=band%3D1', 'encoding of = and braces');
  });

  it('the new name wins over the old one', async () => {
    const c = await get('/WebMercatorQuad/tilejson.json?collection_concept_id=C_NEW&concept_id=C_OLD');
    assert.deepEqual(c.query, [['collection_concept_id', 'C_NEW']], 'collection_concept_id');
    const t = await get('/WebMercatorQuad/tilejson.json?collection_concept_id=C123&temporal=2024-01-01T00:00:00Z&datetime=2023-01-01T00:00:00Z');
    assert.deepEqual(
      t.query,
      [
        ['collection_concept_id', 'C123'],
        ['temporal', '2024-01-01T00:00:00Z'],
      ],
      'temporal',
    );
    const a = await get('/WebMercatorQuad/tilejson.json?bands=B01&assets=B02&bands=B03');
    assert.deepEqual(a.query, [['assets', 'B02']], 'assets');
  });

  it('spaces become +, other characters percent-encoded', async () => {
    const r = await get('/WebMercatorQuad/tilejson.json?expression=B04%20*%202&cloud_cover=0,10');
    assert.equal(r.rawQuery, 'expression=B04+%2A+2&cloud_cover=0%2C10', 'raw query');
  });

  it('an unknown backend is a 400, not a redirect', async () => {
    const r = await fetch(`${server.url}/WebMercatorQuad/tilejson.json?backend=foo`, { redirect: 'manual' });
    assert.equal(r.status, 400, 'status');
    const body = (await r.json()) as { detail: string };
    assert.match(body.detail, /backend 'foo'/, 'message');
  });
});

describe('legacy POST redirects (308)', () => {
  const feature = { type: 'Feature', geometry: null, properties: {} };
  it('statistics', async () => {
    const r = await post('/statistics?collection_concept_id=C123', feature);
    assert.equal(r.status, 308, 'status');
    assert.equal(r.path, '/raster/statistics', 'path');
  });
  it('feature renames concept_id', async () => {
    const r = await post('/feature?concept_id=C123', feature);
    assert.equal(r.status, 308, 'status');
    assert.equal(r.location, `${server.url}/raster/feature?collection_concept_id=C123`, 'location');
  });
  it('part with backend=xarray', async () => {
    const r = await post('/part?collection_concept_id=C123&backend=xarray', {});
    assert.equal(r.status, 308, 'status');
    assert.equal(r.path, '/array/part', 'path');
  });
  it('timeseries statistics', async () => {
    const r = await post('/timeseries/statistics?collection_concept_id=C123&temporal=2024-01-01T00:00:00Z', feature);
    assert.equal(r.status, 308, 'status');
    assert.equal(r.path, '/raster/timeseries/statistics', 'path');
  });
  it('feature.{format} and feature/{w}x{h}.{format}', async () => {
    const f = await post('/feature.png?collection_concept_id=C123', {});
    assert.equal(f.status, 308, 'format status');
    assert.equal(f.path, '/raster/feature.png', 'format path');
    const s = await post('/feature/256x256.png?collection_concept_id=C123', {});
    assert.equal(s.status, 308, 'sized status');
    assert.equal(s.path, '/raster/feature/256x256.png', 'sized path');
  });
  it('GET on a POST-only legacy path is not redirected', async () => {
    const r = await fetch(`${server.url}/statistics?concept_id=C1`, { redirect: 'manual' });
    assert.equal(r.status, 404, 'no GET /statistics');
  });
});

describe('legacy query helpers', () => {
  it('legacyQuery keeps order and repeats, drops backend', () => {
    assert.deepEqual(
      legacyQuery([
        ['backend', 'xarray'],
        ['variable', 'a'],
        ['sel', 'x=1'],
        ['variable', 'b'],
        ['sel', 'y=2'],
      ]),
      [
        ['variables', 'a'],
        ['sel', 'x=1'],
        ['variables', 'b'],
        ['sel', 'y=2'],
      ],
      'pairs',
    );
  });
  it('pyUrlencode matches Python urlencode', () => {
    assert.equal(pyUrlencode([['a b', 'x/y:z,w~_.-*é']]), 'a+b=x%2Fy%3Az%2Cw~_.-%2A%C3%A9', 'encoding');
  });
});
