/**
 * The /array router end to end: a CMR stand-in serving two granule records whose https data
 * links point at a local range server holding the NetCDF fixtures of
 * scripts/fixtures/make-array-grid-fixtures.py; values against xarray and GDAL (expected.json),
 * `{datetime}` interpolation and the temporal rule (§6.3), expressions naming variables, the
 * per-granule point route, the legacy `backend=xarray` redirects landing on working routes, and
 * bad input.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startCmrStandin, type CmrStandin, type UmmItem } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { parseNpy } from '../helpers/npy.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const EXPECTED = JSON.parse(readFileSync(fixture('array', 'expected.json'), 'utf8')) as {
  sst: { feb: Array<number | null>; nearest_feb20: Array<number | null>; tiles: Record<string, Array<number | null>> };
};
const COLLECTION = 'C9000000001-RASTILE';

function granule(ur: string, begin: string, end: string, file: string, host: string): UmmItem {
  return {
    meta: {
      'concept-type': 'granule',
      'concept-id': `G-${ur}`,
      'revision-id': 1,
      'native-id': ur,
      'collection-concept-id': COLLECTION,
      'provider-id': 'RASTILE',
    },
    umm: {
      GranuleUR: ur,
      TemporalExtent: { RangeDateTime: { BeginningDateTime: `${begin}T00:00:00.000Z`, EndingDateTime: `${end}T23:59:59.000Z` } },
      SpatialExtent: {
        HorizontalSpatialDomain: {
          Geometry: {
            BoundingRectangles: [{ WestBoundingCoordinate: -180, EastBoundingCoordinate: 180, NorthBoundingCoordinate: 90, SouthBoundingCoordinate: -90 }],
          },
        },
      },
      RelatedUrls: [{ URL: `${host}/${file}`, Type: 'GET DATA' }],
    },
  } as unknown as UmmItem;
}

let data: RangeServer;
let cmr: CmrStandin;
let server: TestServer;

before(async () => {
  data = await startRangeServer({ root: fixture('array') });
  cmr = await startCmrStandin({
    granules: [granule('SST.G1', '2000-02-01', '2000-02-28', 'sst-nc3.nc', data.url), granule('SST.G2', '2000-02-02', '2000-02-02', 'sst-nc3.nc', data.url)],
  });
  server = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
  });
});
after(async () => {
  await server.close();
  await cmr.close();
  await data.close();
});

const BASE = `collection_concept_id=${COLLECTION}&variables=sst`;

async function npy(path: string): Promise<{ data: ArrayLike<number>; shape: number[] }> {
  const r = await server.get(path);
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return parseNpy(Buffer.from(await r.arrayBuffer()));
}

/** Band `band` and mask of an npy image against expected values (null = masked); `neighbours`: the tile-oracle edge rule. */
function assertValues(img: { data: ArrayLike<number>; shape: number[] }, expected: Array<number | null>, band = 0, scale = 1, neighbours = false): void {
  const [, h, w] = img.shape;
  const n = h * w;
  const mask = (img.shape[0] - 1) * n;
  let masks = 0;
  let values = 0;
  const near = (v: number, e: number | null) => e !== null && Math.abs(v - e * scale) <= 1e-4 * Math.max(1, scale);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const valid = img.data[mask + i] > 0;
    if ((e !== null) !== valid) masks++;
    else if (e !== null && !near(img.data[band * n + i], e)) {
      const [r, c] = [Math.floor(i / w), i % w];
      let ok = false;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++)
          if (neighbours && r + dy >= 0 && r + dy < h && c + dx >= 0 && c + dx < w && near(img.data[band * n + i], expected[(r + dy) * w + c + dx])) ok = true;
      if (!ok) values++;
    }
  }
  assert.ok(masks <= (neighbours ? n * 0.005 : 0), `${masks} masks differ`);
  assert.equal(values, 0, `${values} values differ`);
}

test('/array/bbox: {datetime} interpolated from temporal (exact and nearest), values as xarray decodes them', async () => {
  assertValues(await npy(`/array/bbox/-180,-90,180,90/36x18.npy?${BASE}&temporal=2000-02-01T00:00:00Z&sel=${q('time={datetime}')}`), EXPECTED.sst.feb);
  assertValues(
    await npy(
      `/array/bbox/-180,-90,180,90/36x18.npy?${BASE}&temporal=${q('2000-02-20T00:00:00Z/2000-02-21T00:00:00Z')}&sel=${q('time=nearest::{datetime}')}&granule_ur=SST.G1`,
    ),
    EXPECTED.sst.nearest_feb20,
  );
});

test('/array tiles: the mosaic tile matches GDAL warping the array; expressions may name variables (0.x)', async () => {
  const sel = `temporal=2000-02-01T00:00:00Z&sel=${q('time={datetime}')}&tilesize=64`;
  assertValues(await npy(`/array/tiles/WebMercatorQuad/1/0/0.npy?${BASE}&${sel}`), EXPECTED.sst.tiles['1-0-0'], 0, 1, true);
  assertValues(await npy(`/array/tiles/WebMercatorQuad/1/0/0.npy?${BASE}&${sel}&expression=${q('sst*2')}`), EXPECTED.sst.tiles['1-0-0'], 0, 2, true);
  const two = await npy(`/array/tiles/WebMercatorQuad/1/0/0.npy?${BASE}&variables=ice&${sel}`);
  assert.equal(two.shape[0], 3);
});

test('/array/point: one entry per granule containing the point; /array/info and tilejson', async () => {
  const p = await server.getJson<{ assets: Array<{ name: string; values: number[] }> }>(
    `/array/point/25,45?${BASE}&exitwhenfull=false&temporal=${q('2000-02-01T00:00:00Z/2000-02-02T12:00:00Z')}&sel=time=2000-02-01`,
  );
  assert.equal(p.status, 200, JSON.stringify(p.body));
  assert.deepEqual(
    p.body.assets.map((a) => a.name),
    ['SST.G1', 'SST.G2'],
  );
  assert.ok(Math.abs(p.body.assets[0].values[0] - EXPECTED.sst.feb[4 * 36 + 20]!) < 1e-4);
  const info = await server.getJson<{ bounds: number[] }>(`/array/info?${BASE}&bounding_box=-10,-10,10,10`);
  assert.deepEqual(info.body.bounds, [-10, -10, 10, 10]);
  const tj = await server.getJson<{ tiles: string[] }>(`/array/WebMercatorQuad/tilejson.json?${BASE}&temporal=2000-02-01&sel=${q('time={datetime}')}`);
  assert.equal(tj.status, 200);
  assert.match(tj.body.tiles[0], /\/array\/tiles\/WebMercatorQuad\/\{z\}\/\{x\}\/\{y\}\?.*sel=time%3D%7Bdatetime%7D/);
});

test('/array/statistics over a feature', async () => {
  const feature = {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [-40, -40],
          [40, -40],
          [40, 40],
          [-40, 40],
          [-40, -40],
        ],
      ],
    },
  };
  const r = await server.post(`/array/statistics?${BASE}&temporal=2000-02-01T00:00:00Z&sel=${q('time={datetime}')}`, feature);
  const body = (await r.json()) as { properties: { statistics: Record<string, { count: number; max: number }>; used_assets: string[] } };
  assert.equal(r.status, 200, JSON.stringify(body));
  assert.deepEqual(body.properties.used_assets, ['SST.G1']);
  assert.ok(body.properties.statistics['b1'].count > 0);
});

test('legacy 0.x URLs with backend=xarray redirect to /array routes that answer', async () => {
  const legacy = `/tiles/WebMercatorQuad/1/0/0.npy?concept_id=${COLLECTION}&backend=xarray&variable=sst&datetime=2000-02-01T00:00:00Z&sel=${q('time={datetime}')}&tilesize=64`;
  const r = await server.get(legacy, { redirect: 'manual' });
  assert.equal(r.status, 301);
  const location = r.headers.get('location')!;
  assert.match(location, /\/array\/tiles\/WebMercatorQuad\/1\/0\/0\.npy\?collection_concept_id=.*variables=sst/);
  const followed = await fetch(location);
  assert.equal(followed.status, 200, await followed.clone().text());
  assertValues(parseNpy(Buffer.from(await followed.arrayBuffer())), EXPECTED.sst.tiles['1-0-0'], 0, 1, true);
  const tj = await server.get(`/WebMercatorQuad/tilejson.json?concept_id=${COLLECTION}&backend=xarray&variable=sst`, { redirect: 'manual' });
  assert.equal(tj.status, 301);
  assert.equal((await fetch(tj.headers.get('location')!)).status, 200);
});

test('/array bad input: 4xx JSON details, server alive', async () => {
  const cases: Array<[string, number, RegExp]> = [
    [`/array/info?collection_concept_id=${COLLECTION}`, 422, /variables/],
    [`/array/bbox/-10,-10,10,10.npy?${BASE}&sel=time=2000-02-01`, 400, /A 'temporal' parameter is required/],
    [`/array/bbox/-10,-10,10,10.npy?${BASE}&temporal=2000-02-01&sel=time`, 422, /string_pattern_mismatch/],
    [`/array/bbox/-10,-10,10,10.npy?collection_concept_id=${COLLECTION}&variables=nope&temporal=2000-02-01`, 400, /Variable 'nope' not found/],
    [`/array/bbox/-10,-10,10,10.npy?${BASE}&temporal=2000-02-01&sel=${q('time={datetime}')}&expression=${q('sst+nope')}`, 400, /nope/],
    [`/array/bbox/-10,-10,10,10.npy?${BASE}&temporal=2000-02-10&sel=${q('time={datetime}')}&granule_ur=SST.G1`, 400, /no such value on dimension 'time'/],
  ];
  for (const [path, status, re] of cases) {
    const r = await server.get(path);
    const text = await r.text();
    assert.equal(r.status, status, `${path}: ${text}`);
    assert.match(text, re, path);
  }
  assert.equal((await server.get(`/array/info?${BASE}`)).status, 200);
});
