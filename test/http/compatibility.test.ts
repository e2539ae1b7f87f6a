/**
 * GET /compatibility (titiler-cmr §2.5) against a CMR stand-in: an array collection (the NetCDF
 * fixture: variables, dimensions, coordinates, statistics vs numpy on the same values), a raster
 * collection (a COG fixture: its /info), a collection neither reader opens, and the 400/404s.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startCmrStandin, type CmrStandin, type UmmItem } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, startTestServer, type TestServer } from '../helpers/test-server.ts';

const STATS = (JSON.parse(readFileSync(fixture('array', 'expected.json'), 'utf8')) as { sst: { stats: Record<string, Record<string, number>> } }).sst.stats;

const collection = (id: string): UmmItem =>
  ({
    meta: { 'concept-type': 'collection', 'concept-id': id, 'provider-id': 'RASTILE' },
    umm: { ShortName: id, TemporalExtents: [{ RangeDateTimes: [{ BeginningDateTime: '2000-01-01T00:00:00.000Z' }] }] },
  }) as unknown as UmmItem;

const granule = (id: string, ur: string, url: string): UmmItem =>
  ({
    meta: { 'concept-type': 'granule', 'concept-id': `G-${ur}`, 'revision-id': 1, 'native-id': ur, 'collection-concept-id': id, 'provider-id': 'RASTILE' },
    umm: {
      GranuleUR: ur,
      TemporalExtent: { RangeDateTime: { BeginningDateTime: '2000-02-01T00:00:00.000Z', EndingDateTime: '2000-02-28T00:00:00.000Z' } },
      SpatialExtent: {
        HorizontalSpatialDomain: {
          Geometry: {
            BoundingRectangles: [{ WestBoundingCoordinate: -180, EastBoundingCoordinate: 180, NorthBoundingCoordinate: 90, SouthBoundingCoordinate: -90 }],
          },
        },
      },
      RelatedUrls: [{ URL: url, Type: 'GET DATA' }],
    },
  }) as unknown as UmmItem;

let data: RangeServer;
let cmr: CmrStandin;
let server: TestServer;

before(async () => {
  data = await startRangeServer({ root: fixture() });
  cmr = await startCmrStandin({
    collections: [collection('C1-ARRAY'), collection('C2-RASTER'), collection('C3-NEITHER'), collection('C4-EMPTY')],
    granules: [
      granule('C1-ARRAY', 'NC.G1', `${data.url}/array/sst-nc3.nc`),
      granule('C2-RASTER', 'TIF.G1', `${data.url}/datasets/float32_nan_4326.tif`),
      granule('C3-NEITHER', 'JSON.G1', `${data.url}/array/expected.json`),
    ],
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

test('an array collection: variables with deterministic statistics (numpy on the same values), dimensions, coordinates, links', async () => {
  const { status, body } = await server.getJson<Record<string, unknown>>('/compatibility?collection_concept_id=C1-ARRAY');
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body['backend'], 'array');
  assert.equal(body['granule_ur'], 'NC.G1');
  assert.deepEqual(body['dimensions'], { time: 3, lat: 18, lon: 36 });
  const vars = body['variables'] as Record<string, Record<string, number | number[] | string>>;
  assert.deepEqual(Object.keys(vars), ['sst', 'ice']);
  assert.deepEqual(vars['sst']['shape'], [3, 18, 36]);
  for (const name of ['sst', 'ice']) {
    for (const [k, want] of Object.entries(STATS[name]))
      assert.ok(Math.abs((vars[name][k] as number) - want) < 1e-3, `${name}.${k}: ${String(vars[name][k])} vs ${want}`);
  }
  const coords = body['coordinates'] as Record<string, Record<string, unknown>>;
  assert.deepEqual(coords['time'], { size: 3, dtype: 'float64', min: '2000-01-01T00:00:00', max: '2000-03-01T00:00:00' });
  assert.deepEqual(coords['lat'], { size: 18, dtype: 'float32', min: -85, max: 85 });
  assert.deepEqual(body['datetime'], [{ RangeDateTimes: [{ BeginningDateTime: '2000-01-01T00:00:00.000Z' }] }]);
  const links = body['links'] as Array<{ rel: string; href: string }>;
  assert.deepEqual(
    links.map((l) => l.rel),
    ['tilejson', 'map', 'tile'],
  );
  assert.match(links[0].href, /\/array\/WebMercatorQuad\/tilejson\.json\?collection_concept_id=C1-ARRAY&variables=sst&temporal=\{temporal\}$/);
  const skip = await server.getJson<{ variables: Record<string, Record<string, unknown>> }>('/compatibility?concept_id=C1-ARRAY&skip_variable_statistics=true');
  assert.deepEqual(skip.body.variables['sst'], { shape: [3, 18, 36], dtype: 'int16' });
});

test('a raster collection falls back to the raster reader; neither → 400 with both errors; missing/unknown ids', async () => {
  const raster = await server.getJson<Record<string, unknown>>('/compatibility?collection_concept_id=C2-RASTER');
  assert.equal(raster.status, 200, JSON.stringify(raster.body));
  assert.equal(raster.body['backend'], 'raster');
  assert.equal((raster.body['sample_asset_raster_info'] as Record<string, unknown>)['dtype'], 'float32');
  const neither = await server.getJson<{ detail: string }>('/compatibility?collection_concept_id=C3-NEITHER');
  assert.equal(neither.status, 400);
  assert.match(
    neither.body.detail,
    /^Could not open a sample granule for concept_id C3-NEITHER with either the rasterio or xarray backends\.\n\nxarray error: .+\n\n rasterio_error: .+/s,
  );
  assert.deepEqual((await server.getJson('/compatibility')).body, { detail: 'concept_id is required' });
  const unknown = await server.getJson<{ detail: string }>('/compatibility?collection_concept_id=C9-NOPE');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.detail, 'concept_id C9-NOPE not found');
  assert.equal((await server.getJson('/compatibility?collection_concept_id=C4-EMPTY')).status, 404);
});
