/**
 * /array against recorded real CMR exchanges (../shared/fixtures/cmr/recordings, titiler-cmr's
 * test_xarray_backend cassettes) and the GHRSST GAMSSA NetCDF-4 granules of
 * ../shared/fixtures/cmr/data served over a local range server: what titiler-cmr's
 * test_xarray_backend.py asserts (titiler-cmr §10: feature → GeoTIFF, part `.tif` and
 * `/10x10.png`, statistics over the arctic box and the Great Lakes). Skipped when the shared
 * fixtures are absent. (The timeseries size-guard recordings belong to the timeseries routes.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordingsAvailable, startCmrReplay } from '../helpers/cmr-replay.ts';
import { replayStack } from '../helpers/replay-stack.ts';
import { q } from '../helpers/test-server.ts';
import { boxFeature } from '../helpers/geojson.ts';

const available = recordingsAvailable();
const QUERY = ['collection_concept_id=C2036881735-POCLOUD', `temporal=${q('2024-10-11T00:00:01Z/2024-10-11T23:59:59Z')}`, 'variables=sea_ice_fraction'].join(
  '&',
);
const ARCTIC = [-20.799, 75.011, 14.483, 83.559];

const box = boxFeature;

describe('/array with recorded CMR exchanges (GAMSSA sea_ice_fraction)', { skip: available ? false : 'shared CMR recordings not present' }, () => {
  const stack = replayStack((dataHost) =>
    startCmrReplay({
      recordings: [
        'test_xarray_backend/test_xarray_feature',
        'test_xarray_backend/test_xarray_part',
        'test_xarray_backend/test_xarray_statistics[arctic_geojson]',
        'test_xarray_backend/test_xarray_statistics[great_lakes_geojson]',
      ],
      dataHost,
    }),
  );

  it('POST /array/feature?format=tif → GeoTIFF', async () => {
    const r = await stack.server.post(`/array/feature?${QUERY}&format=tif`, box(ARCTIC));
    const body = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, body.toString().slice(0, 300));
    assert.equal(r.headers.get('content-type'), 'image/tiff; application=geotiff');
    assert.equal(body.readUInt16LE(0), 0x4949);
  });

  it('GET /array/bbox/….tif and /10x10.png', async () => {
    const tif = await stack.server.get(`/array/bbox/${ARCTIC.join(',')}.tif?${QUERY}`);
    assert.equal(tif.status, 200, await tif.clone().text());
    const png = await stack.server.get(`/array/bbox/${ARCTIC.join(',')}/10x10.png?${QUERY}`);
    const body = Buffer.from(await png.arrayBuffer());
    assert.equal(png.status, 200, body.toString().slice(0, 300));
    assert.equal(body.readUInt32BE(16), 10);
    assert.equal(body.readUInt32BE(20), 10);
  });

  it('POST /array/statistics: arctic box (median 0.8, sum 2377, mean 0.52 as titiler-cmr records) and the Great Lakes (no ice)', async () => {
    const r = await stack.server.post(`/array/statistics?${QUERY}`, box(ARCTIC));
    const body = (await r.json()) as { properties: { statistics: Record<string, Record<string, number>>; used_assets: string[] } };
    assert.equal(r.status, 200, JSON.stringify(body).slice(0, 500));
    const b1 = body.properties.statistics['b1'];
    assert.deepEqual(Object.keys(body.properties.statistics), ['b1']);
    // titiler-cmr concatenates `variables` along a new `band` dimension without a coordinate, and
    // rio-tiler's XarrayReader describes each band by str() of that dimension's value: "0".
    assert.equal((b1 as unknown as { description: string }).description, '0');
    // titiler-cmr's own assertions (test_xarray_statistics[arctic_geojson]): round(median, 1) == 0.8,
    // round(sum) == 2377, round(mean, 2) == 0.52. rio-tiler's XarrayReader reads the feature on
    // exactly its bounds (141 × 34 cells of 0.25°, nearest) — no align_bounds_with_dataset — so
    // every cell is fully covered and the coverage weights are all 1 (a window aligned outward
    // on the native grid gave fractional edge weights: count 4587.76, mean 0.5275, sum 2420).
    assert.equal(Math.round(b1['median'] * 10) / 10, 0.8);
    assert.equal(Math.round(b1['sum']), 2377);
    assert.equal(Math.round(b1['mean'] * 100) / 100, 0.52);
    assert.equal(b1['count'], b1['valid_pixels'], 'unweighted: the box covers every pixel of its read');
    const lakes = {
      type: 'FeatureCollection',
      features: [box([-87.5, 41.5, -85.0, 46.0]), box([-84.0, 43.0, -81.5, 47.5])],
    };
    const l = await stack.server.post(`/array/statistics?${QUERY}`, lakes);
    const lb = (await l.json()) as { features: Array<{ properties: { statistics: Record<string, Record<string, number>> } }> };
    assert.equal(l.status, 200, JSON.stringify(lb).slice(0, 500));
    assert.equal(lb.features.length, 2);
    for (const f of lb.features) {
      const s = f.properties.statistics['b1'];
      assert.deepEqual([s['median'], s['sum'], s['mean']], [0, 0, 0]);
    }
    assert.deepEqual(stack.cmr.unmatched, [], 'every CMR request was a recorded one');
  });
});
