/**
 * /mosaicjson against GDAL: two uint16 COGs on the z10 WebMercatorQuad pixel grid
 * (scripts/fixtures/mosaicjson_fixtures.py) indexed at quadkey zoom 8 (tile deeper than the
 * index) and 11 (tile shallower than the index). z10 tiles are exact windows, so the `first`
 * mosaic must equal rasterio.merge(method='first') byte for byte (sha256 of the uint16 data).
 * Also: the document, validate (422), info, point per asset, asset listings, 204 outside the
 * index, bad documents → 4xx JSON, and a rewritten document being seen. TiTiler's own pins
 * (§12.6 on ../shared/fixtures/titiler/mosaic.json) run when that folder exists.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface ExpectedTile {
  z: number;
  x: number;
  y: number;
  order: string[];
  sha256: string;
  valid: number;
  samples: Array<[number, number, number]>;
}
interface Expected {
  tiles: ExpectedTile[];
  points: Array<{ name: string; lon: number; lat: number; values: Record<string, number> }>;
}

const expected = JSON.parse(readFileSync(fixture('mosaicjson', 'expected.json'), 'utf8')) as Expected;
const DOC8 = q(fixture('mosaicjson', 'mosaic-qz8.json'));
const DOC11 = q(fixture('mosaicjson', 'mosaic-qz11.json'));

/** A .npy body's uint16 data (v1 header, '<u2'). */
function npyU16(buf: Buffer): { shape: number[]; data: Buffer } {
  const hlen = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + hlen).toString('latin1');
  assert.match(header, /'<u2'/);
  const shape = /'shape':\s*\(([^)]*)\)/
    .exec(header)![1]
    .split(',')
    .filter((s) => s.trim())
    .map(Number);
  return { shape, data: buf.subarray(10 + hlen) };
}

describe('/mosaicjson', () => {
  let server: TestServer;
  let tmp: string;
  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-mosaicjson-'));
    server = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tmp];
    });
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  for (const [name, doc] of [
    ['quadkey zoom 8', DOC8],
    ['quadkey zoom 11', DOC11],
  ] as const) {
    it(`z10 tiles equal rasterio.merge(first) (${name})`, async () => {
      for (const t of expected.tiles.filter((e) => e.order[0] === 'a.tif')) {
        const r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${doc}&return_mask=false`);
        const body = Buffer.from(await r.arrayBuffer());
        assert.equal(r.status, 200, body.toString().slice(0, 300));
        const { shape, data } = npyU16(body);
        assert.deepEqual(shape, [1, 256, 256]);
        for (const [row, col, v] of t.samples) assert.equal(data.readUInt16LE(2 * (row * 256 + col)), v, `tile ${t.x},${t.y} pixel ${row},${col}`);
        assert.equal(createHash('sha256').update(data).digest('hex'), t.sha256, `tile ${t.x},${t.y}`);
      }
    });
  }

  it('tile formats, tilesize and 204 outside the index', async () => {
    let r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368?url=${DOC8}&rescale=0,6000`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/jpeg');
    r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.npy?url=${DOC8}&tilesize=512`);
    assert.deepEqual(npyU16(Buffer.from(await r.arrayBuffer())).shape, [2, 512, 512]);
    r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/100/100.png?url=${DOC8}`);
    assert.equal(r.status, 204);
    r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.png?url=${DOC8}&pixel_selection=count`);
    assert.equal(r.status, 200);
    r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.png?url=${DOC8}&pixel_selection=nope`);
    assert.equal(r.status, 422);
  });

  it('the document, info, bounds, tilejson, tilesets, map and WMTS', async () => {
    const doc = await server.getJson<Record<string, unknown>>(`/mosaicjson/?url=${DOC8}`);
    assert.equal(doc.status, 200);
    const file = JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')) as Record<string, unknown>;
    for (const k of ['mosaicjson', 'minzoom', 'maxzoom', 'quadkey_zoom', 'bounds', 'center', 'tiles']) assert.deepEqual(doc.body[k], file[k], k);
    const info = await server.getJson<Record<string, unknown>>(`/mosaicjson/info?url=${DOC8}`);
    assert.deepEqual(info.body.bounds, file.bounds);
    assert.deepEqual([info.body.quadkeys, info.body.mosaic_minzoom, info.body.mosaic_maxzoom, info.body.name], [[], 9, 10, 'mosaic']);
    const geo = await server.getJson<{ type: string; bbox: number[] }>(`/mosaicjson/info.geojson?url=${DOC8}`);
    assert.equal(geo.body.type, 'Feature');
    assert.deepEqual(geo.body.bbox, file.bounds);
    const b = await server.getJson<{ bounds: number[] }>(`/mosaicjson/bounds?url=${DOC8}`);
    assert.deepEqual(b.body.bounds, file.bounds);
    const tj = await server.getJson<{ minzoom: number; maxzoom: number; tiles: string[] }>(`/mosaicjson/WebMercatorQuad/tilejson.json?url=${DOC8}`);
    assert.deepEqual([tj.body.minzoom, tj.body.maxzoom], [9, 10]);
    assert.match(tj.body.tiles[0], /\/mosaicjson\/tiles\/WebMercatorQuad\/\{z\}\/\{x\}\/\{y\}\?url=.*tilesize=512/);
    const ts = await server.getJson<{ tilesets: unknown[] }>(`/mosaicjson/tiles?url=${DOC8}`);
    assert.equal(ts.body.tilesets.length, 13);
    assert.equal((await server.get(`/mosaicjson/tiles/WebMercatorQuad?url=${DOC8}`)).status, 200);
    assert.equal((await server.get(`/mosaicjson/WebMercatorQuad/map.html?url=${DOC8}`)).status, 200);
    const wmts = await server.get(`/mosaicjson/WMTSCapabilities.xml?url=${DOC8}`);
    assert.equal(wmts.status, 200);
    assert.match(await wmts.text(), /mosaicjson\/tiles\/WebMercatorQuad\/\{TileMatrix\}\/\{TileCol\}\/\{TileRow\}\.png\?url=/);
  });

  it('point values per asset and the asset listings', async () => {
    const p = expected.points[0];
    const r = await server.getJson<{ coordinates: number[]; assets: Array<{ name: string; values: number[]; band_names: string[] }> }>(
      `/mosaicjson/point/${p.lon},${p.lat}?url=${DOC11}`,
    );
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.assets.map((a) => [a.name, a.values, a.band_names]),
      Object.entries(p.values).map(([n, v]) => [n, [v === 0 ? null : v], ['b1']]), // 0 is nodata
    );
    assert.deepEqual((await server.getJson(`/mosaicjson/point/${p.lon},${p.lat}/assets?url=${DOC11}`)).body, ['a.tif', 'b.tif']);
    // z9 tile 270,184 over the z11 index: its 16 children, a's entries first (children order)
    assert.deepEqual((await server.getJson(`/mosaicjson/tiles/WebMercatorQuad/9/270/184/assets?url=${DOC11}`)).body, ['a.tif', 'b.tif']);
    assert.deepEqual((await server.getJson(`/mosaicjson/tiles/WebMercatorQuad/12/2172/1472/assets?url=${DOC8}`)).body, ['a.tif', 'b.tif']);
    assert.deepEqual((await server.getJson(`/mosaicjson/tiles/WebMercatorQuad/10/542/368/assets?url=${DOC11}`)).body, ['b.tif']);
    assert.deepEqual((await server.getJson(`/mosaicjson/bbox/9.9,44.7,10.0,44.8/assets?url=${DOC11}`)).body, ['a.tif']);
    assert.equal((await server.get(`/mosaicjson/point/0,0?url=${DOC11}`)).status, 204);
  });

  it('POST /validate: true, or 422 with pydantic-like detail', async () => {
    const ok = await server.post('/mosaicjson/validate', JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')));
    assert.equal(ok.status, 200);
    assert.equal(await ok.json(), true);
    const bad = await server.post('/mosaicjson/validate', { nope: 'oups' });
    assert.equal(bad.status, 422);
    const detail = ((await bad.json()) as { detail: Array<{ type: string; loc: string[] }> }).detail;
    assert.deepEqual(
      detail.map((d) => [d.type, d.loc]),
      [
        ['missing', ['body', 'mosaicjson']],
        ['missing', ['body', 'tiles']],
      ],
    );
    const zoom = await server.post('/mosaicjson/validate', { mosaicjson: '0.0.3', tiles: {}, minzoom: 31 });
    assert.equal(zoom.status, 422);
  });

  it('bad documents are 4xx JSON; a rewritten document is seen', async () => {
    const missing = await server.getJson<{ detail: string }>(`/mosaicjson/info?url=${q(path.join(tmp, 'nope.json'))}`);
    assert.equal(missing.status, 424, "TiTiler's pin (test_mosaic.py): a missing local mosaic.json is 424");
    assert.match(missing.body.detail, /MosaicJSON document not found/);
    const badPath = path.join(tmp, 'bad.json');
    writeFileSync(badPath, '{"mosaicjson": 3');
    let r = await server.getJson<{ detail: string }>(`/mosaicjson/info?url=${q(badPath)}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /not valid JSON/);
    writeFileSync(badPath, '{"mosaicjson": "0.0.3"}');
    utimesSync(badPath, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    r = await server.getJson<{ detail: string }>(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.png?url=${q(badPath)}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /tiles: Field required/);

    // A copy of the qz8 document pointing at the fixtures, rewritten to list only b.tif.
    const docPath = path.join(tmp, 'doc.json');
    const doc = JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')) as { tiles: Record<string, string[]>; asset_prefix?: string };
    doc.asset_prefix = `${fixture('mosaicjson')}/`;
    writeFileSync(docPath, JSON.stringify(doc));
    utimesSync(docPath, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    const assets = () => server.getJson<string[]>(`/mosaicjson/tiles/WebMercatorQuad/10/541/368/assets?url=${q(docPath)}`);
    assert.equal((await assets()).body.length, 2);
    for (const k of Object.keys(doc.tiles)) doc.tiles[k] = ['b.tif'];
    writeFileSync(docPath, JSON.stringify(doc));
    utimesSync(docPath, new Date(Date.now() - 5_000), new Date(Date.now() - 5_000));
    assert.deepEqual((await assets()).body, [`${fixture('mosaicjson')}/b.tif`]);
    const t = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.png?url=${q(docPath)}`);
    assert.equal(t.status, 200);
  });
});

const T = path.join(SHARED, 'fixtures', 'titiler');
const skip = !existsSync(path.join(T, 'mosaic.json')) ? 'needs ../shared/fixtures/titiler' : false;

describe("TiTiler's /mosaicjson pins (§12.6) on its mosaic.json", { skip }, () => {
  let server: TestServer;
  const M = q(path.join(T, 'mosaic.json'));
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('info, point at the center, tiles', async () => {
    const info = await server.getJson<Record<string, unknown>>(`/mosaicjson/info?url=${M}`);
    assert.deepEqual([info.body.quadkeys, info.body.mosaic_minzoom, info.body.mosaic_maxzoom], [[], 7, 9]);
    const doc = JSON.parse(readFileSync(path.join(T, 'mosaic.json'), 'utf8')) as { center: number[] };
    const pt = await server.getJson<{ assets: Array<{ values: number[] }> }>(`/mosaicjson/point/${doc.center[0]},${doc.center[1]}?url=${M}`);
    assert.equal(pt.body.assets.length, 1);
    assert.deepEqual(pt.body.assets[0].values, [9943, 9127, 9603]);
    let r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/7/37/45.png?url=${M}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/png');
    r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/7/37/45.jpg?url=${M}`);
    assert.equal(r.headers.get('content-type'), 'image/jpg');
    r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/7/37/45.npy?url=${M}&nodata=0&bidx=1&tilesize=512`);
    assert.equal(r.status, 200);
    assert.deepEqual(npyU16(Buffer.from(await r.arrayBuffer())).shape, [2, 512, 512]);
  });
});
