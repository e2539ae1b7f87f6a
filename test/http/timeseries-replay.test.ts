/**
 * Time series against recorded real CMR exchanges (../shared/fixtures/cmr/recordings, titiler-cmr's
 * cassettes; skipped when absent): the no-step mode of test_timeseries (GAMSSA 1 step, HAQES 8
 * steps in a box, 0 in a box without granules), the collection records of test_utils (resolution
 * and request size) and the size-guard 400s of test_xarray_backend (MUR 0.01°: global AOI over 24
 * daily steps; 40°×40° over 938 daily steps), on /raster and /array (statistics and GIF), with
 * titiler-cmr's exact texts — the guard runs before any granule search, so the single recorded
 * collection lookup is all CMR sees.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectionResolution, pixelsPerStep } from '../../src/granule/timeseries/size-guard.ts';
import { boxFeature } from '../helpers/geojson.ts';
import { loadRecording, recordingsAvailable, startCmrReplay } from '../helpers/cmr-replay.ts';
import { replayStack } from '../helpers/replay-stack.ts';
import { q } from '../helpers/test-server.ts';

const available = recordingsAvailable();

describe('time series with recorded CMR exchanges', { skip: available ? false : 'shared CMR recordings not present' }, () => {
  const stack = replayStack(() =>
    startCmrReplay({
      recordings: [
        'test_timeseries/test_timeseries_query_no_step',
        'test_xarray_backend/test_timeseries_statistics_image_size_limit',
        'test_xarray_backend/test_timeseries_statistics_request_size_limit',
      ],
    }),
  );

  const DAY = q('2024-10-11T00:00:01Z/2024-10-11T23:59:59Z');

  it('no step, GAMSSA: one granule → one step at its midpoint', async () => {
    const r = await stack.server.getJson<Array<{ collection_concept_id: string; temporal: string }>>(
      `/timeseries?collection_concept_id=C2036881735-POCLOUD&temporal=${DAY}`,
    );
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, [{ collection_concept_id: 'C2036881735-POCLOUD', temporal: '2024-10-11T12:00:00+00:00/2024-10-11T12:00:00+00:00' }]);
  });

  it('no step, HAQES in the box −100,30,−90,40 (minx…maxy): 8 three-hourly steps', async () => {
    const r = await stack.server.getJson<Array<{ temporal: string }>>(
      `/timeseries?collection_concept_id=C2623694361-GES_DISC&temporal=${DAY}&minx=-100&miny=30&maxx=-90&maxy=40`,
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 8);
    assert.equal(r.body[0]!.temporal, '2024-10-11T01:29:59.500000+00:00/2024-10-11T01:29:59.500000+00:00');
    assert.equal(r.body[7]!.temporal, '2024-10-11T22:29:59.500000+00:00/2024-10-11T22:29:59.500000+00:00');
  });

  it('no step, HAQES in the box 1,1,1,1 (bounding_box): no granule → []', async () => {
    const r = await stack.server.getJson<unknown[]>(`/timeseries?collection_concept_id=C2623694361-GES_DISC&temporal=${DAY}&bounding_box=1,1,1,1`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, []);
  });

  it('size guard, MUR 0.01°, global AOI, 24 daily steps (legacy concept_id/datetime names): the AOI text', async () => {
    const r = await stack.server.post(
      `/raster/timeseries/statistics?concept_id=C1996881146-POCLOUD&datetime=${q('2024-01-01T00:00:00Z/2024-01-24T23:59:59Z')}&step=P1D`,
      boxFeature([-180, -90, 180, 90]),
    );
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      detail: 'The AOI for this request is too large for the /statistics endpoint for this dataset. Try again with either a smaller AOI',
    });
  });

  it('size guard, MUR 0.01°, 40°×40° over 938 daily steps: the total text', async () => {
    const r = await stack.server.post(
      `/raster/timeseries/statistics?collection_concept_id=C1996881146-POCLOUD&temporal=${q('2011-01-01T00:00:01/2013-07-27T00:00:01')}&step=P1D`,
      boxFeature([-40, -40, 0, 0]),
    );
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      detail:
        'This request is too large for the /timeseries/statistics endpoint for this dataset. Try again with either a smaller AOI or fewer time steps than 938',
    });
  });

  // The same recorded MUR collection record (the recordings are titiler-cmr's xarray tests) on the
  // /array routes, statistics and GIF: the guard runs before the array backend opens anything.
  const MUR = 'collection_concept_id=C1996881146-POCLOUD&variables=analysed_sst';

  it('/array size guard, MUR 0.01°, global AOI, 24 daily steps: the AOI text (statistics)', async () => {
    const r = await stack.server.post(
      `/array/timeseries/statistics?${MUR}&temporal=${q('2024-01-01T00:00:00Z/2024-01-24T23:59:59Z')}&step=P1D`,
      boxFeature([-180, -90, 180, 90]),
    );
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      detail: 'The AOI for this request is too large for the /statistics endpoint for this dataset. Try again with either a smaller AOI',
    });
  });

  it('/array size guard, MUR 0.01°, 40°×40° over 938 daily steps: the total text (statistics)', async () => {
    const r = await stack.server.post(
      `/array/timeseries/statistics?${MUR}&temporal=${q('2011-01-01T00:00:01/2013-07-27T00:00:01')}&step=P1D`,
      boxFeature([-40, -40, 0, 0]),
    );
    assert.equal(r.status, 400);
    assert.deepEqual(await r.json(), {
      detail:
        'This request is too large for the /timeseries/statistics endpoint for this dataset. Try again with either a smaller AOI or fewer time steps than 938',
    });
  });

  it('/array size guard, MUR 0.01°, GIF: global box → the /bbox AOI text; 40°×40° × 7 steps (1.12e8 > 1e8) → the /timeseries/bbox text', async () => {
    const week = q('2024-01-01T00:00:00Z/2024-01-07T23:59:59Z');
    const aoi = await stack.server.get(`/array/timeseries/bbox/-180,-90,180,90/64x32.gif?${MUR}&temporal=${week}&step=P1D&rescale=270,310`);
    assert.equal(aoi.status, 400);
    assert.deepEqual(await aoi.json(), {
      detail: 'The AOI for this request is too large for the /bbox endpoint for this dataset. Try again with either a smaller AOI',
    });
    const total = await stack.server.get(`/array/timeseries/bbox/-40,-40,0,0/64x64.gif?${MUR}&temporal=${week}&step=P1D&rescale=270,310`);
    assert.equal(total.status, 400);
    assert.deepEqual(await total.json(), {
      detail: 'This request is too large for the /timeseries/bbox endpoint for this dataset. Try again with either a smaller AOI or fewer time steps than 7',
    });
  });

  it('every request was answered by a recording (and no granule search ran for the guarded requests)', () => {
    assert.deepEqual(stack.cmr.unmatched, []);
    assert.ok(
      !stack.cmr.requests.some(
        (r) => r.path.endsWith('granules.umm_json') && r.query.some(([k, v]) => k === 'collection_concept_id' && v === 'C1996881146-POCLOUD'),
      ),
    );
  });
});

describe('request size from recorded collection records (test_utils)', { skip: available ? false : 'shared CMR recordings not present' }, () => {
  const umm = (name: string) => (loadRecording(name)[0]!.response.body as { items: Array<{ umm: Record<string, unknown> }> }).items[0]!.umm;

  it('GAMSSA: 0.25° × 0.25° decimal degrees; global box × 2 steps = 2 073 600 (between 0 and 1e10)', () => {
    const res = collectionResolution(umm('test_utils/test_calculate_request_size'));
    assert.deepEqual(res, [0.25, 0.25]);
    assert.equal(pixelsPerStep([-180, -90, 180, 90], res) * 2, 2_073_600);
  });

  it('GPM IMERG: no resolution → unknown → estimate 0', () => {
    const res = collectionResolution(umm('test_utils/test_calculate_request_size_no_resolution'));
    assert.equal(res, null);
    assert.equal(pixelsPerStep([-180, -90, 180, 90], res), 0);
  });
});
