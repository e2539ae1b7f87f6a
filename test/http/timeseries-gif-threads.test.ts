/**
 * GIF series on worker threads: frames of a sized, unlabelled series are LZW-encoded in the pool
 * thread (the task carries `encodeAt`, the answer the image data, not palette indices); labelled
 * or unsized series still get indices (their frames are finished on the calling thread). The
 * GIF's bytes equal the in-thread ones in test/http/timeseries-threads.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Transferable } from 'node:worker_threads';
import { ThreadPool } from '../../src/granule/timeseries/thread-pool.ts';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from '../search/granule-fixtures.ts';

const COLL = `collection_concept_id=${COLLECTION_ID}`;
const LAYER = `assets_regex=${q('B0[0-9]')}&assets=B04&exitwhenfull=false`;
const MAY = q('2024-05-01T00:00:00Z/2024-05-11T23:59:59Z');
const BBOX = [14.995, 45.015, 15.07, 45.066].join(',');

let data: RangeServer;
let cmr: CmrStandin;
let server: TestServer;
/** Every frame task given to a pool, with what came back. */
const seen: Array<{ task: { kind?: string; encodeAt?: [number, number] }; answer: { value?: object } }> = [];
const run = ThreadPool.prototype.run;

before(async () => {
  ThreadPool.prototype.run = async function <T>(
    this: ThreadPool,
    task: unknown,
    signal: AbortSignal,
    affinity?: readonly string[],
    transfer?: Transferable[],
  ): Promise<T> {
    const answer = await run.call(this, task, signal, affinity, transfer);
    if ((task as { kind?: string }).kind === 'frame') seen.push({ task: task as never, answer: answer as never });
    return answer as T;
  };
  data = await startRangeServer({ root: GRANULE_DATA_DIR });
  const fx = loadGranuleFixtures(data.url);
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
  server = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
    c.timeseries.threads = 1;
    c.timeseries.threadsWhenCold = 'wait'; // every series on the threads (the first waits for their warm-up)
  });
});
after(async () => {
  ThreadPool.prototype.run = run;
  await server?.close();
  await cmr?.close();
  await data?.close();
});

describe('GIF series frames on a pool thread', () => {
  it('sized, no label: encoded in the thread (encodeAt given, image data back)', async () => {
    seen.length = 0;
    const r = await server.get(`/raster/timeseries/bbox/${BBOX}/64x48.gif?rescale=1000,5000&colormap_name=viridis&${COLL}&${LAYER}&temporal=${MAY}&step=P1D`);
    assert.equal(r.status, 200);
    await r.arrayBuffer();
    assert.ok(seen.length > 0);
    for (const { task, answer } of seen) {
      assert.deepEqual(task.encodeAt, [64, 48]);
      assert.ok(answer.value !== undefined && 'data' in answer.value && !('index' in answer.value));
    }
  });

  it('labelled: indices back (the label is drawn on the calling thread)', async () => {
    seen.length = 0;
    const r = await server.get(
      `/raster/timeseries/bbox/${BBOX}/64x48.gif?rescale=1000,5000&colormap_name=viridis&label=true&${COLL}&${LAYER}&temporal=${MAY}&step=P1D`,
    );
    assert.equal(r.status, 200);
    await r.arrayBuffer();
    assert.ok(seen.length > 0);
    for (const { task, answer } of seen) {
      assert.equal(task.encodeAt, undefined);
      assert.ok(answer.value !== undefined && 'index' in answer.value);
    }
  });
});
