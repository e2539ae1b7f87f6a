/**
 * Time-series steps on worker threads (RASTILE_TIMESERIES_THREADS) against the same steps on the
 * calling thread (0), over the generated granules (scripts/fixtures/granules.py) and, when the
 * shared fixtures exist, the GAMSSA /array granules: statistics JSON deep-equal, GIF bytes equal
 * (colormap palette shared by every frame, per-frame palettes, labels), a step's error with the
 * same status and body (the request memory budget applies in the thread), and a client that goes
 * away while a thread reads a granule: no later step searches CMR or fetches a byte.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { CMR_DATA_DIR, loadRecording, recordingsAvailable } from '../helpers/cmr-replay.ts';
import { startCmrStandin, type CmrStandin, type UmmItem } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { boxFeature } from '../helpers/geojson.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from '../search/granule-fixtures.ts';

const COLL = `collection_concept_id=${COLLECTION_ID}`;
const LAYER = `assets_regex=${q('B0[0-9]')}&assets=B04&exitwhenfull=false`;
const MAY = q('2024-05-01T00:00:00Z/2024-05-11T23:59:59Z');
const BOX = [14.995, 45.015, 15.07, 45.066] as const;
const FEATURE = { ...boxFeature(BOX), properties: { name: 'box' } };

let data: RangeServer;
let cmr: CmrStandin;
let threads: TestServer;
let inline: TestServer;

before(async () => {
  data = await startRangeServer({ root: GRANULE_DATA_DIR });
  const fx = loadGranuleFixtures(data.url);
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
  threads = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
    c.timeseries.threads = 2;
    c.timeseries.threadsWhenCold = 'wait'; // every series on the threads (the first waits for their warm-up)
  });
  inline = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
    c.timeseries.threads = 0;
  });
});
after(async () => {
  await threads?.close();
  await inline?.close();
  await cmr?.close();
  await data?.close();
});

async function both(get: (s: TestServer) => Promise<Response>): Promise<[Response, Response]> {
  return [await get(threads), await get(inline)];
}

describe('RASTILE_TIMESERIES_THREADS', () => {
  it('0 by default, a count, or auto (the available cores)', () => {
    assert.equal(configFromEnv({}).timeseries.threads, 0);
    assert.equal(configFromEnv({ RASTILE_TIMESERIES_THREADS: '3' }).timeseries.threads, 3);
    assert.equal(configFromEnv({ RASTILE_TIMESERIES_THREADS: 'auto' }).timeseries.threads, os.availableParallelism());
    assert.equal(configFromEnv({}).timeseries.threadsIdleMs, 300_000);
    assert.equal(configFromEnv({ RASTILE_TIMESERIES_THREADS_IDLE_S: '0' }).timeseries.threadsIdleMs, 0);
    assert.equal(configFromEnv({ RASTILE_TIMESERIES_THREADS_IDLE_S: '2.5' }).timeseries.threadsIdleMs, 2500);
    assert.equal(configFromEnv({}).timeseries.threadsWhenCold, 'inline');
    assert.equal(configFromEnv({ RASTILE_TIMESERIES_THREADS_COLD: 'wait' }).timeseries.threadsWhenCold, 'wait');
  });
});

describe('worker threads give the calling thread’s answers', () => {
  for (const extra of ['', '&coord_crs=epsg:4326&percentiles=10,90&histogram_bins=5', '&step=P2D&algorithm=hillshade']) {
    it(`statistics, deep-equal${extra}`, async () => {
      const url = `/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D${extra}`;
      const [a, b] = await both((s) => s.post(url, FEATURE));
      assert.equal(a.status, b.status);
      const [ja, jb] = [await a.json(), await b.json()];
      assert.deepEqual(ja, jb);
      if (a.status === 200) assert.ok(Object.keys((ja as { properties: { statistics: object } }).properties.statistics).length > 0);
    });
  }

  const bbox = BOX.join(',');
  for (const [name, query] of [
    ['viridis (one palette for every frame)', `/64x48.gif?rescale=1000,5000&colormap_name=viridis`],
    ['grey (a palette per frame)', `/64x48.gif?rescale=1000,5000`],
    ['labels, max_size', `.gif?rescale=1000,5000&colormap_name=terrain&label=true&max_size=40`],
  ] as const) {
    it(`GIF bytes equal: ${name}`, async () => {
      const url = `/raster/timeseries/bbox/${bbox}${query}&${COLL}&${LAYER}&temporal=${MAY}&step=P1D`;
      const [a, b] = await both((s) => s.get(url));
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.deepEqual(Buffer.from(await a.arrayBuffer()), Buffer.from(await b.arrayBuffer()));
    });
  }

  it('a step over its memory budget in the thread: the same status and body', async () => {
    const small = await startTestServer((c) => {
      c.cmrUrl = cmr.url;
      c.timeseries.threads = 1;
      c.timeseries.threadsWhenCold = 'wait'; // every series on the threads (the first waits for their warm-up)
      c.timeseries.concurrency = 1; // one step at a time: the budget's running total is that step's alone
      c.limits.maxRequestBytes = 4096;
    });
    const smallInline = await startTestServer((c) => {
      c.cmrUrl = cmr.url;
      c.timeseries.threads = 0;
      c.timeseries.concurrency = 1;
      c.limits.maxRequestBytes = 4096;
    });
    try {
      const url = `/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`;
      const a = await small.post(url, FEATURE);
      const b = await smallInline.post(url, FEATURE);
      assert.equal(a.status, 400);
      assert.equal(b.status, 400);
      const body = (await a.json()) as { detail: string };
      assert.match(body.detail, /memory budget/);
      assert.deepEqual(body, await b.json());
    } finally {
      await small.close();
      await smallInline.close();
    }
  });
});

describe('/array on worker threads (GAMSSA)', { skip: recordingsAvailable() ? false : 'shared CMR recordings not present' }, () => {
  it('statistics deep-equal and GIF bytes equal', async () => {
    const arrayData = await startRangeServer({ root: CMR_DATA_DIR });
    const part = loadRecording('test_xarray_backend/test_xarray_part').at(-1)!.response.body as { items: UmmItem[] };
    const first = JSON.parse(JSON.stringify(part.items[0]).replaceAll('https://archive.podaac.earthdata.nasa.gov', arrayData.url)) as UmmItem;
    const second = JSON.parse(
      JSON.stringify(first)
        .replaceAll('20241011120000', '20241012120000')
        .replace('G3264876018-POCLOUD', 'G3264876019-POCLOUD')
        .replace('2024-10-12T00:00:00.000Z', '2024-10-13T00:00:00.000Z')
        .replace('2024-10-11T00:00:00.000Z', '2024-10-12T00:00:00.000Z'),
    ) as UmmItem;
    const collections = (loadRecording('test_xarray_backend/test_timeseries_statistics')[0]!.response.body as { items: UmmItem[] }).items;
    const standin = await startCmrStandin({ granules: [first, second], collections });
    const on = await startTestServer((c) => {
      c.cmrUrl = standin.url;
      c.timeseries.threads = 2;
      c.timeseries.threadsWhenCold = 'wait'; // every series on the threads (the first waits for their warm-up)
    });
    const off = await startTestServer((c) => {
      c.cmrUrl = standin.url;
      c.timeseries.threads = 0;
    });
    try {
      const series = `collection_concept_id=C2036881735-POCLOUD&variables=analysed_sst&temporal=${q('2024-10-11T00:00:00Z/2024-10-12T23:59:59Z')}&step=P1D`;
      const url = `/array/timeseries/statistics?${series}`;
      const feature = boxFeature([-20.799, 75.011, 14.483, 83.559]);
      const a = await on.post(url, feature);
      const b = await off.post(url, feature);
      assert.equal(a.status, 200);
      assert.deepEqual(await a.json(), await b.json());
      const gif = `/array/timeseries/bbox/-10,30,10,50/60x60.gif?${series}&rescale=270,310&colormap_name=viridis`;
      const ga = await on.get(gif);
      const gb = await off.get(gif);
      assert.equal(ga.status, 200);
      assert.deepEqual(Buffer.from(await ga.arrayBuffer()), Buffer.from(await gb.arrayBuffer()));
    } finally {
      await on.close();
      await off.close();
      await standin.close();
      await arrayData.close();
    }
  });
});

describe('cancellation on worker threads', () => {
  it('a statistics client that goes away while a thread reads G1: no later step searches CMR or fetches a byte of G2–G4', async () => {
    const slowData = await startRangeServer({ root: GRANULE_DATA_DIR, delayMs: 250 });
    const fx = loadGranuleFixtures(slowData.url);
    const standin = await startCmrStandin({ granules: fx.items, collections: fx.collections });
    const s = await startTestServer((c) => {
      c.cmrUrl = standin.url;
      c.timeseries.concurrency = 1;
      c.timeseries.threads = 2;
      c.timeseries.threadsWhenCold = 'wait'; // every series on the threads (the first waits for their warm-up)
    });
    try {
      const controller = new AbortController();
      const pending = fetch(`${s.url}/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(FEATURE),
        signal: controller.signal,
      }).catch((e: unknown) => e);
      const readsG1 = () => slowData.requests.some((r) => r.path.includes('RASTILE.G1.'));
      // the threads load their modules first (seconds under tsx on a loaded machine)
      for (let i = 0; i < 3000 && !readsG1(); i++) await sleep(20);
      assert.ok(readsG1(), 'step 1 started reading G1');
      controller.abort();
      await pending;
      await sleep(1500); // ten more P1D steps, each ≥ 250 ms per data request, would have run by now
      const temporals = standin.granuleRequests().map((r) => r.query.find(([k]) => k === 'temporal')?.[1]);
      // the steps share one search over the series' range (src/search/series-search.ts), made by step 1
      assert.deepEqual(temporals, ['2024-05-01T00:00:00+00:00/2024-05-11T23:59:59+00:00'], 'one range search, no later step searched CMR');
      const later = slowData.requests.filter((r) => /RASTILE\.G[2-5]\./.test(r.path)).map((r) => r.path);
      assert.deepEqual(later, [], 'no byte of a later step’s granule fetched');
    } finally {
      await s.close();
      await standin.close();
      await slowData.close();
    }
  });
});
