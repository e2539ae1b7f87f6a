/**
 * /cog/tiles?f=html lists the tile sets that make sense for the dataset first: its own CRS's,
 * then WebMercatorQuad and WorldCRS84Quad, then those covering it, then the rest. The JSON list
 * keeps TiTiler's order (ids sorted). Fixture CRSs: GDAL (expected.json).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TMS_IDS } from '../../src/geo/tms.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

describe('/cog/tiles?f=html order', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  /** The tile set ids and notes in the order the HTML page shows them. */
  async function htmlOrder(file: string): Promise<Array<[string, string]>> {
    const r = await server.get(`/cog/tiles?f=html&url=${q(fixture('datasets', file))}`);
    assert.equal(r.status, 200);
    const html = await r.text();
    return [...html.matchAll(/<h2>tileset tiled using (\w+) TileMatrixSet<\/h2><p class="note">([^<]+)<\/p>/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&#39;/g, "'"),
    ]);
  }

  it('EPSG:3035 (LAEA): EuropeanETRS89_LAEAQuad, the web maps, then the covering ones; the JSON order unchanged', async () => {
    const order = await htmlOrder('int16_scale_laea.tif');
    assert.equal(order.length, TMS_IDS.length);
    assert.deepEqual(order.slice(0, 3), [
      ['EuropeanETRS89_LAEAQuad', "in the dataset's own CRS: no reprojection"],
      ['WebMercatorQuad', 'for web maps'],
      ['WorldCRS84Quad', 'for web maps'],
    ]);
    const notes = new Map(order);
    // a European dataset is not inside the New Zealand or Antarctic grids
    assert.equal(notes.get('NZTM2000Quad'), 'does not cover the whole dataset');
    assert.equal(notes.get('UPSAntarcticWGS84Quad'), 'does not cover the whole dataset');
    // ranks never go back
    const rank = (n: string) =>
      ["in the dataset's own CRS: no reprojection", 'for web maps', 'covers the dataset', 'does not cover the whole dataset'].indexOf(n);
    for (let i = 1; i < order.length; i++) assert.ok(rank(order[i - 1]![1]) <= rank(order[i]![1]), JSON.stringify(order));
    const json = await server.getJson<{ tilesets: Array<{ title: string }> }>(`/cog/tiles?url=${q(fixture('datasets', 'int16_scale_laea.tif'))}`);
    assert.deepEqual(
      json.body.tilesets.map((t) => t.title),
      TMS_IDS.map((id) => `tileset tiled using ${id} TileMatrixSet`),
    );
  });

  it('EPSG:3857: WebMercatorQuad is the native one; EPSG:4326: the EPSG:4326/CRS84 grids first', async () => {
    const merc = await htmlOrder('rgba_alpha_3857.tif');
    assert.deepEqual(merc[0], ['WebMercatorQuad', "in the dataset's own CRS: no reprojection"]);
    assert.deepEqual(merc[1], ['WorldCRS84Quad', 'for web maps']);
    const geo = await htmlOrder('float32_nan_4326.tif');
    const native = geo.filter(([, n]) => n.startsWith("in the dataset's own CRS")).map(([id]) => id);
    assert.ok(native.includes('WorldCRS84Quad') && native.includes('WGS1984Quad'), JSON.stringify(native));
    assert.deepEqual(
      geo.slice(0, native.length).map(([id]) => id),
      native,
    );
  });

  it('UTM 60N across the antimeridian: no native grid, the web maps first', async () => {
    const order = await htmlOrder('uint16_dateline_32660.tif');
    assert.deepEqual(order.slice(0, 2), [
      ['WebMercatorQuad', 'for web maps'],
      ['WorldCRS84Quad', 'for web maps'],
    ]);
  });
});
