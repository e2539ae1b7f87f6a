/**
 * The CMR client against recorded real CMR exchanges (../shared/fixtures/cmr/recordings, titiler-cmr's
 * cassettes): our requests must match the recorded ones (same parameters, numerically equal boxes,
 * the same search-after follow-ups) and stop where titiler-cmr stopped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Bounds } from '../../src/geo/bounds.ts';
import { CmrClient } from '../../src/search/cmr-client.ts';
import { granuleAssets } from '../../src/search/granule-assets.ts';
import { LISTING_COVERAGE_TOLERANCE, RASTER_COVERAGE_TOLERANCE } from '../../src/search/query-params.ts';
import type { Granule, GranuleQuery, SearchArea } from '../../src/search/types.ts';
import { CMR_DATA_DIR, recordingsAvailable, startCmrReplay, type CmrReplay } from '../helpers/cmr-replay.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';

const HLS = 'C2021957657-LPCLOUD';
const GAMSSA = 'C2036881735-POCLOUD';
const HAQES = 'C2623694361-GES_DISC';

const query = (patch: Partial<GranuleQuery>): GranuleQuery => ({
  itemsLimit: 100,
  exitWhenFull: true,
  skipCovered: false,
  coverageTolerance: RASTER_COVERAGE_TOLERANCE,
  ...patch,
});
const bbox = (bounds: Bounds): SearchArea => ({ kind: 'bbox', bounds });

async function collect(gen: AsyncGenerator<Granule>): Promise<Granule[]> {
  const out: Granule[] = [];
  for await (const g of gen) out.push(g);
  return out;
}

describe('CMR client replaying recorded CMR exchanges', { skip: !recordingsAvailable() && 'no ../shared/fixtures/cmr/recordings' }, () => {
  let replay: CmrReplay;
  let data: RangeServer;
  let cmr: CmrClient;
  before(async () => {
    data = await startRangeServer({ root: CMR_DATA_DIR });
    replay = await startCmrReplay({ dataHost: data.url });
    cmr = new CmrClient({ baseUrl: replay.url, timeoutMs: 10_000, retries: 0, pageSize: 20 });
  });
  after(async () => {
    await replay.close();
    await data.close();
  });
  const since = (from: number) => replay.requests.slice(from);

  it('test_rasterio_backend bbox search → 2 HLS granules, one request (the footprints cover the box)', async () => {
    const from = replay.requests.length;
    const found = await collect(
      cmr.searchGranules(query({ collectionConceptId: HLS, temporal: '2024-10-09T00:00:01Z/2024-10-09T23:59:59Z' }), bbox([-91.705, 48.179, -91.459, 48.3])),
    );
    assert.deepEqual(
      found.map((g) => g.granuleUr),
      ['HLS.L30.T15UWP.2024283T165135.v2.0', 'HLS.L30.T15UXP.2024283T165135.v2.0'],
      'two granules in CMR order',
    );
    assert.deepEqual(
      since(from).map((r) => r.answeredBy),
      ['test_rasterio_backend/test_rasterio_feature#0'],
      'one request, matching the recording',
    );
    assert.deepEqual(replay.unmatched, [], 'nothing unmatched');
  });

  it('the recorded data hrefs are rewritten onto the local data host and readable', async () => {
    const [g] = await collect(
      cmr.searchGranules(query({ collectionConceptId: HLS, temporal: '2024-10-09T00:00:01Z/2024-10-09T23:59:59Z' }), bbox([-91.705, 48.179, -91.459, 48.3])),
    );
    const [fmask] = granuleAssets(g!, /Fmask/);
    assert.equal(
      fmask!.href,
      `${data.url}/lp-prod-protected/HLSL30.020/HLS.L30.T15UWP.2024283T165135.v2.0/HLS.L30.T15UWP.2024283T165135.v2.0.Fmask.tif`,
      'rewritten href',
    );
    const res = await fetch(fmask!.href!, { headers: { range: 'bytes=0-1' } });
    assert.equal(res.status, 206, 'range read from the data host');
    assert.equal(Buffer.from(await res.arrayBuffer()).toString('latin1'), 'II', 'TIFF');
  });

  it('test_get_assets: 2 granules; the first has asset B01 with regex B01', async () => {
    const from = replay.requests.length;
    const found = await collect(
      cmr.searchGranules(query({ collectionConceptId: HLS, temporal: '2024-02-11T00:00:00Z/2024-02-13T23:59:59Z' }), bbox([-91.663, 47.862, -91.537, 47.928])),
    );
    assert.deepEqual(
      found.map((g) => g.granuleUr),
      ['HLS.L30.T15UXP.2024042T165831.v2.0', 'HLS.L30.T15UWP.2024042T165831.v2.0'],
      'order',
    );
    assert.deepEqual(
      granuleAssets(found[0]!, /B01/).map((a) => a.key),
      ['B01'],
      'asset B01',
    );
    assert.deepEqual(
      since(from).map((r) => r.answeredBy),
      ['test_backend/test_get_assets#0'],
      'one request, as recorded',
    );
  });

  it('timeseries (no step): a short page ends each search (titiler-cmr also asks for the empty page after it)', async () => {
    let from = replay.requests.length;
    const temporal = '2024-10-11T00:00:01+00:00/2024-10-11T23:59:59+00:00';
    const gamssa = await collect(cmr.searchGranules(query({ collectionConceptId: GAMSSA, temporal, exitWhenFull: false }), { kind: 'none' }));
    assert.equal(gamssa.length, 1, 'one GAMSSA granule');
    let reqs = since(from);
    assert.deepEqual(
      reqs.map((r) => r.answeredBy),
      ['test_timeseries/test_timeseries_query_no_step#0'],
      'page 1 only: it is shorter than page_size, so the recorded empty page #1 is not needed',
    );

    from = replay.requests.length;
    const haqes = await collect(
      cmr.searchGranules(query({ collectionConceptId: HAQES, temporal, boundingBox: [-100, 30, -90, 40], exitWhenFull: false }), { kind: 'none' }),
    );
    assert.equal(haqes.length, 8, 'eight 3-hourly granules');
    assert.deepEqual(
      since(from).map((r) => r.answeredBy),
      ['test_timeseries/test_timeseries_query_no_step#2'],
      'bounding_box -100,30,-90,40 matches the recorded -100,30,-90,40',
    );

    from = replay.requests.length;
    const none = await collect(
      cmr.searchGranules(query({ collectionConceptId: HAQES, temporal, boundingBox: [1, 1, 1, 1], exitWhenFull: false }), { kind: 'none' }),
    );
    assert.equal(none.length, 0, 'nothing at 1,1');
    reqs = since(from);
    assert.deepEqual(
      reqs.map((r) => r.answeredBy),
      ['test_timeseries/test_timeseries_query_no_step#4'],
      'an empty first page has no CMR-Search-After: one request',
    );
  });

  it('xarray statistics: one search per feature, each stopped by the global GAMSSA footprint', async () => {
    const from = replay.requests.length;
    const q = query({ collectionConceptId: GAMSSA, temporal: '2024-10-11T00:00:01Z/2024-10-11T23:59:59Z', coverageTolerance: LISTING_COVERAGE_TOLERANCE });
    const michigan = await collect(cmr.searchGranules(q, bbox([-87.5, 41.5, -85.0, 46.0])));
    const huron = await collect(cmr.searchGranules(q, bbox([-84.0, 43.0, -81.5, 47.5])));
    assert.equal(michigan.length + huron.length, 2, 'one granule each');
    assert.deepEqual(
      since(from).map((r) => r.answeredBy),
      ['test_xarray_backend/test_xarray_statistics[great_lakes_geojson]#0', 'test_xarray_backend/test_xarray_statistics[great_lakes_geojson]#1'],
      'bounding_box -85 matches the recorded -85.0',
    );
  });

  it('xarray part: the same search twice replays the same answer', async () => {
    const from = replay.requests.length;
    const q = query({ collectionConceptId: GAMSSA, temporal: '2024-10-11T00:00:01Z/2024-10-11T23:59:59Z', coverageTolerance: LISTING_COVERAGE_TOLERANCE });
    const area = bbox([-20.799, 75.011, 14.483, 83.559]);
    const a = await collect(cmr.searchGranules(q, area));
    const b = await collect(cmr.searchGranules(q, area));
    assert.deepEqual(
      a.map((g) => g.id),
      ['G3264876018-POCLOUD'],
      'GAMSSA granule',
    );
    assert.deepEqual(
      b.map((g) => g.id),
      ['G3264876018-POCLOUD'],
      'again',
    );
    assert.equal(since(from).length, 2, 'one request per search');
    assert.ok(
      since(from).every((r) => r.answeredBy.startsWith('test_xarray_backend/')),
      'both matched',
    );
  });

  it('collections.umm_json: GAMSSA resolution 0.25 decimal degrees', async () => {
    const c = await cmr.getCollection(GAMSSA);
    const dig = (v: unknown, ...keys: Array<string | number>): unknown => keys.reduce((o, k) => (o as Record<string | number, unknown>)[k], v);
    const resolution = dig(
      c!.umm,
      'SpatialExtent',
      'HorizontalSpatialDomain',
      'ResolutionAndCoordinateSystem',
      'HorizontalDataResolution',
      'GenericResolutions',
      0,
    );
    assert.deepEqual(resolution, { XDimension: 0.25, YDimension: 0.25, Unit: 'Decimal Degrees' }, 'GenericResolutions[0]');
    assert.deepEqual(replay.unmatched, [], 'every request matched a recording');
  });
});
