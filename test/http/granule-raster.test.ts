/**
 * The /raster router end to end: a local CMR stand-in serving the generated granule records
 * (scripts/fixtures/granules.py) whose https hrefs point at a local range server holding the COG
 * granules. Mosaic pixels are compared with GDAL (scripts/fixtures/mosaic.py: WarpedVRT reads of
 * each granule in CMR order, combined with rio-tiler's numpy rules); point values with /cog reads
 * of each granule's file (themselves tested against rasterio). Also: 204s, `first`'s early exit
 * (data-host log), asset notation, assets_regex, asset_as_band, expressions, CMR errors, info,
 * TileJSON and tile sets.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { getTileMatrixSet } from '../../src/geo/tms.ts';
import { buildApp } from '../../src/http/app.ts';
import { createServices } from '../../src/http/services.ts';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fetchNpy, npyBand, parseNpy } from '../helpers/npy.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from '../search/granule-fixtures.ts';

interface ArrayRef {
  offset: number;
  dtype: string;
  shape: number[];
}
interface MaskedRef {
  data: ArrayRef;
  valid: ArrayRef;
  dtype?: string;
}
interface Expected {
  cmr_order: string[];
  tile: { z: number; x: number; y: number; tilesize: number; assets: string[]; granules_with_data: string[]; first: MaskedRef };
  part: { bounds: number[]; width: number; height: number; assets: string[]; first: MaskedRef };
  methods: { z: number; x: number; y: number; tilesize: number; results: Record<string, MaskedRef> };
}

const expected = JSON.parse(readFileSync(fixture('mosaic', 'expected.json'), 'utf8')) as Expected;
const oracle = inflateSync(readFileSync(fixture('mosaic', 'oracle.bin.z')));
const CTORS = { uint8: Uint8Array, uint16: Uint16Array, float64: Float64Array, float32: Float32Array, int32: Int32Array } as const;
function oracleArray(ref: ArrayRef): ArrayLike<number> {
  const ctor = CTORS[ref.dtype as keyof typeof CTORS];
  assert.ok(ctor, `oracle dtype ${ref.dtype}`);
  const n = ref.shape.reduce((a, b) => a * b, 1);
  return new ctor(oracle.buffer.slice(oracle.byteOffset + ref.offset, oracle.byteOffset + ref.offset + ctor.BYTES_PER_ELEMENT * n));
}

const DTYPE_DESCR: Record<string, string> = { uint8: '|u1', uint16: '<u2', float64: '<f8', float32: '<f4' };

let data: RangeServer;
let cmr: CmrStandin;
let server: TestServer;

const COLL = `collection_concept_id=${COLLECTION_ID}`;
const REGEX = `assets_regex=${q('B0[0-9]')}`;
const RGB = 'assets=B02&assets=B03&assets=B04';

before(async () => {
  data = await startRangeServer({ root: GRANULE_DATA_DIR });
  const fx = loadGranuleFixtures(data.url);
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
  server = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
  });
});
after(async () => {
  await server.close();
  await cmr.close();
  await data.close();
});

/** Compares bands + mask with the oracle: same validity and value on at least `share` of the pixels. */
function compareMasked(a: { shape: number[]; data: ArrayLike<number> }, ref: MaskedRef, bands: number, share: number, where: string, tol = 0): void {
  assert.equal(a.shape[0], bands + 1, `${where}: bands + mask`);
  const n = a.shape[1] * a.shape[2];
  const want = oracleArray(ref.data);
  const valid = oracleArray(ref.valid);
  const mask = npyBand(a, bands);
  let same = 0;
  let validCount = 0;
  for (let b = 0; b < bands; b++) {
    for (let k = 0; k < n; k++) {
      const isValid = valid[b * n + k] !== 0;
      if (isValid) validCount++;
      const gotValid = mask[k] !== 0;
      if (isValid !== gotValid) continue;
      if (!isValid || Math.abs(a.data[b * n + k] - want[b * n + k]) <= tol * Math.max(1, Math.abs(want[b * n + k]))) same++;
    }
  }
  assert.ok(validCount > 0, `${where}: the oracle has valid pixels`);
  assert.ok(same / (bands * n) >= share, `${where}: ${same}/${bands * n} samples equal GDAL`);
}

describe('/raster mosaics vs GDAL', () => {
  it('first: a z13 tile over four overlapping granules (G1 nodata corner filled by G4)', async () => {
    const t = expected.tile;
    const a = await fetchNpy(
      server,
      `/raster/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?${COLL}&${REGEX}&${RGB}&tilesize=${t.tilesize}&exitwhenfull=false`,
    );
    assert.deepEqual([a.descr, ...a.shape], ['<u2', 4, t.tilesize, t.tilesize], 'uint16, 3 bands + mask');
    compareMasked(a, t.first, 3, 0.995, 'tile first');
  });

  it('first: an EPSG:4326 bbox at a forced size', async () => {
    const p = expected.part;
    const [w, s, e, n] = p.bounds;
    const a = await fetchNpy(server, `/raster/bbox/${w},${s},${e},${n}/${p.width}x${p.height}.npy?${COLL}&${REGEX}&${RGB}&exitwhenfull=false`);
    assert.deepEqual(a.shape, [4, p.height, p.width], 'shape');
    compareMasked(a, p.first, 3, 0.995, 'part first');
  });

  for (const method of ['first', 'highest', 'lowest', 'mean', 'median', 'stdev', 'count', 'lastbandhigh', 'lastbandlow']) {
    it(`pixel_selection=${method} on a tile where 2–4 granules overlap`, async () => {
      const m = expected.methods;
      const ref = m.results[method];
      const assets = method.startsWith('lastband') ? 'assets=B03&assets=B04' : 'assets=B04';
      const a = await fetchNpy(
        server,
        `/raster/tiles/WebMercatorQuad/${m.z}/${m.x}/${m.y}.npy?${COLL}&${REGEX}&${assets}&tilesize=${m.tilesize}&exitwhenfull=false&pixel_selection=${method}`,
      );
      assert.equal(a.descr, DTYPE_DESCR[ref.dtype!], `${method}: dtype ${ref.dtype}`);
      compareMasked(a, ref, 1, 0.995, method, method === 'stdev' ? 1e-9 : 0);
    });
  }
});

describe('/raster: granules, assets and bands', () => {
  // A point in G1's valid area that G4 (same grid, later date) also covers; G2/G3 do not.
  const LON = 15.018;
  const LAT = 45.05;
  const [g1, , , g4] = expected.cmr_order;
  const cogPoint = async (ur: string, b: string): Promise<number> => {
    const url = `${data.url}/rastile-test-protected/RASTILE_GRAN.001/${ur}/${ur}.${b}.tif`;
    const r = await server.getJson<{ values: number[] }>(`/cog/point/${LON},${LAT}?url=${q(url)}`);
    assert.equal(r.status, 200, `/cog/point ${ur} ${b}`);
    return r.body.values[0];
  };
  type PointBody = { coordinates: number[]; assets: Array<{ name: string; values: Array<number | null>; band_names: string[]; band_descriptions: string[] }> };
  const point = async (query: string) => {
    const r = await server.getJson<PointBody>(`/raster/point/${LON},${LAT}?${COLL}&exitwhenfull=false&${query}`);
    assert.equal(r.status, 200, `point ${query}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  it('point: one entry per granule containing it, in CMR order, values = /cog reads', async () => {
    const body = await point(`${REGEX}&assets=B04&assets=B03`);
    assert.deepEqual(body.coordinates, [LON, LAT], 'coordinates');
    assert.deepEqual(
      body.assets.map((a) => a.name),
      [g1, g4],
      'granules',
    );
    for (const entry of body.assets) {
      assert.deepEqual(entry.values, [await cogPoint(entry.name, 'B04'), await cogPoint(entry.name, 'B03')], `${entry.name} values`);
      assert.deepEqual(entry.band_names, ['b1', 'b2'], 'band names');
      assert.deepEqual(entry.band_descriptions, ['B04_b1', 'B03_b1'], 'band descriptions');
    }
  });

  it('a granule across the antimeridian (G5) is found and read on both sides', async () => {
    const g5 = 'RASTILE.G5.60KYF.20240502.v1.0';
    for (const lon of [179.95, -179.85]) {
      const r = await server.getJson<PointBody>(`/raster/point/${lon},-17.1?${COLL}&${REGEX}&assets=B03`);
      assert.equal(r.status, 200, `point ${lon}`);
      assert.deepEqual(
        r.body.assets.map((a) => a.name),
        [g5],
        `G5 at ${lon}`,
      );
      const url = `${data.url}/rastile-test-protected/RASTILE_GRAN.001/${g5}/${g5}.B03.tif`;
      const cog = await server.getJson<{ values: number[] }>(`/cog/point/${lon},-17.1?url=${q(url)}`);
      assert.deepEqual(r.body.assets[0].values, cog.body.values, `values at ${lon}`);
    }
    const t = getTileMatrixSet('WebMercatorQuad').tileAt(-179.9, -17.1, 10, true);
    const tile = await server.get(`/raster/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.png?${COLL}&${REGEX}&assets=B03`);
    assert.equal(tile.status, 200, 'tile east of the antimeridian');
    await tile.arrayBuffer();
  });

  it('asset_as_band describes bands by asset key', async () => {
    const body = await point(`${REGEX}&assets=B04&assets=B03&asset_as_band=true`);
    assert.deepEqual(body.assets[0].band_descriptions, ['B04', 'B03'], 'descriptions');
  });

  it('per-asset notation: bidx and expression', async () => {
    const b04 = await cogPoint(g1, 'B04');
    const b03 = await cogPoint(g1, 'B03');
    const body = await point(`${REGEX}&assets=${q('B04|bidx=1,1')}&assets=${q('B03|expression=b1*2')}`);
    assert.deepEqual(body.assets[0].values, [b04, b04, b03 * 2], 'values');
  });

  it('expression across assets, and a 0.x expression naming assets', async () => {
    const diff = (await cogPoint(g1, 'B04')) - (await cogPoint(g1, 'B03'));
    const positional = await point(`${REGEX}&assets=B04&assets=B03&expression=${q('b1-b2')}`);
    assert.deepEqual(positional.assets[0].values, [diff], 'b1-b2');
    const legacy = await point(`${REGEX}&expression=${q('B04-B03')}`);
    assert.deepEqual(legacy.assets[0].values, [diff], 'assets taken from the expression');
    const legacyWithAssets = await point(`${REGEX}&assets=B03&assets=B04&expression=${q('B04-B03')}`);
    assert.deepEqual(legacyWithAssets.assets[0].values, [diff], 'names mapped onto positions in assets');
  });

  it('without assets_regex assets are "0", "1", … (the default "0" is the first file)', async () => {
    const body = await point('');
    assert.deepEqual(body.assets[0].values, [await cogPoint(g1, 'B02')], 'asset 0 = B02');
    const second = await point('assets=2');
    assert.deepEqual(second.assets[0].values, [await cogPoint(g1, 'B04')], 'asset 2 = B04');
  });

  it('bands_regex is a hidden alias of assets_regex', async () => {
    const body = await point(`bands_regex=${q('B0[0-9]')}&assets=B03`);
    assert.deepEqual(body.assets[0].values, [await cogPoint(g1, 'B03')], 'B03');
  });

  it('an unknown asset is 404 naming the valid keys', async () => {
    const r = await server.getJson<{ detail: string }>(`/raster/point/${LON},${LAT}?${COLL}&${REGEX}&assets=B09`);
    assert.equal(r.status, 404, 'status');
    assert.match(r.body.detail, /'B09' is not valid, should be one of \['B02', 'B03', 'B04'\]/, r.body.detail);
  });

  it('an invalid regex or pixel_selection is a 422', async () => {
    const bad = await server.getJson<{ detail: Array<{ loc: unknown[] }> }>(`/raster/point/${LON},${LAT}?${COLL}&assets_regex=${q('B[0')}`);
    assert.equal(bad.status, 422, 'regex');
    assert.deepEqual(bad.body.detail[0].loc, ['query', 'assets_regex'], 'loc');
    const method = await server.getJson(`/raster/tiles/WebMercatorQuad/1/1/1?${COLL}&pixel_selection=max`);
    assert.equal(method.status, 422, 'pixel_selection');
  });
});

describe('/raster: no data, early exit, errors', () => {
  it('204 with an empty body when no granule is found', async () => {
    const r = await server.get(`/raster/tiles/WebMercatorQuad/13/100/100.png?${COLL}&${REGEX}&assets=B04`);
    assert.equal(r.status, 204, 'status');
    assert.equal((await r.arrayBuffer()).byteLength, 0, 'empty body');
    const before = cmr.granuleRequests().length;
    const outside = await server.get(`/raster/bbox/15.0,45.02,15.07,45.06.png?${COLL}&${REGEX}&assets=B04&bounding_box=0,0,1,1`);
    assert.equal(outside.status, 204, 'bounding_box outside the area');
    assert.equal(cmr.granuleRequests().length, before, 'no CMR request for an empty intersection');
    const point = await server.get(`/raster/point/0,0?${COLL}`);
    assert.equal(point.status, 204, 'point');
  });

  it('first stops reading granules once the tile is filled (data-host requests)', async () => {
    const one = await startTestServer((c) => {
      c.cmrUrl = cmr.url;
      c.mosaicConcurrency = 1;
    });
    try {
      const [g1, , , g4] = expected.cmr_order;
      const tms = getTileMatrixSet('WebMercatorQuad');
      const t = tms.tileAt(15.018, 45.05, 16, true); // inside G1's valid area, covered by G1 and G4 only
      const reads = (ur: string) => data.requests.filter((r) => r.path.includes(`/${ur}/`)).length;
      const path = (method: string) =>
        `/raster/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.png?${COLL}&${REGEX}&assets=B04&exitwhenfull=false&pixel_selection=${method}`;
      const g1Before = reads(g1);
      const g4Before = reads(g4);
      const first = await one.get(path('first'));
      assert.equal(first.status, 200, 'first');
      assert.ok(reads(g1) > g1Before, 'G1 read');
      assert.equal(reads(g4), g4Before, 'G4 never read: G1 filled the tile');
      const highest = await one.get(path('highest'));
      assert.equal(highest.status, 200, 'highest');
      assert.ok(reads(g4) > g4Before, 'highest reads G4 too');
    } finally {
      await one.close();
    }
  });

  it('CMR failures: 5xx → 502, 4xx → 400, timeout → 504', async () => {
    const failing = await startCmrStandin({ granules: [], status: 500 });
    const slow = await startCmrStandin({ granules: [], delayMs: 2000 });
    const s500 = await startTestServer((c) => {
      c.cmrUrl = failing.url;
      c.cmrRetries = 0;
    });
    const sSlow = await startTestServer((c) => {
      c.cmrUrl = slow.url;
      c.cmrTimeoutMs = 200;
      c.cmrRetries = 0;
    });
    try {
      const r502 = await s500.getJson<{ detail: string }>(`/raster/tiles/WebMercatorQuad/13/4437/2945.png?${COLL}`);
      assert.equal(r502.status, 502, `5xx: ${JSON.stringify(r502.body)}`);
      const r400 = await server.getJson<{ detail: string }>(`/raster/tiles/WebMercatorQuad/13/4437/2945.png?assets=0`);
      assert.equal(r400.status, 400, `no collection: ${JSON.stringify(r400.body)}`);
      const r504 = await sSlow.getJson<{ detail: string }>(`/raster/tiles/WebMercatorQuad/13/4437/2945.png?${COLL}`);
      assert.equal(r504.status, 504, `timeout: ${JSON.stringify(r504.body)}`);
      assert.match(r504.body.detail, /timed out/, 'message');
    } finally {
      await Promise.all([s500.close(), sSlow.close(), failing.close(), slow.close()]);
    }
  });
});

describe('/raster: feature and statistics', () => {
  const ring = [
    [15.005, 45.02],
    [15.06, 45.02],
    [15.06, 45.06],
    [15.005, 45.02],
  ];
  const feature = { type: 'Feature', properties: { name: 'triangle' }, geometry: { type: 'Polygon', coordinates: [ring] } };

  it('POST /feature masks outside the geometry', async () => {
    const r = await server.post(`/raster/feature/64x64.npy?${COLL}&${REGEX}&assets=B04&exitwhenfull=false`, feature);
    assert.equal(r.status, 200, 'status');
    const a = parseNpy(Buffer.from(await r.arrayBuffer()));
    assert.deepEqual(a.shape, [2, 64, 64], 'band + mask');
    const mask = npyBand(a, 1);
    assert.equal(mask[0], 0, 'the north-west corner is outside the triangle');
    assert.ok(mask[40 * 64 + 50] !== 0, 'a pixel inside the triangle and over G1 is valid');
  });

  it('POST /statistics: per-feature stats and used_assets (granule_urs in CMR order)', async () => {
    const before = cmr.granuleRequests().length;
    const fc = { type: 'FeatureCollection', features: [feature, { ...feature, properties: {} }] };
    const r = await server.post(`/raster/statistics?${COLL}&${REGEX}&assets=B04&asset_as_band=true&exitwhenfull=false`, fc);
    const body = (await r.json()) as {
      type: string;
      features: Array<{ properties: { statistics: Record<string, Record<string, unknown>>; used_assets: string[]; name?: string } }>;
    };
    assert.equal(r.status, 200, JSON.stringify(body));
    assert.match(r.headers.get('content-type') ?? '', /^application\/geo\+json/, 'content type');
    assert.equal(body.type, 'FeatureCollection', 'same kind back');
    for (const f of body.features) {
      assert.deepEqual(Object.keys(f.properties.statistics), ['b1'], 'one band');
      assert.equal(f.properties.statistics['b1']['description'], 'B04', 'asset_as_band description');
      assert.ok((f.properties.statistics['b1']['count'] as number) > 0, 'valid pixels');
      assert.deepEqual(f.properties.used_assets, expected.cmr_order.slice(0, f.properties.used_assets.length), 'CMR order');
      assert.ok(f.properties.used_assets.length >= 2, 'several granules');
    }
    assert.equal(body.features[0].properties.name, 'triangle', 'input properties kept');
    assert.equal(cmr.granuleRequests().length - before >= 2, true, 'one search per feature');
  });

  it('GET /statistics and /preview do not exist under /raster', async () => {
    assert.equal((await server.get(`/raster/statistics?${COLL}`)).status, 404, 'statistics');
    assert.equal((await server.get(`/raster/preview?${COLL}`)).status, 404, 'preview');
    assert.equal((await server.get(`/raster/tiles/WebMercatorQuad/0/0/0/granules?${COLL}`)).status, 404, 'granules');
  });
});

describe('/raster metadata: info, TileJSON, tile sets', () => {
  it('info: the world without granule_ur or bounding_box', async () => {
    const r = await server.getJson(`/raster/info?${COLL}`);
    assert.equal(r.status, 200, 'status');
    assert.deepEqual(r.body, { bounds: [-180, -90, 180, 90], crs: 'http://www.opengis.net/def/crs/EPSG/0/4326' }, 'body');
  });

  it('info: bounding_box, and the footprint envelope of granule_ur (one CMR search)', async () => {
    const box = await server.getJson<{ bounds: number[] }>(`/raster/info?${COLL}&bounding_box=10,40,20,50`);
    assert.deepEqual(box.body.bounds, [10, 40, 20, 50], 'bounding_box');
    const fx = loadGranuleFixtures();
    const g2 = Object.values(fx.expected).find((e) => e.granule_ur.includes('.G2.'))!;
    const r = await server.getJson<{ bounds: number[] }>(`/raster/info?${COLL}&granule_ur=${g2.granule_ur}`);
    assert.equal(r.status, 200, 'status');
    r.body.bounds.forEach((v, i) => assert.ok(Math.abs(v - g2.footprint_envelope[i]) < 1e-9, `bounds[${i}] ${v} vs ${g2.footprint_envelope[i]}`));
    const missing = await server.get(`/raster/info?${COLL}&granule_ur=NOPE`);
    assert.equal(missing.status, 204, 'unknown granule_ur → 204');
    const geojson = await server.getJson<{ type: string; bbox: number[]; geometry: { type: string } }>(`/raster/info.geojson?${COLL}&bounding_box=10,40,20,50`);
    assert.match(geojson.headers.get('content-type') ?? '', /^application\/geo\+json/, 'geojson content type');
    assert.deepEqual([geojson.body.type, geojson.body.geometry.type, geojson.body.bbox], ['Feature', 'Polygon', [10, 40, 20, 50]], 'feature');
  });

  it('TileJSON: world bounds, zooms 0–18, query copied with tilesize=512, no CMR call', async () => {
    const before = cmr.granuleRequests().length;
    const r = await server.getJson<Record<string, unknown>>(
      `/raster/WebMercatorQuad/tilejson.json?${COLL}&${REGEX}&assets=B04&temporal=2024-05-01T00:00:00Z/2024-05-31T00:00:00Z`,
    );
    assert.equal(r.status, 200, 'status');
    assert.deepEqual([r.body['bounds'], r.body['minzoom'], r.body['maxzoom']], [[-180, -90, 180, 90], 0, 18], 'bounds and zooms');
    const tiles = r.body['tiles'] as string[];
    assert.ok(tiles[0].startsWith(`${server.url}/raster/tiles/WebMercatorQuad/{z}/{x}/{y}?collection_concept_id=${COLLECTION_ID}`), tiles[0]);
    assert.ok(tiles[0].endsWith('&tilesize=512'), tiles[0]);
    assert.ok(tiles[0].includes('temporal=2024-05-01T00%3A00%3A00Z%2F2024-05-31T00%3A00%3A00Z'), tiles[0]);
    assert.equal(cmr.granuleRequests().length, before, 'no search');
    const z = await server.getJson<Record<string, unknown>>(`/raster/WebMercatorQuad/tilejson.json?${COLL}&minzoom=5&maxzoom=12`);
    assert.deepEqual([z.body['minzoom'], z.body['maxzoom']], [5, 12], 'overrides');
  });

  it('tile sets: 13 TMSs, zooms 0–18 over the search bounds; map page', async () => {
    const list = await server.getJson<{ tilesets: unknown[] }>(`/raster/tiles?${COLL}`);
    assert.equal(list.status, 200, 'list');
    assert.equal(list.body.tilesets.length, 13, '13 TMSs');
    const one = await server.getJson<{ tileMatrixSetLimits: Array<{ tileMatrix: string }> }>(`/raster/tiles/WebMercatorQuad?${COLL}`);
    assert.equal(one.body.tileMatrixSetLimits.length, 19, 'zooms 0..18');
    const map = await server.get(`/raster/WebMercatorQuad/map.html?${COLL}`);
    assert.equal(map.status, 200, 'map');
    assert.match(map.headers.get('content-type') ?? '', /text\/html/, 'html');
    await map.arrayBuffer();
  });
});

describe('granule-search configuration', () => {
  it('environment variables: CMR client id, timeout, retries, mosaic concurrency, Earthdata', () => {
    const c = configFromEnv({
      RASTILE_CMR_CLIENT_ID: 'my-app',
      RASTILE_CMR_TIMEOUT_MS: '5000',
      RASTILE_CMR_RETRIES: '0',
      RASTILE_MOSAIC_CONCURRENCY: '3',
      EARTHDATA_TOKEN: 'secret-token',
    });
    assert.deepEqual([c.cmrClientId, c.cmrTimeoutMs, c.cmrRetries, c.mosaicConcurrency], ['my-app', 5000, 0, 3], 'values');
    assert.equal(c.earthdata?.token, 'secret-token', 'token');
    const d = configFromEnv({});
    assert.deepEqual([d.cmrClientId, d.cmrTimeoutMs, d.cmrRetries, d.mosaicConcurrency, d.earthdata], [undefined, 20000, 2, 5, undefined], 'defaults');
    assert.throws(() => configFromEnv({ RASTILE_MOSAIC_CONCURRENCY: 'many' }), /RASTILE_MOSAIC_CONCURRENCY/, 'validated');
  });

  it('the CMR client sends client-id; granule reads register their data hosts for the Earthdata token', async () => {
    const config = configFromEnv({ RASTILE_CMR_CLIENT_ID: 'rastile-test', EARTHDATA_TOKEN: 'tok' }, { allowPrivateHosts: true });
    config.cmrUrl = cmr.url;
    const services = createServices(config);
    const app = buildApp(config, { services });
    try {
      const host = new URL(data.url).host;
      assert.equal(await services.earthdata!.authHeaders(new URL(`https://${host}/x.tif`)), undefined, 'host unknown before any granule');
      const r = await app.inject(`/raster/point/15.018,45.05?${COLL}&${REGEX}&assets=B04`);
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(await services.earthdata!.authHeaders(new URL(`https://${host}/x.tif`)), { authorization: 'Bearer tok' }, 'granule data host allowed');
      assert.equal(await services.earthdata!.authHeaders(new URL('https://elsewhere.example/x.tif')), undefined, 'other hosts never get it');
      assert.equal(cmr.granuleRequests().at(-1)!.headers['client-id'], 'rastile-test', 'client-id header');
    } finally {
      await app.close();
    }
  });
});
