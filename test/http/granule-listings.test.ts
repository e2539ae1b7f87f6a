/**
 * Granule listings (/granules, /bbox/…/granules, /point/…/granules, /tiles/…/granules) against
 * the CMR stand-in fed with the generated granule records: f=json → plain list of data-file URLs
 * (CMR order, file order), f=geojson → FeatureCollection of footprints with snake_case granule
 * properties, served as application/json; empty results; validation; not under /raster.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crsFromEpsg, WGS84 } from '../../src/geo/crs.ts';
import { transformPoint } from '../../src/geo/transform.ts';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { COLLECTION_ID, loadGranuleFixtures } from '../search/granule-fixtures.ts';

const DATA_HOST = 'https://data.example.test';
const fx = loadGranuleFixtures(DATA_HOST);
const ur = (n: number): string => Object.values(fx.expected).find((e) => e.granule_ur.includes(`.G${n}.`))!.granule_ur;
const urls = (n: number, bands = ['B02', 'B03', 'B04']): string[] =>
  bands.map((b) => `${DATA_HOST}/rastile-test-protected/RASTILE_GRAN.001/${ur(n)}/${ur(n)}.${b}.tif`);

let cmr: CmrStandin;
let server: TestServer;
const COLL = `collection_concept_id=${COLLECTION_ID}`;

before(async () => {
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
  server = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
  });
});
after(async () => {
  await server.close();
  await cmr.close();
});

interface FeatureCollection {
  type: string;
  features: Array<{ type: string; id: string; geometry: { type: string } | null; bbox: number[] | null; properties: Record<string, unknown> }>;
}

describe('GET /granules', () => {
  it('f=json (default): every data-file URL, CMR order (start date), file order', async () => {
    const r = await server.getJson<string[]>(`/granules?${COLL}`);
    assert.equal(r.status, 200, 'status');
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/, 'content type');
    assert.deepEqual(r.body, [...urls(1), ...urls(5), ...urls(2), ...urls(3), ...urls(4)], 'urls');
  });

  it('assets_regex limits the files; filters are forwarded to CMR', async () => {
    const r = await server.getJson<string[]>(`/granules?${COLL}&assets_regex=B04&cloud_cover=0,30&sort_key=-start_date`);
    assert.equal(r.status, 200, 'status');
    // cloud cover ≤ 30: G2 (5), G3 (20), G5 (10); newest first
    assert.deepEqual(r.body, [...urls(3, ['B04']), ...urls(2, ['B04']), ...urls(5, ['B04'])], 'urls');
    const last = cmr.granuleRequests().at(-1)!;
    assert.ok(
      last.query.some(([k, v]) => k === 'cloud_cover' && v === '0,30'),
      'cloud_cover sent',
    );
    assert.ok(
      last.query.some(([k, v]) => k === 'sort_key[]' && v === '-start_date'),
      'sort key sent',
    );
  });

  it('f=geojson: a FeatureCollection of footprints with snake_case properties', async () => {
    const r = await server.getJson<FeatureCollection>(`/granules?${COLL}&f=geojson&granule_ur=${ur(3)}`);
    assert.equal(r.status, 200, 'status');
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/, 'served as application/json');
    assert.equal(r.body.type, 'FeatureCollection', 'type');
    assert.equal(r.body.features.length, 1, 'one granule');
    const f = r.body.features[0];
    assert.equal(f.geometry?.type, 'Polygon', 'BoundingRectangle → Polygon');
    const p = f.properties;
    assert.deepEqual([p['id'], p['granule_ur'], p['collection_concept_id']], ['G1000000003-RASTILE', ur(3), COLLECTION_ID], 'ids');
    const rect = (p['spatial_extent'] as { horizontal_spatial_domain: { geometry: { bounding_rectangles: Array<Record<string, number>> } } })
      .horizontal_spatial_domain.geometry.bounding_rectangles[0];
    assert.ok('west_bounding_coordinate' in rect, 'snake_case nested keys');
    assert.equal(
      (p['temporal_extent'] as { range_date_time: { beginning_date_time: string } }).range_date_time.beginning_date_time,
      '2024-05-06T10:00:00.000Z',
      'temporal',
    );
    assert.deepEqual(p['assets'], { '0': urls(3)[0], '1': urls(3)[1], '2': urls(3)[2] }, 'assets');
    assert.equal((p['related_urls'] as Array<{ url: string }>)[0].url, urls(3)[0], 'related urls');
    assert.deepEqual(f.bbox, fx.expected['G1000000003-RASTILE'].footprint_envelope, 'bbox');
  });

  it('f must be json or geojson (422)', async () => {
    const r = await server.getJson<{ detail: Array<{ loc: unknown[] }> }>(`/granules?${COLL}&f=xml`);
    assert.equal(r.status, 422, 'status');
    assert.deepEqual(r.body.detail[0].loc, ['query', 'f'], 'loc');
  });
});

describe('area listings', () => {
  it('/bbox/…/granules: intersecting granules; empty → []', async () => {
    const r = await server.getJson<string[]>(`/bbox/15.03,45.05,15.04,45.06/granules?${COLL}&exitwhenfull=false&assets_regex=B02`);
    assert.equal(r.status, 200, 'status');
    assert.deepEqual(r.body, [...urls(1, ['B02']), ...urls(2, ['B02']), ...urls(4, ['B02'])], 'G1, G2, G4');
    const empty = await server.getJson<unknown[]>(`/bbox/0,0,1,1/granules?${COLL}`);
    assert.deepEqual([empty.status, empty.body], [200, []], 'empty list');
    const fc = await server.getJson<FeatureCollection>(`/bbox/0,0,1,1/granules?${COLL}&f=geojson`);
    assert.deepEqual(fc.body, { type: 'FeatureCollection', features: [] }, 'empty collection');
  });

  it('exitwhenfull (default) stops once the box is covered', async () => {
    const r = await server.getJson<string[]>(`/bbox/15.03,45.05,15.04,45.06/granules?${COLL}&assets_regex=B02`);
    assert.deepEqual(r.body, urls(1, ['B02']), 'G1 alone covers the box');
  });

  it('/bbox with coord_crs', async () => {
    // the box 15.03,45.05,15.04,45.06 in EPSG:3857
    const [x0, y0] = transformPoint(WGS84, crsFromEpsg(3857), 15.03, 45.05);
    const [x1, y1] = transformPoint(WGS84, crsFromEpsg(3857), 15.04, 45.06);
    const r = await server.getJson<string[]>(`/bbox/${x0},${y0},${x1},${y1}/granules?${COLL}&exitwhenfull=false&assets_regex=B02&coord_crs=EPSG:3857`);
    assert.equal(r.status, 200, 'status');
    assert.ok(r.body.includes(urls(1, ['B02'])[0]), `G1 listed: ${JSON.stringify(r.body)}`);
    const last = cmr.granuleRequests().at(-1)!;
    const bb = last.query
      .find(([k]) => k === 'bounding_box')![1]
      .split(',')
      .map(Number);
    [15.03, 45.05, 15.04, 45.06].forEach((v, i) => assert.ok(Math.abs(bb[i] - v) < 1e-6, `box sent in degrees: ${bb.join(',')}`));
  });

  it('/point/…/granules and /tiles/…/granules', async () => {
    const p = await server.getJson<FeatureCollection>(`/point/15.018,45.05/granules?${COLL}&exitwhenfull=false&f=geojson`);
    assert.equal(p.status, 200, 'point status');
    assert.deepEqual(
      p.body.features.map((f) => f.properties['granule_ur']),
      [ur(1), ur(4)],
      'G1 and G4 contain the point',
    );
    const last = cmr.granuleRequests().at(-1)!;
    assert.ok(
      last.query.some(([k, v]) => k === 'point' && v === '15.018,45.05'),
      'point parameter',
    );
    const t = await server.getJson<FeatureCollection>(`/tiles/WebMercatorQuad/0/0/0/granules?${COLL}&exitwhenfull=false&f=geojson`);
    assert.equal(t.body.features.length, 5, 'the world tile lists every granule');
    const bad = await server.getJson(`/tiles/NotATms/0/0/0/granules?${COLL}`);
    assert.equal(bad.status, 422, 'TMS id validated');
  });

  it('listings are not under /raster', async () => {
    assert.equal((await server.get(`/raster/bbox/0,0,1,1/granules?${COLL}`)).status, 404, 'bbox');
    assert.equal((await server.get(`/raster/point/0,0/granules?${COLL}`)).status, 404, 'point');
  });

  it('legacy alias concept_id works on the listing routes', async () => {
    const r = await server.getJson<string[]>(`/granules?concept_id=${COLLECTION_ID}&granule_ur=${q(ur(2))}&assets_regex=B03`);
    assert.deepEqual(r.body, urls(2, ['B03']), 'G2 B03');
  });
});
