/**
 * TiTiler's own /stac pins (titiler spec §12.4, §13.2 test_MultiBaseTilerFactory, §13.3
 * test_stac.py) on the upstream item.json / items_bands.json. Their asset hrefs are absolute
 * (`https://myurl.com/…`): the items are rewritten to a local HTTP server that serves the
 * upstream fixture folder. Skipped when ../shared/fixtures is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

const T = path.join(SHARED, 'fixtures', 'titiler');
const skip = !existsSync(path.join(T, 'item.json')) ? 'needs ../shared/fixtures/titiler' : false;

type Stats = Record<string, { description: string }>;

/** Parses a numpy .npy v1 header: shape and dtype. */
function npyHeader(buf: Buffer): { shape: number[]; descr: string } {
  assert.equal(buf.subarray(1, 6).toString('latin1'), 'NUMPY', buf.toString().slice(0, 200));
  const header = buf.subarray(10, 10 + buf.readUInt16LE(8)).toString('latin1');
  return {
    descr: /'descr':\s*'([^']+)'/.exec(header)![1],
    shape: /'shape':\s*\(([^)]*)\)/
      .exec(header)![1]
      .split(',')
      .filter((s) => s.trim())
      .map(Number),
  };
}

describe('TiTiler /stac pins on the upstream items', { skip }, () => {
  let server: TestServer;
  let assets: RangeServer;
  let items: RangeServer;
  let tmp: string;
  let ITEM = '';
  let BANDS = '';

  before(async () => {
    assets = await startRangeServer({ root: T });
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-stac-pins-'));
    for (const name of ['item.json', 'items_bands.json']) {
      writeFileSync(path.join(tmp, name), readFileSync(path.join(T, name), 'utf8').replaceAll('https://myurl.com/', `${assets.url}/`));
    }
    items = await startRangeServer({ root: tmp });
    ITEM = q(`${items.url}/item.json`);
    BANDS = q(`${items.url}/items_bands.json`);
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
    await assets.close();
    await items.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const json = <B>(p: string) => server.getJson<B>(p);
  const npyOf = async (p: string) => {
    const r = await server.get(p);
    const body = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, `${p}: ${body.toString().slice(0, 300)}`);
    return npyHeader(body);
  };

  it('/assets and /info', async () => {
    assert.deepEqual((await json<string[]>(`/stac/assets?url=${ITEM}`)).body, ['B01', 'B09']);
    assert.equal((await json(`/stac/info?url=${ITEM}`)).status, 422);
    const all = await json<Record<string, { dtype: string; nodata_value: number; width: number }>>(`/stac/info?url=${ITEM}&assets=:all:`);
    assert.deepEqual(Object.keys(all.body), ['B01', 'B09']);
    assert.equal(all.body['B01'].dtype, 'uint16');
    assert.equal(all.body['B01'].nodata_value, 0);
    assert.equal(all.body['B01'].width, 183);
    const two = await json<Record<string, unknown>>(`/stac/info?url=${ITEM}&assets=B01&assets=B09`);
    assert.deepEqual(Object.keys(two.body), ['B01', 'B09']);
    const geo = await json<{ type: string; bbox: number[]; properties: Record<string, unknown> }>(`/stac/info.geojson?url=${ITEM}&assets=B01`);
    assert.equal(geo.body.type, 'Feature');
    assert.deepEqual(geo.body.bbox, [23.293255090449595, 31.505183020453355, 24.296453548295318, 32.51147809805106]);
    assert.deepEqual(Object.keys(geo.body.properties), ['B01']);
  });

  it('/preview.tif bands and dtypes (as npy)', async () => {
    assert.equal((await server.get(`/stac/preview.tif?url=${ITEM}`)).status, 422);
    const pre = `/stac/preview.npy?url=${ITEM}&return_mask=false`;
    let a = await npyOf(`${pre}&assets=B01&assets=B09`);
    assert.deepEqual([a.descr, a.shape[0]], ['<u2', 2]);
    a = await npyOf(`${pre}&assets=${q('B01|bidx=1,1,1')}`);
    assert.equal(a.shape[0], 3);
    a = await npyOf(`${pre}&assets=B01&expression=${q('b1;b1;b1')}`);
    assert.deepEqual([a.descr, a.shape[0]], ['<i4', 3]);
    a = await npyOf(`${pre}&assets=${q('B01|expression=b1;b1;b1')}`);
    assert.deepEqual([a.descr, a.shape[0]], ['<i4', 3]);
    a = await npyOf(`${pre}&assets=B01&asset_as_band=True`);
    assert.equal(a.shape[0], 1);
    // the GeoTIFF output itself
    const tif = await server.get(`/stac/preview.tif?url=${ITEM}&assets=B01&assets=B09&return_mask=false`);
    assert.equal(tif.status, 200);
    assert.equal(tif.headers.get('content-type'), 'image/tiff; application=geotiff');
  });

  it('/asset_statistics', async () => {
    const r = await json<Record<string, Stats>>(`/stac/asset_statistics?url=${ITEM}&assets=B01&assets=B09`);
    assert.deepEqual(Object.keys(r.body), ['B01', 'B09']);
    assert.equal(r.body['B09']['b1'].description, 'b1');
    const o = await json<Record<string, Stats>>(`/stac/asset_statistics?url=${ITEM}&assets=${q('B09|bidx=1,1')}`);
    assert.deepEqual(Object.keys(o.body), ['B09|indexes=[1,1]']);
  });

  it('/statistics (GET and POST)', async () => {
    assert.equal((await json(`/stac/statistics?url=${ITEM}`)).status, 422);
    const all = await json<Stats>(`/stac/statistics?url=${ITEM}&assets=:all:`);
    assert.deepEqual(Object.keys(all.body), ['b1', 'b2']);
    const r = await json<Stats>(`/stac/statistics?url=${ITEM}&assets=B01&assets=B09`);
    assert.deepEqual(Object.keys(r.body), ['b1', 'b2']);
    assert.deepEqual([r.body['b1'].description, r.body['b2'].description], ['B01_b1', 'B09_b1']);
    const asBand = await json<Stats>(`/stac/statistics?url=${ITEM}&assets=B01&assets=B09&asset_as_band=True`);
    assert.deepEqual([asBand.body['b1'].description, asBand.body['b2'].description], ['B01', 'B09']);
    const ni = await json<Stats>(`/stac/statistics?url=${ITEM}&assets=B01&assets=B09&asset_as_band=True&algorithm=normalizedIndex`);
    assert.deepEqual(Object.keys(ni.body), ['b1']);
    assert.equal(ni.body['b1'].description, '(B09 - B01) / (B09 + B01)');

    const feature = {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [23.7, 31.9],
            [24.0, 31.9],
            [24.0, 32.2],
            [23.7, 32.2],
            [23.7, 31.9],
          ],
        ],
      },
    };
    const post = async (query: string, body: unknown) => {
      const res = await server.post(`/stac/statistics?url=${ITEM}&${query}`, body);
      assert.equal(res.status, 200, query);
      return (await res.json()) as { type: string; properties: { statistics: Stats }; features: Array<{ properties: { statistics: Stats } }> };
    };
    let p = await post('assets=B01&assets=B09', feature);
    assert.equal(p.type, 'Feature');
    assert.deepEqual(
      Object.values(p.properties.statistics).map((s) => s.description),
      ['B01_b1', 'B09_b1'],
    );
    p = await post('assets=B01&assets=B09&asset_as_band=True', feature);
    assert.deepEqual(
      Object.values(p.properties.statistics).map((s) => s.description),
      ['B01', 'B09'],
    );
    p = await post('assets=B01&assets=B09&expression=b1/b2&asset_as_band=True', { type: 'FeatureCollection', features: [feature] });
    assert.equal(p.type, 'FeatureCollection');
    assert.deepEqual(
      Object.values(p.features[0].properties.statistics).map((s) => s.description),
      ['B01/B09'],
    );
  });

  it('/point values and descriptions', async () => {
    const at = `/stac/point/23.878,32.063?url=${ITEM}`;
    let r = await json<{ values: number[]; band_names: string[]; band_descriptions: string[] }>(`${at}&assets=B01`);
    assert.deepEqual(r.body.values, [3565]);
    assert.deepEqual(r.body.band_names, ['b1']);
    assert.deepEqual(r.body.band_descriptions, ['B01_b1']);
    r = await json(`${at}&assets=B01&expression=${q('b1*2')}`);
    assert.deepEqual(r.body.values, [7130]);
    assert.deepEqual(r.body.band_descriptions, ['B01_b1*2']);
    r = await json(`${at}&assets=B01&expression=${q('b1*2')}&asset_as_band=True`);
    assert.deepEqual(r.body.band_descriptions, ['B01*2']);
    r = await json(`${at}&assets=B01&assets=B09&expression=${q('b1/b2')}`);
    assert.ok(Math.abs(r.body.values[0] - 0.49) < 0.01, `b1/b2 = ${r.body.values[0]}`);
    assert.deepEqual(r.body.band_descriptions, ['B01_b1/B09_b1']);
    r = await json(`${at}&assets=B01&assets=B09&expression=${q('b1/b2')}&asset_as_band=True`);
    assert.deepEqual(r.body.band_descriptions, ['B01/B09']);
  });

  it('tiles, tilejson, preview and bbox sizes', async () => {
    const limits = await json<{ tileMatrixSetLimits: unknown[] }>(`/stac/tiles/WebMercatorQuad?url=${ITEM}`);
    assert.equal(limits.body.tileMatrixSetLimits.length, 25);
    const tile = await server.get(`/stac/tiles/WebMercatorQuad/9/289/207?url=${ITEM}&assets=B01&rescale=0,1000`);
    assert.equal(tile.status, 200);
    assert.equal(tile.headers.get('content-type'), 'image/png');
    const tm = await sharp(Buffer.from(await tile.arrayBuffer())).metadata();
    assert.deepEqual([tm.width, tm.height], [256, 256]);
    const pre = await server.get(`/stac/preview?url=${ITEM}&assets=B01&rescale=0,1000&max_size=64`);
    assert.equal(pre.headers.get('content-type'), 'image/png');
    const pm = await sharp(Buffer.from(await pre.arrayBuffer())).metadata();
    assert.deepEqual([pm.width, pm.height], [64, 64]);
    const bbox = await server.get(`/stac/bbox/23.878,32.063,23.966,32.145.png?url=${ITEM}&assets=B01&max_size=64`);
    assert.equal(bbox.status, 200);
    const bm = await sharp(Buffer.from(await bbox.arrayBuffer())).metadata();
    assert.deepEqual([bm.width, bm.height], [15, 14]);
    assert.equal((await server.get(`/stac/preview.png?url=${ITEM}&assets=B1111`)).status, 404);

    assert.equal((await server.get(`/stac/WebMercatorQuad/tilejson.json?url=${ITEM}`)).status, 422);
    const tj = await json<{ minzoom: number; maxzoom: number; tiles: string[] }>(
      `/stac/WebMercatorQuad/tilejson.json?url=${ITEM}&assets=B01&minzoom=5&maxzoom=10`,
    );
    assert.deepEqual([tj.body.minzoom, tj.body.maxzoom], [5, 10]);
    const fmt = await json<{ tiles: string[] }>(`/stac/WebMercatorQuad/tilejson.json?url=${ITEM}&assets=B01&tile_format=png&tilesize=512`);
    assert.match(fmt.body.tiles[0], /\.png\?/);
    assert.match(fmt.body.tiles[0], /tilesize=512/);
  });

  it('items_bands.json: assets=rgb, rgb|bands=red, rgb|bidx=1', async () => {
    const pre = `/stac/preview.npy?url=${BANDS}&return_mask=false&max_size=64`;
    assert.equal((await npyOf(`${pre}&assets=rgb`)).shape[0], 3);
    assert.equal((await npyOf(`${pre}&assets=${q('rgb|bands=red')}`)).shape[0], 1);
    assert.equal((await npyOf(`${pre}&assets=${q('rgb|bidx=1')}`)).shape[0], 1);
    const red = await json<{ values: number[] }>(`/stac/point/-80,33?url=${BANDS}&assets=${q('rgb|bands=red')}`);
    const b1 = await json<{ values: number[] }>(`/stac/point/-80,33?url=${BANDS}&assets=${q('rgb|bidx=1')}`);
    assert.deepEqual(red.body.values, b1.body.values);
  });
});
