/**
 * The time-series threads' warm-up (src/http/factories/timeseries-worker.ts on the built-in granule
 * of timeseries-warmup-granule.ts): `startTimeseriesThreads` — what `rastile serve` runs before
 * listening — starts every thread and each reports its warm-up done (the statistics and GIF-frame
 * work ran without error on the in-memory GeoTIFF); the series answers afterwards are those of
 * the calling thread (statistics deep-equal, GIF bytes equal); RASTILE_WARMUP=0 starts the threads
 * without it; threads = 0 starts nothing.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { buildApp } from '../../src/http/app.ts';
import { startTimeseriesThreads } from '../../src/http/factories/timeseries-threads.ts';
import { warmupGeoTiff, warmupValue } from '../../src/http/factories/timeseries-warmup-granule.ts';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { boxFeature } from '../helpers/geojson.ts';
import { q } from '../helpers/test-server.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from '../search/granule-fixtures.ts';

const PY = '/usr/bin/python3';
const COLL = `collection_concept_id=${COLLECTION_ID}`;
const LAYER = `assets_regex=${q('B0[0-9]')}&assets=B04&exitwhenfull=false`;
const MAY = q('2024-05-01T00:00:00Z/2024-05-11T23:59:59Z');
const BOX = [14.995, 45.015, 15.07, 45.066] as const;

let data: RangeServer;
let cmr: CmrStandin;
const apps: FastifyInstance[] = [];

async function app(threads: number): Promise<{ app: FastifyInstance; url: string }> {
  const config = configFromEnv({}, { allowPrivateHosts: true });
  config.cmrUrl = cmr.url;
  config.timeseries.threads = threads;
  const a = buildApp(config, {});
  apps.push(a);
  return { app: a, url: await a.listen({ host: '127.0.0.1', port: 0 }) };
}

before(async () => {
  data = await startRangeServer({ root: GRANULE_DATA_DIR });
  const fx = loadGranuleFixtures(data.url);
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
});
after(async () => {
  for (const a of apps) await a.close();
  await cmr?.close();
  await data?.close();
});

describe('time-series threads warm up at start', () => {
  it('the built-in granule is a tiled, predictor-2 DEFLATE GeoTIFF (read back by rasterio)', { skip: existsSync(PY) ? false : `${PY} missing` }, () => {
    const tif = warmupGeoTiff();
    assert.ok(tif.length < 256 * 1024, `${tif.length} bytes`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rastile-warmup-'));
    try {
      const file = path.join(dir, 'w.tif');
      writeFileSync(file, tif);
      const script = `
import json, sys, rasterio
with rasterio.open(sys.argv[1]) as d:
    a = d.read(1)
    print(json.dumps({"crs": d.crs.to_epsg(), "size": [d.width, d.height], "block": d.block_shapes[0], "compress": d.profile.get("compress"),
        "predictor": d.tags(ns="IMAGE_STRUCTURE").get("PREDICTOR"), "nodata": d.nodata, "transform": list(d.transform)[:6],
        "px": [int(a[y, x]) for y, x in [(0, 0), (100, 300), (300, 100), (511, 511), (255, 256)]]}))`;
      const got = JSON.parse(execFileSync(PY, ['-c', script, file], { encoding: 'utf8' })) as Record<string, unknown>;
      assert.deepEqual(got, {
        crs: 32633,
        size: [512, 512],
        block: [256, 256],
        compress: 'deflate',
        predictor: '2',
        nodata: 0,
        transform: [30, 0, 500000, 0, -30, 5000000],
        px: [
          [0, 0],
          [300, 100],
          [100, 300],
          [511, 511],
          [256, 255],
        ].map(([x, y]) => warmupValue(x!, y!)),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every thread reports its warm-up done before serving; answers equal the calling thread’s', async () => {
    const threaded = await app(2);
    assert.deepEqual(await startTimeseriesThreads(threaded.app), { threads: 2, warmed: 2 });
    const inline = await app(0);
    assert.deepEqual(await startTimeseriesThreads(inline.app), { threads: 0, warmed: 0 });

    const stats = `/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`;
    const post = (url: string) =>
      fetch(url + stats, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(boxFeature(BOX)) });
    const [a, b] = [await post(threaded.url), await post(inline.url)];
    assert.equal(a.status, 200);
    assert.deepEqual(await a.json(), await b.json());

    const gif = `/raster/timeseries/bbox/${BOX.join(',')}/64x48.gif?rescale=1000,5000&colormap_name=viridis&${COLL}&${LAYER}&temporal=${MAY}&step=P1D`;
    const [ga, gb] = [await fetch(threaded.url + gif), await fetch(inline.url + gif)];
    assert.equal(ga.status, 200);
    assert.deepEqual(Buffer.from(await ga.arrayBuffer()), Buffer.from(await gb.arrayBuffer()));
  });

  it('RASTILE_WARMUP=0: the threads start without the warm-up', async () => {
    const before = process.env['RASTILE_WARMUP'];
    process.env['RASTILE_WARMUP'] = '0';
    try {
      const cold = await app(1);
      assert.deepEqual(await startTimeseriesThreads(cold.app), { threads: 1, warmed: 0 });
    } finally {
      if (before === undefined) delete process.env['RASTILE_WARMUP'];
      else process.env['RASTILE_WARMUP'] = before;
    }
  });
});
