/**
 * The /stac multi-asset router on generated items and single-band COG assets
 * (scripts/fixtures/stac.py): per-asset and merged statistics, point values, a bbox part and a
 * WebMercator tile compared with rasterio/GDAL reads; per-asset options, asset_as_band, global
 * expressions; relative and absolute hrefs, locally and over HTTP; validation and errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { assertClose } from '../helpers/assert-close.ts';
import { fetchNpy, npyBand, parseNpy } from '../helpers/npy.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

type Stats = Record<string, unknown>;
interface ArrayRef {
  offset: number;
  dtype: string;
  shape: number[];
}
interface Expected {
  crs: string;
  bbox: number[];
  raster_assets: string[];
  assets: Record<
    string,
    { info: { bounds: number[]; width: number; height: number; dtype: string; count: number; nodata_value: number }; preview_stats: Record<string, Stats> }
  >;
  merged_red_swir: Record<string, Stats>;
  ndvi_stats: Record<string, Stats>;
  points: Array<{ lon: number; lat: number; x: number; y: number; values: Record<string, number | number[]> }>;
  part: { bounds: number[]; width: number; height: number; arrays: Record<string, ArrayRef> };
  tile: { z: number; x: number; y: number; tilesize: number; bounds: number[]; arrays: Record<string, ArrayRef> };
}

const expected = JSON.parse(readFileSync(fixture('stac', 'expected.json'), 'utf8')) as Expected;
const oracle = inflateSync(readFileSync(fixture('stac', 'oracle.bin.z')));
const oracleArray = (ref: ArrayRef): Uint16Array => {
  assert.equal(ref.dtype, 'uint16');
  const n = ref.shape.reduce((a, b) => a * b, 1);
  return new Uint16Array(oracle.buffer.slice(oracle.byteOffset + ref.offset, oracle.byteOffset + ref.offset + 2 * n));
};

const ITEM = q(fixture('stac', 'item.json'));
const ITEM_PROPS = q(fixture('stac', 'item-props-proj.json'));
const ITEM_NOPROJ = q(fixture('stac', 'items', 'item-noproj.json'));

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

describe('/stac listing and metadata', () => {
  it('/assets lists the raster assets only (no thumbnail, no metadata json)', async () => {
    const r = await server.getJson<string[]>(`/stac/assets?url=${ITEM}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, expected.raster_assets);
  });

  it('/info per asset, :all:, per-asset option keys', async () => {
    const r = await server.getJson<Record<string, Record<string, unknown>>>(`/stac/info?url=${ITEM}&assets=red&assets=swir`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['red', 'swir']);
    for (const name of ['red', 'swir']) {
      const want = expected.assets[name].info;
      assert.deepEqual(r.body[name]['bounds'], want.bounds);
      assert.equal(r.body[name]['width'], want.width);
      assert.equal(r.body[name]['height'], want.height);
      assert.equal(r.body[name]['dtype'], want.dtype);
      assert.equal(r.body[name]['nodata_value'], want.nodata_value);
      assert.equal(r.body[name]['crs'], 'http://www.opengis.net/def/crs/EPSG/0/32633');
    }
    const all = await server.getJson<Record<string, unknown>>(`/stac/info?url=${ITEM}&assets=:all:`);
    assert.deepEqual(Object.keys(all.body), expected.raster_assets);
    const opts = await server.getJson<Record<string, unknown>>(`/stac/info?url=${ITEM}&assets=${q('visual|bidx=3,1')}&assets=${q('red|expression=b1*2')}`);
    assert.equal(opts.status, 200);
    assert.deepEqual(Object.keys(opts.body), ['visual|indexes=[3,1]', 'red|expression=b1*2']);
  });

  it('/info.geojson: item footprint in EPSG:4326, info per asset in properties', async () => {
    const r = await server.getJson<{ type: string; bbox: number[]; geometry: { type: string }; properties: Record<string, unknown> }>(
      `/stac/info.geojson?url=${ITEM}&assets=:all:`,
    );
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/geo\+json/);
    assert.equal(r.body.type, 'Feature');
    assert.equal(r.body.geometry.type, 'Polygon');
    assertClose(r.body.bbox, expected.bbox, 1e-9, 'bbox');
    assert.deepEqual(Object.keys(r.body.properties), expected.raster_assets);
    const noproj = await server.getJson<{ bbox: number[] }>(`/stac/info.geojson?url=${ITEM_NOPROJ}&assets=red`);
    assert.deepEqual(noproj.body.bbox, expected.bbox);
  });

  it('tile sets need no assets; zooms from the proj: grid, else the whole TMS', async () => {
    const list = await server.getJson<{ tilesets: unknown[] }>(`/stac/tiles?url=${ITEM}`);
    assert.equal(list.status, 200);
    assert.equal(list.body.tilesets.length, 13);
    const cog = await server.getJson<{ minzoom: number; maxzoom: number }>(`/cog/WebMercatorQuad/tilejson.json?url=${q(fixture('stac', 'red.tif'))}`);
    for (const item of [ITEM, ITEM_PROPS]) {
      const tj = await server.getJson<{ minzoom: number; maxzoom: number; bounds: number[]; raster_layers: unknown; band_descriptions?: unknown }>(
        `/stac/WebMercatorQuad/tilejson.json?url=${item}&assets=red`,
      );
      assert.equal(tj.status, 200);
      assert.deepEqual([tj.body.minzoom, tj.body.maxzoom], [cog.body.minzoom, cog.body.maxzoom]);
      assertClose(tj.body.bounds, expected.bbox, 1e-9, 'tilejson bounds');
      assert.equal(tj.body.band_descriptions, undefined);
    }
    const withRenders = await server.getJson<{ raster_layers: Record<string, unknown> }>(`/stac/tilejson.json?url=${ITEM}&assets=red`);
    assert.deepEqual(Object.keys(withRenders.body.raster_layers), ['ndvi']);
    const noRenders = await server.getJson<{ raster_layers: unknown; minzoom: number; maxzoom: number }>(`/stac/tilejson.json?url=${ITEM_NOPROJ}&assets=red`);
    assert.deepEqual(noRenders.body.raster_layers, {});
    assert.deepEqual([noRenders.body.minzoom, noRenders.body.maxzoom], [0, 24]);
    const limits = await server.getJson<{ tileMatrixSetLimits: unknown[] }>(`/stac/tiles/WebMercatorQuad?url=${ITEM_NOPROJ}`);
    assert.equal(limits.body.tileMatrixSetLimits.length, 25);
  });

  it('map page and WMTS capabilities', async () => {
    const m = await server.get(`/stac/WebMercatorQuad/map.html?url=${ITEM}&assets=red&rescale=0,3000`);
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /text\/html/);
    const w = await server.get(`/stac/WMTSCapabilities.xml?url=${ITEM}&assets=red&rescale=0,3000`);
    assert.equal(w.status, 200);
    const xml = await w.text();
    assert.match(xml, /\/stac\/tiles\/WebMercatorQuad\/\{TileMatrix\}\/\{TileCol\}\/\{TileRow\}\.png\?url=/);
    assert.match(xml, /assets=red/);
  });
});

describe('/stac statistics vs numpy', () => {
  it('/asset_statistics: each asset on its own preview, plain b1.. descriptions', async () => {
    const r = await server.getJson<Record<string, Record<string, Stats>>>(`/stac/asset_statistics?url=${ITEM}&assets=:all:`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), expected.raster_assets);
    for (const name of expected.raster_assets) {
      assertClose(r.body[name], expected.assets[name].preview_stats, 1e-9, name);
      assert.equal(r.body[name]['b1']['description'], 'b1');
    }
    const opt = await server.getJson<Record<string, Record<string, Stats>>>(`/stac/asset_statistics?url=${ITEM}&assets=${q('visual|bidx=2')}`);
    assert.deepEqual(Object.keys(opt.body), ['visual|indexes=[2]']);
    // the single-dataset reader names a band by its index
    assertClose(opt.body['visual|indexes=[2]'], { b2: expected.assets['visual'].preview_stats['b2'] }, 1e-9, 'visual b2');
  });

  it('GET /statistics merges assets of different resolutions (nearest resize to the largest)', async () => {
    const r = await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${ITEM}&assets=red&assets=swir`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['b1', 'b2']);
    assertClose(r.body, expected.merged_red_swir, 1e-9, 'merged');
    assert.equal(r.body['b1']['description'], 'red_b1');
    assert.equal(r.body['b2']['description'], 'swir_b1');
    const asBand = await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${ITEM}&assets=red&assets=swir&asset_as_band=true`);
    assert.deepEqual([asBand.body['b1']['description'], asBand.body['b2']['description']], ['red', 'swir']);
    const all = await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${ITEM}&assets=:all:`);
    assert.deepEqual(Object.keys(all.body), ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']);
    assert.deepEqual(
      Object.values(all.body).map((s) => s['description']),
      ['red_b1', 'green_b1', 'nir_b1', 'swir_b1', 'visual_b1', 'visual_b2', 'visual_b3'],
    );
  });

  it('global expression over the concatenated bands; algorithm descriptions', async () => {
    const r = await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${ITEM}&assets=red&assets=nir&expression=${q('(b2-b1)/(b2+b1)')}`);
    assert.equal(r.status, 200);
    assertClose(r.body, expected.ndvi_stats, 1e-9, 'ndvi');
    assert.equal(r.body['b1']['description'], '(nir_b1-red_b1)/(nir_b1+red_b1)');
    const alg = await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${ITEM}&assets=red&assets=nir&asset_as_band=true&algorithm=normalizedIndex`);
    assert.equal(alg.status, 200);
    assert.equal(alg.body['b1']['description'], '(nir - red) / (nir + red)');
  });

  it('POST /statistics: Feature and FeatureCollection, merged bands', async () => {
    const [w, s, e, n] = expected.bbox;
    const cx = (w + e) / 2;
    const cy = (s + n) / 2;
    const geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [cx, s],
          [cx, cy],
          [w, cy],
          [w, s],
        ],
      ],
    };
    const r = await server.post(`/stac/statistics?url=${ITEM}&assets=red&assets=swir`, { type: 'Feature', properties: {}, geometry });
    assert.equal(r.status, 200);
    const body = (await r.json()) as { type: string; properties: { statistics: Record<string, Stats> } };
    assert.equal(body.type, 'Feature');
    assert.deepEqual(Object.keys(body.properties.statistics), ['b1', 'b2']);
    assert.equal(body.properties.statistics['b2']['description'], 'swir_b1');
    assert.ok((body.properties.statistics['b1']['valid_pixels'] as number) > 1000, 'valid pixels inside the polygon');
    const fc = await server.post(`/stac/statistics?url=${ITEM}&assets=red&assets=swir&expression=b1/b2&asset_as_band=true`, {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry }],
    });
    const fcBody = (await fc.json()) as { type: string; features: Array<{ properties: { statistics: Record<string, Stats> } }> };
    assert.equal(fcBody.type, 'FeatureCollection');
    assert.deepEqual(Object.keys(fcBody.features[0].properties.statistics), ['b1']);
    assert.equal(fcBody.features[0].properties.statistics['b1']['description'], 'red/swir');
  });
});

describe('/stac pixels vs rasterio', () => {
  it('point values at pixel centres (masked → null), names b1..bN, descriptions <asset>_b1', async () => {
    for (const pt of expected.points) {
      const r = await server.getJson<{ values: Array<number | null>; band_names: string[]; band_descriptions: string[]; coordinates: number[] }>(
        `/stac/point/${pt.lon},${pt.lat}?url=${ITEM}&assets=red&assets=green&assets=nir&assets=swir&assets=visual`,
      );
      assert.equal(r.status, 200);
      const v = pt.values;
      const want = [v['red'], v['green'], v['nir'], v['swir'], ...(v['visual'] as number[])].map((x) => (x === 0 ? null : x));
      assert.deepEqual(r.body.values, want, `${pt.lon},${pt.lat}`);
      assert.deepEqual(r.body.band_names, ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']);
      assert.deepEqual(r.body.band_descriptions, ['red_b1', 'green_b1', 'nir_b1', 'swir_b1', 'visual_b1', 'visual_b2', 'visual_b3']);
      assert.deepEqual(r.body.coordinates, [pt.lon, pt.lat]);
    }
  });

  it('point: per-asset bidx/bands/expression, asset_as_band, global expression, coord_crs', async () => {
    const pt = expected.points[1];
    const vis = pt.values['visual'] as number[];
    const at = (query: string) => server.getJson<{ values: number[]; band_descriptions: string[] }>(`/stac/point/${pt.lon},${pt.lat}?url=${ITEM}&${query}`);
    let r = await at(`assets=${q('visual|bidx=3,1')}`);
    assert.deepEqual(r.body.values, [vis[2], vis[0]]);
    r = await at(`assets=${q('visual|bands=blue')}&assets=red`);
    assert.deepEqual(r.body.values, [vis[2], pt.values['red']]);
    r = await at(`assets=${q('red|expression=b1*2')}`);
    assert.deepEqual(r.body.values, [(pt.values['red'] as number) * 2]);
    assert.deepEqual(r.body.band_descriptions, ['red_b1*2']);
    r = await at(`assets=red&asset_as_band=true&expression=b1*2`);
    assert.deepEqual(r.body.band_descriptions, ['red*2']);
    r = await at(`assets=red&assets=nir&expression=${q('(b2-b1)/(b2+b1)')}`);
    const red = pt.values['red'] as number;
    const nir = pt.values['nir'] as number;
    assertClose(r.body.values[0], (nir - red) / (nir + red), 1e-12, 'ndvi');
    const utm = await server.getJson<{ values: number[] }>(`/stac/point/${pt.x},${pt.y}?url=${ITEM}&assets=swir&coord_crs=EPSG:32633`);
    assert.deepEqual(utm.body.values, [pt.values['swir']]);
    // bidx is not a /stac parameter: ignored
    r = await at('assets=red&bidx=5');
    assert.deepEqual(r.body.values, [red]);
  });

  it('bbox part in the asset CRS equals rasterio window reads (swir resized 2× with nearest)', async () => {
    const [minx, miny, maxx, maxy] = expected.part.bounds;
    const a = await fetchNpy(
      server,
      `/stac/bbox/${minx},${miny},${maxx},${maxy}.npy?url=${ITEM}&assets=red&assets=nir&assets=swir&coord_crs=EPSG:32633&return_mask=false`,
    );
    assert.deepEqual(a.shape, [3, expected.part.height, expected.part.width]);
    assert.equal(a.descr, '<u2');
    ['red', 'nir', 'swir'].forEach((name, i) => assert.deepEqual(npyBand(a, i), [...oracleArray(expected.part.arrays[name])], name));
  });

  it('WebMercator tile: GDAL WarpedVRT per asset, and the same pixels as /cog tiles of each asset', async () => {
    const t = expected.tile;
    const tilePath = `/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy`;
    const a = await fetchNpy(server, `/stac${tilePath}?url=${ITEM}&assets=red&assets=swir&tilesize=${t.tilesize}&return_mask=false`);
    assert.deepEqual(a.shape, [2, t.tilesize, t.tilesize]);
    for (const [i, name] of ['red', 'swir'].entries()) {
      const want = oracleArray(t.arrays[name]);
      const got = npyBand(a, i);
      let same = 0;
      for (let k = 0; k < got.length; k++) if (got[k] === want[k]) same++;
      assert.ok(same / got.length >= 0.995, `${name}: ${same}/${got.length} pixels equal GDAL`);
      const cog = await fetchNpy(server, `/cog${tilePath}?url=${q(fixture('stac', `${name}.tif`))}&tilesize=${t.tilesize}&return_mask=false`);
      assert.deepEqual(got, npyBand(cog, 0), `${name} vs /cog`);
    }
  });

  it('images: dtypes and band counts (per-asset bidx, expressions → int32/float, asset_as_band)', async () => {
    const pre = `/stac/preview.npy?url=${ITEM}&return_mask=false`;
    let a = await fetchNpy(server, `${pre}&assets=red&assets=swir`);
    assert.deepEqual([a.descr, ...a.shape], ['<u2', 2, 160, 192]);
    a = await fetchNpy(server, `${pre}&assets=swir`);
    assert.deepEqual(a.shape, [1, 80, 96]);
    a = await fetchNpy(server, `${pre}&assets=${q('red|bidx=1,1,1')}`);
    assert.deepEqual(a.shape, [3, 160, 192]);
    a = await fetchNpy(server, `${pre}&assets=red&expression=${q('b1;b1;b1')}`);
    assert.deepEqual([a.descr, a.shape[0]], ['<i4', 3]);
    a = await fetchNpy(server, `${pre}&assets=${q('red|expression=b1;b1;b1')}`);
    assert.deepEqual([a.descr, a.shape[0]], ['<i4', 3]);
    a = await fetchNpy(server, `${pre}&assets=red&assets=visual`);
    assert.deepEqual([a.descr, a.shape[0]], ['<u2', 4]);
    a = await fetchNpy(server, `${pre}&assets=red&asset_as_band=true`);
    assert.equal(a.shape[0], 1);
    const png = await server.get(`/stac/preview.png?url=${ITEM}&assets=red&rescale=0,3000&max_size=64`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const tile = await server.get(
      `/stac/tiles/WebMercatorQuad/${expected.tile.z}/${expected.tile.x}/${expected.tile.y}?url=${ITEM}&assets=red&assets=green&assets=nir&rescale=0,4000`,
    );
    assert.equal(tile.status, 200);
  });

  it('STAC raster:bands statistics drive the auto-rescale of non-8-bit data', async () => {
    const png = async (assets: string) => {
      const r = await server.get(`/stac/preview.jpg?url=${ITEM}&${assets}`);
      assert.equal(r.status, 200);
      const { data } = await sharp(Buffer.from(await r.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      return data.reduce((m, v) => Math.max(m, v), 0);
    };
    // nir (500..5500 in the item) spans the byte range; red has no STAC statistics: uint16 range
    assert.ok((await png('assets=nir')) > 200, 'nir rescaled with its STAC statistics');
    assert.ok((await png('assets=red')) < 20, 'red rescaled from the uint16 range');
    // a per-asset expression drops the statistics (rio-tiler): int32 range, values near the middle
    const expr = await png(`assets=${q('nir|expression=b1+0')}`);
    assert.ok(expr > 120 && expr < 140, `expression: no statistics (${expr})`);
  });

  it('POST /feature masks outside the geometry', async () => {
    const [w, s, e, n] = expected.bbox;
    const geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [e, s],
          [w, n],
          [w, s],
        ],
      ],
    };
    const r = await server.post(`/stac/feature.npy?url=${ITEM}&assets=red&assets=swir`, { type: 'Feature', properties: {}, geometry });
    assert.equal(r.status, 200);
    const a = parseNpy(Buffer.from(await r.arrayBuffer()));
    assert.equal(a.shape[0], 3); // two bands + mask
    const mask = npyBand(a, 2); // 0 masked, dtype maximum valid
    assert.ok(mask.includes(0) && mask.includes(65535), 'masked and valid pixels');
  });
});

describe('/stac items: relative and absolute hrefs, local and over HTTP', () => {
  let http: RangeServer;
  let itemServer: RangeServer;
  let tmp: string;
  let local: TestServer;
  const pt = expected.points[1];
  const want = [pt.values['red'], pt.values['swir']];

  before(async () => {
    http = await startRangeServer({ root: fixture('stac') });
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-stac-'));
    const item = JSON.parse(readFileSync(fixture('stac', 'item.json'), 'utf8')) as { assets: Record<string, { href: string }> };
    const abs = (base: string) => {
      const copy = structuredClone(item);
      for (const a of Object.values(copy.assets)) a.href = `${base}/${path.basename(a.href)}`;
      return JSON.stringify(copy);
    };
    writeFileSync(path.join(tmp, 'item-http.json'), abs(http.url));
    writeFileSync(path.join(tmp, 'item-file.json'), abs(`file://${fixture('stac')}`));
    writeFileSync(path.join(tmp, 'item-path.json'), abs(fixture('stac')));
    // only 'red' is broken in these two: the other assets point at the real fixtures, so the
    // request's failure can only come from 'red' (several failing assets would race).
    const withRed = (href: string) => {
      const copy = JSON.parse(abs(fixture('stac'))) as typeof item;
      copy.assets['red'].href = href;
      return copy;
    };
    const outside = withRed('/etc/hostname');
    writeFileSync(path.join(tmp, 'item-outside.json'), JSON.stringify(outside));
    const ghost = withRed('./ghost.tif');
    writeFileSync(path.join(tmp, 'item-ghost.json'), JSON.stringify(ghost));
    itemServer = await startRangeServer({ root: tmp });
    local = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tmp];
    });
  });
  after(async () => {
    await local.close();
    await http.close();
    await itemServer.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const pointAt = (srv: TestServer, url: string) => srv.getJson<{ values: number[] }>(`/stac/point/${pt.lon},${pt.lat}?url=${q(url)}&assets=red&assets=swir`);

  it('relative hrefs: ./, bare and ../, locally', async () => {
    for (const url of ['item.json', 'item-props-proj.json', 'items/item-noproj.json']) {
      const r = await pointAt(server, fixture('stac', ...url.split('/')));
      assert.deepEqual(r.body.values, want, url);
    }
    const r = await pointAt(server, `file://${fixture('stac', 'item.json')}`);
    assert.deepEqual(r.body.values, want);
  });

  it('relative hrefs over HTTP resolve against the item URL', async () => {
    for (const url of ['item.json', 'items/item-noproj.json']) {
      const r = await pointAt(server, `${http.url}/${url}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.values, want, url);
    }
    assert.ok(http.requestsFor('/red.tif').length > 0, 'red.tif read over HTTP');
    assert.ok(http.requestsFor('/swir.tif').length > 0, 'swir.tif read over HTTP');
    const stats = await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${q(`${http.url}/item.json`)}&assets=red&assets=swir`);
    assertClose(stats.body, expected.merged_red_swir, 1e-9, 'merged over HTTP');
  });

  it('absolute hrefs: http://, file:// and paths', async () => {
    for (const name of ['item-http.json', 'item-file.json', 'item-path.json']) {
      const r = await pointAt(local, path.join(tmp, name));
      assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body.values, want, name);
    }
    const r = await pointAt(local, `${itemServer.url}/item-http.json`);
    assert.deepEqual(r.body.values, want);
  });

  it('asset hrefs go through the source policy; a missing asset fails the request naming it', async () => {
    const outside = await local.getJson<{ detail: string }>(`/stac/preview.npy?url=${q(path.join(tmp, 'item-outside.json'))}&assets=red&assets=swir`);
    assert.equal(outside.status, 403);
    assert.match(outside.body.detail, /^Asset 'red': /);
    const ghost = await local.getJson<{ detail: string }>(`/stac/info?url=${q(path.join(tmp, 'item-ghost.json'))}&assets=red&assets=swir`);
    assert.equal(ghost.status, 404);
    assert.match(ghost.body.detail, /^Asset 'red': /);
    // over HTTP, a remote item's relative hrefs land on the item's own server
    const ghostHttp = await local.getJson<{ detail: string }>(`/stac/point/${pt.lon},${pt.lat}?url=${q(`${itemServer.url}/item-ghost.json`)}&assets=red`);
    assert.equal(ghostHttp.status, 404);
    assert.equal(ghostHttp.body.detail, `Asset 'red': Dataset not found: ${itemServer.url}/ghost.tif (HTTP 404)`);
  });
});

describe('/stac failing and slow assets', () => {
  let flaky: RangeServer;
  let slow: RangeServer;
  let tmp: string;
  let srv: TestServer;
  before(async () => {
    flaky = await startRangeServer({ root: fixture('stac'), status: (p) => (p === '/nir.tif' ? 500 : undefined) });
    slow = await startRangeServer({ root: fixture('stac'), delayMs: 3000 });
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-stac-slow-'));
    const item = JSON.parse(readFileSync(fixture('stac', 'item.json'), 'utf8')) as { assets: Record<string, { href: string }> };
    for (const a of Object.values(item.assets)) a.href = fixture('stac', path.basename(a.href));
    item.assets['swir'].href = `${slow.url}/swir.tif`;
    writeFileSync(path.join(tmp, 'item.json'), JSON.stringify(item));
    srv = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tmp];
      c.sources.requestTimeoutMs = 300;
      c.sources.retries = 0;
    });
  });
  after(async () => {
    await srv.close();
    await flaky.close();
    await slow.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('an upstream error on one asset fails the request with that asset named', async () => {
    const r = await srv.getJson<{ detail: string }>(`/stac/preview.npy?url=${q(`${flaky.url}/item.json`)}&assets=red&assets=nir`);
    assert.equal(r.status, 502);
    assert.match(r.body.detail, /^Asset 'nir': /);
  });

  it('a slow asset times out (504) with that asset named', async () => {
    const r = await srv.getJson<{ detail: string }>(`/stac/preview.npy?url=${q(path.join(tmp, 'item.json'))}&assets=red&assets=swir`);
    assert.equal(r.status, 504);
    assert.match(r.body.detail, /^Asset 'swir': /);
  });
});

describe('/stac validation and errors', () => {
  const needAssets = [
    `/stac/info?url=${ITEM}`,
    `/stac/info.geojson?url=${ITEM}`,
    `/stac/asset_statistics?url=${ITEM}`,
    `/stac/statistics?url=${ITEM}`,
    `/stac/tiles/WebMercatorQuad/14/8875/5826?url=${ITEM}`,
    `/stac/WebMercatorQuad/tilejson.json?url=${ITEM}`,
    `/stac/tilejson.json?url=${ITEM}`,
    `/stac/WebMercatorQuad/map.html?url=${ITEM}`,
    `/stac/point/15.02,46.04?url=${ITEM}`,
    `/stac/preview.png?url=${ITEM}`,
    `/stac/bbox/15.01,46.03,15.02,46.04.png?url=${ITEM}`,
    `/stac/WMTSCapabilities.xml?url=${ITEM}`,
  ];

  it('assets is required: 422 with a pydantic-style body', async () => {
    for (const p of needAssets) {
      const r = await server.getJson<{ detail: Array<{ type: string; loc: unknown[] }> }>(p);
      assert.equal(r.status, 422, p);
      assert.deepEqual(r.body.detail[0].loc, ['query', 'assets'], p);
      assert.equal(r.body.detail[0].type, 'missing');
    }
    const post = await server.post(`/stac/statistics?url=${ITEM}`, {
      type: 'Feature',
      properties: {},
      geometry: { type: 'Point', coordinates: [15.02, 46.04] },
    });
    assert.equal(post.status, 422);
    const feature = await server.post(`/stac/feature.png?url=${ITEM}`, {
      type: 'Feature',
      properties: {},
      geometry: { type: 'Point', coordinates: [15.02, 46.04] },
    });
    assert.equal(feature.status, 422);
  });

  it('malformed per-asset options: 422', async () => {
    const a = await server.getJson<{ detail: Array<{ type: string; loc: unknown[]; msg: string }> }>(`/stac/info?url=${ITEM}&assets=${q('red|bidx')}`);
    assert.equal(a.status, 422);
    assert.deepEqual(a.body.detail[0].loc, ['query', 'assets', 0]);
    assert.equal(a.body.detail[0].type, 'value_error');
    assert.match(a.body.detail[0].msg, /Invalid asset option 'bidx'/);
    const b = await server.getJson<{ detail: Array<{ loc: unknown[]; msg: string }> }>(`/stac/preview.png?url=${ITEM}&assets=red&assets=${q('nir|bidx=1,x')}`);
    assert.equal(b.status, 422);
    assert.deepEqual(b.body.detail[0].loc, ['query', 'assets', 1]);
    assert.match(b.body.detail[0].msg, /invalid bidx value '1,x'/);
  });

  it('unknown asset → 404 listing the valid names; :all: only on info/statistics', async () => {
    const r = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=B1111`);
    assert.equal(r.status, 404);
    assert.equal(r.body.detail, "'B1111' is not valid, should be one of ['red', 'green', 'nir', 'swir', 'visual']");
    const thumb = await server.getJson<{ detail: string }>(`/stac/info?url=${ITEM}&assets=thumbnail`);
    assert.equal(thumb.status, 404);
    const all = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=:all:`);
    assert.equal(all.status, 404);
    assert.match(all.body.detail, /^':all:' is not valid/);
  });

  it('item problems: no raster asset 400, missing 404, not JSON 400, outside the roots 403', async () => {
    const none = await server.getJson<{ detail: string }>(`/stac/assets?url=${q(fixture('stac', 'item-no-raster.json'))}`);
    assert.equal(none.status, 400);
    assert.match(none.body.detail, /No valid asset found/);
    assert.equal((await server.get(`/stac/assets?url=${q(fixture('stac', 'nope.json'))}`)).status, 404);
    assert.equal((await server.get(`/stac/assets?url=${q(fixture('stac', 'red.tif'))}`)).status, 400);
    assert.equal((await server.get(`/stac/assets?url=${q('/etc/hostname')}`)).status, 403);
  });

  it('expression errors, asset_as_band on a multi-band asset, bad bands: 400', async () => {
    const bad = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=red&expression=${q('b1+')}`);
    assert.equal(bad.status, 400);
    const beyond = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=red&expression=${q('b1+b2')}`);
    assert.equal(beyond.status, 400);
    const named = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=red&assets=nir&expression=${q('nir/red')}`);
    assert.equal(named.status, 400);
    const multi = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=red&assets=visual&asset_as_band=true`);
    assert.equal(multi.status, 400);
    assert.match(multi.body.detail, /asset_as_band/);
    const bands = await server.getJson<{ detail: string }>(`/stac/preview.png?url=${ITEM}&assets=${q('visual|bands=nir')}`);
    assert.equal(bands.status, 400);
    assert.match(bands.body.detail, /Band 'nir' not found/);
  });

  it('tiles outside the item → 404', async () => {
    const r = await server.get(`/stac/tiles/WebMercatorQuad/14/0/0?url=${ITEM}&assets=red`);
    assert.equal(r.status, 404);
  });
});
