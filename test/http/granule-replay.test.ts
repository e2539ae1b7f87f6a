/**
 * /raster against recorded real CMR exchanges (../shared/fixtures/cmr/recordings, titiler-cmr's
 * cassettes) and the two HLS Fmask COGs of ../shared/fixtures/cmr/data served over a local range
 * server: what titiler-cmr's test_rasterio_backend.py asserts (titiler-cmr §10). Skipped when the
 * shared fixtures are absent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordingsAvailable, startCmrReplay } from '../helpers/cmr-replay.ts';
import { replayStack } from '../helpers/replay-stack.ts';
import { q } from '../helpers/test-server.ts';
import { boxFeature } from '../helpers/geojson.ts';

const available = recordingsAvailable();
const QUERY = [
  'collection_concept_id=C2021957657-LPCLOUD',
  `temporal=${q('2024-10-09T00:00:01Z/2024-10-09T23:59:59Z')}`,
  'assets_regex=Fmask',
  'assets=Fmask',
].join('&');
const BOX = [-91.705, 48.179, -91.459, 48.3];
const FEATURE = boxFeature(BOX);

describe('/raster with recorded CMR exchanges (HLS Fmask)', { skip: available ? false : 'shared CMR recordings not present' }, () => {
  const stack = replayStack((dataHost) =>
    startCmrReplay({
      recordings: ['test_rasterio_backend/test_rasterio_statistics', 'test_rasterio_backend/test_rasterio_part', 'test_rasterio_backend/test_rasterio_feature'],
      dataHost,
    }),
  );

  it('POST /raster/statistics: Fmask, asset_as_band, dst_crs epsg:32615 (two granules mosaicked)', async () => {
    const r = await stack.server.post(`/raster/statistics?${QUERY}&asset_as_band=true&dst_crs=epsg:32615`, FEATURE);
    const body = (await r.json()) as { properties: { statistics: Record<string, Record<string, unknown>>; used_assets: string[] } };
    assert.equal(r.status, 200, JSON.stringify(body).slice(0, 500));
    const stats = body.properties.statistics;
    assert.deepEqual(Object.keys(stats), ['b1'], 'one band b1');
    const b1 = stats['b1'];
    assert.equal(b1['description'], 'Fmask', 'description');
    assert.equal(b1['majority'], 64, 'majority');
    assert.equal(b1['minority'], 96, 'minority');
    // titiler-cmr's 19888616.0 is numpy's float32 sum of value × coverage (float32 spacing is 2 at
    // this size); ours is summed in float64 and rounds to the same float32.
    assert.equal(Math.fround(b1['sum'] as number), 19888616, `sum ${String(b1['sum'])} as float32`);
    assert.ok(Math.abs((b1['count'] as number) - 273132) <= 273132 * 0.001, `count ≈ 273132: ${String(b1['count'])}`);
    assert.deepEqual(body.properties.used_assets, ['HLS.L30.T15UWP.2024283T165135.v2.0', 'HLS.L30.T15UXP.2024283T165135.v2.0'], 'used_assets');
    assert.deepEqual(stack.cmr.unmatched, [], 'every CMR request was a recorded one');
  });

  it('POST /raster/feature?format=tif&width=100&height=100 → GeoTIFF', async () => {
    const r = await stack.server.post(`/raster/feature?${QUERY}&format=tif&width=100&height=100`, FEATURE);
    const body = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, body.toString().slice(0, 300));
    assert.equal(r.headers.get('content-type'), 'image/tiff; application=geotiff', 'content type');
    assert.equal(body.subarray(0, 2).toString('latin1'), 'II', 'a little-endian TIFF');
  });

  it('GET /raster/bbox/…/100x100.tif → GeoTIFF', async () => {
    const r = await stack.server.get(`/raster/bbox/${BOX.join(',')}/100x100.tif?${QUERY}`);
    const body = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, body.toString().slice(0, 300));
    assert.equal(r.headers.get('content-type'), 'image/tiff; application=geotiff', 'content type');
    assert.deepEqual(stack.cmr.unmatched, [], 'every CMR request was a recorded one');
  });

  it('TileJSON without granule_ur makes no CMR call and reports the world', async () => {
    const before = stack.cmr.requests.length;
    const r = await stack.server.getJson<{ bounds: number[] }>(`/raster/WebMercatorQuad/tilejson.json?${QUERY}`);
    assert.equal(r.status, 200, 'status');
    assert.deepEqual(r.body.bounds, [-180, -90, 180, 90], 'world');
    assert.equal(stack.cmr.requests.length, before, 'no CMR request');
  });
});
