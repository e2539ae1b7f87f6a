/**
 * Worker-thread entry of the time-series pool (timeseries-threads.ts): its own Services (byte
 * sources, block and dataset caches) from the app's config, the /raster and /array backends'
 * granule readers, and the same step work as the calling thread (timeseries-step-work.ts). Each
 * task parses the request's raw parameters with the route's definitions, reads the granules it
 * was given (no CMR search here) under a request memory budget of RASTILE_MAX_REQUEST_MB, and
 * answers with plain data plus the dataset versions it read. The pool's warm-up task (WARMUP_TASK)
 * runs the same statistics and frame work on a built-in granule (timeseries-warmup-granule.ts).
 */
import type { Transferable } from 'node:worker_threads';
import { workerData } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import { serveTasks } from '../../granule/timeseries/thread-pool.ts';
import { encodeSeriesFrame } from '../../raster/render/encode-gif.ts';
import { sharedColormapPalette } from '../../raster/render/gif-colormap-frame.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { LruCache } from '../../util/lru-cache.ts';
import { ReadSet, runWithReadSet } from '../../util/read-set.ts';
import { RequestBudget, runWithBudget } from '../../util/request-budget.ts';
import { runWithSharedWork, SharedWork } from '../../util/shared-work.ts';
import { createServices } from '../services.ts';
import { warmHttpClient } from '../warmup.ts';
import { startWarmupRangeServer } from '../warmup-range-server.ts';
import type { ManagedSourceOpener } from '../../sources/open-source.ts';
import { parseParams } from '../validation/params.ts';
import { WGS84 } from '../../geo/crs.ts';
import { granuleArrayBackendParams } from './granule-array-params.ts';
import { granuleRasterBackendParams } from './granule-backend.ts';
import { granuleArrayOpeners, granuleRasterOpeners } from './granule-backend-openers.ts';
import { CoverageMemo } from './feature-statistics.ts';
import { colormapOf, postProcessFor } from './image-output.ts';
import { isWarmupTask, type SeriesTask, type TaskAnswer, type ThreadFrame } from './timeseries-threads.ts';
import { warmupGeoTiff, warmupGranule, type WarmupGranule } from './timeseries-warmup-granule.ts';
import { frameStep, gifDefs, statisticsDefs, statisticsStep, type GifStepParams, type StatisticsStepParams } from './timeseries-step-work.ts';
import type { ColorMap } from '../../raster/colormap/types.ts';

const { config } = workerData as { config: Config };
const services = createServices(config);
const backends = {
  raster: { params: granuleRasterBackendParams, ...granuleRasterOpeners(services) },
  array: { params: granuleArrayBackendParams, ...granuleArrayOpeners(services) },
};
const maxSide = config.limits.maxImageSide;

/** Per-series memos (feature coverage, shared work; the colormap, so frames of a series share its palette). */
interface SeriesMemo {
  coverage: CoverageMemo;
  /** Warp plans, cutlines… shared by the series' tasks in this thread (src/util/shared-work.ts). */
  shared: SharedWork;
  colormap?: { value: ColorMap | undefined };
}
const memos = new LruCache<string, SeriesMemo>(16, () => 1);
const memoOf = (series: string): SeriesMemo => {
  let m = memos.get(series);
  if (m === undefined) {
    m = { coverage: new CoverageMemo(), shared: new SharedWork() };
    memos.set(series, m);
  }
  return m;
};

type Backend = (typeof backends)[keyof typeof backends];

async function run(task: SeriesTask, signal: AbortSignal, backend: Backend = backends[task.backend]): Promise<{ value: unknown; transfer?: Transferable[] }> {
  const memo = memoOf(task.series);
  if (task.kind === 'statistics') {
    const p = parseParams(statisticsDefs(backend.params, maxSide), task.raw) as unknown as StatisticsStepParams & Parameters<typeof backend.openGranules>[0];
    const reader = backend.openGranules(p as never, task.granules, task.searchBounds);
    const coord = p.coord_crs ?? WGS84;
    return { value: await statisticsStep(reader, p, postProcessFor(p), task.feature, { coord, dst: p.dst_crs ?? coord }, signal, memo.coverage) };
  }
  const p = parseParams(gifDefs(backend.params, maxSide, task.sized), task.raw) as unknown as GifStepParams;
  const reader = backend.openGranules(p as never, task.granules, task.searchBounds);
  memo.colormap ??= { value: colormapOf(p) };
  const colormap = memo.colormap.value;
  const f = await frameStep(reader, p, postProcessFor(p), task.bounds, colormap, signal);
  const shared = colormap?.kind === 'lut' && f.palette === sharedColormapPalette(colormap.table);
  if (task.encodeAt !== undefined) {
    // encoded here (its index back to this thread's pool); the image data crosses as an exact copy
    const e = encodeSeriesFrame(f, ...task.encodeAt);
    const data = e.data.slice();
    BUFFER_POOL.release(e.data.buffer);
    const frame: ThreadFrame = { width: e.width, height: e.height, data, palette: e.palette, transparentIndex: e.transparentIndex, shared };
    return { value: frame, transfer: [data.buffer] };
  }
  // the index array is the frame's own (whole buffer): moved, not copied
  const whole = f.index.byteOffset === 0 && f.index.byteLength === f.index.buffer.byteLength && f.index.buffer instanceof ArrayBuffer;
  const index = whole ? f.index : f.index.slice();
  const frame: ThreadFrame = { width: f.width, height: f.height, index, palette: f.palette, transparentIndex: f.transparentIndex, shared };
  return { value: frame, transfer: [index.buffer as ArrayBuffer] };
}

/** One task as the pool sends it: under its own request budget, read set and the series' shared work. */
async function serve(task: SeriesTask, signal: AbortSignal, backend?: Backend): Promise<{ value: TaskAnswer<unknown>; transfer?: Transferable[] }> {
  const budget = new RequestBudget(config.limits.maxRequestBytes);
  const reads = new ReadSet();
  try {
    const shared = memoOf(task.series).shared;
    const work = () => runWithReadSet(reads, () => runWithBudget(budget, () => runWithSharedWork(() => run(task, signal, backend), shared)));
    // no other set of the series reads these granules: this read's blocks back to the pool (timeseries-routes.ts)
    const r = task.dropBlocks === true ? await services.blockCache.readDropping(work) : await work();
    const answer: TaskAnswer<unknown> = { value: r.value, reads: reads.deps(), ...(reads.uncacheable !== undefined ? { uncacheable: reads.uncacheable } : {}) };
    return { value: answer, ...(r.transfer ? { transfer: r.transfer } : {}) };
  } finally {
    budget.close();
  }
}

/**
 * Rounds of the warm-up: V8 optimises a function after enough calls, not on the first. Measured
 * (BENCHMARKS.md, "Warm pool threads"): 3 rounds left ~45 optimisations to the first series, 6 → 12
 * cut the 2-thread statistics series from 540/920 to 453/720 and 412/670 ms wall/CPU (~0.2 s per thread at start).
 */
const WARMUP_ROUNDS = 12;

/**
 * The warm-up: a statistics task and a GIF-frame task over the built-in granule, as a series'
 * tasks run (same parsing, mosaic, warp, statistics, frame rendering), WARMUP_ROUNDS times, each
 * round a new series (per-series memos are rebuilt as in a real series). Answers the rounds run.
 */
async function warmUp(signal: AbortSignal): Promise<number> {
  // (serveTasks detached one ArrayBuffer before this task: util/detach-protector.ts)
  // undici (the data-host reads): loaded, its parser compiled, as the main thread's start-up warm-up does
  await warmHttpClient();
  const w = await warmupGranule(config.limits.maxBlockBytes, config.limits.maxReadPixels);
  const backend: Backend = {
    params: granuleRasterBackendParams,
    ...granuleRasterOpeners(services, w.openAsset),
  };
  for (let round = 0; round < WARMUP_ROUNDS; round++) await warmupRound(w, backend, `warmup-${round}`, signal);
  await warmUpOverHttp(signal);
  return WARMUP_ROUNDS + HTTP_WARMUP_ROUNDS;
}

/** One warm-up round: a statistics task and a GIF-frame task over the granule `w`, as a new series (the frame's decoded blocks dropped after it with `dropBlocks`). */
async function warmupRound(w: WarmupGranule, backend: Backend, series: string, signal: AbortSignal, dropBlocks = false): Promise<void> {
  const query = { collection_concept_id: w.collection, temporal: w.temporal, assets: '0' };
  const [minx, miny, maxx, maxy] = w.bbox.map(String);
  const base = { backend: 'raster' as const, granules: [w.granule], searchBounds: w.searchBounds };
  await serve({ ...base, kind: 'statistics', series, raw: { query, path: {} }, feature: w.feature }, signal, backend);
  const frame = { ...base, kind: 'frame' as const, series, sized: true, bounds: w.bbox, encodeAt: [256, 256] as [number, number], dropBlocks };
  const path = { minx, miny, maxx, maxy, format: 'gif', width: '256', height: '256' };
  await serve({ ...frame, raw: { query: { ...query, rescale: '2000,6000', colormap_name: 'viridis' }, path } }, signal, backend);
  memos.delete(series);
}

/**
 * Rounds over loopback HTTP after the in-memory ones: the same granule's bytes served by a listener
 * of this thread's own, each round under a new name (a new dataset: opened, its header and blocks
 * fetched), read through services of the warm-up's own (private hosts allowed, small caches)
 * with the app's source stack. The in-memory rounds leave that stack (range requests, bodies,
 * the source and dataset caches) uncompiled, and the thread's first real series compiled it:
 * measured, a thread's first real 10-step GIF series cost ~120 ms more CPU than the calling
 * thread's (BENCHMARKS.md, time series, tenth session).
 */
const HTTP_WARMUP_ROUNDS = 3;

async function warmUpOverHttp(signal: AbortSignal): Promise<void> {
  const own = createServices({
    ...config,
    sources: { ...config.sources, allowPrivateHosts: true, cacheBytes: 4 * 1024 * 1024 },
    cache: { ...config.cache, decodedBytes: 16 * 1024 * 1024 },
  });
  const backend: Backend = { params: granuleRasterBackendParams, ...granuleRasterOpeners(own) };
  const bytes = warmupGeoTiff();
  try {
    for (let round = 0; round < HTTP_WARMUP_ROUNDS; round++) {
      const server = await startWarmupRangeServer(bytes, `warmup-${round}.tif`);
      try {
        const w = await warmupGranule(config.limits.maxBlockBytes, config.limits.maxReadPixels, server.url);
        await warmupRound(w, backend, `warmup-http-${round}`, signal, true); // as a set no other set reads
      } finally {
        await server.close();
      }
    }
  } finally {
    await (own.sources as Partial<ManagedSourceOpener>).close?.();
  }
}

serveTasks(async (raw, signal) => {
  if (isWarmupTask(raw)) return { value: await warmUp(signal) };
  return serve(raw as SeriesTask, signal);
});
