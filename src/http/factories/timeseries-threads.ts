/**
 * Time-series steps on worker threads (RASTILE_TIMESERIES_THREADS): the calling side. One pool per
 * app's Services, started once series come in a row (`seriesPool`; series run on the calling
 * thread until the threads are warm) or, with RASTILE_TIMESERIES_THREADS_COLD=wait, with the server
 * (`startTimeseriesThreads`, before it listens); ended after RASTILE_TIMESERIES_THREADS_IDLE_S
 * without a task and when the app closes. Each thread first runs the warm-up task (the series
 * work on a built-in granule) unless RASTILE_WARMUP=0. A task is the plain
 * description of one granule set's work — the backend kind, the granules the step's CMR search
 * found (on this thread), the request's raw parameters (the worker parses them with the route's
 * own definitions), the feature or bbox — and its answer is plain data: statistics as JSON, a
 * frame as palette indices (moved, not copied), plus the dataset versions the work read (replayed
 * into this request's read set for the response cache).
 */
import type { FastifyInstance } from 'fastify';
import type { Bounds } from '../../geo/bounds.ts';
import { ThreadPool } from '../../granule/timeseries/thread-pool.ts';
import type { ColorMap } from '../../raster/colormap/types.ts';
import { sharedColormapPalette } from '../../raster/render/gif-colormap-frame.ts';
import type { EncodedFrame } from '../../raster/render/gif-file.ts';
import type { IndexedFrame } from '../../raster/render/indexed-frame.ts';
import type { Granule } from '../../search/types.ts';
import { markUnversionedRead, recordRead, type ReadDep } from '../../util/read-set.ts';
import type { RawRequestParams } from '../validation/params.ts';
import type { Services } from '../services.ts';
import type { Feature } from '../geojson-body.ts';

/** Backends a worker thread can rebuild (timeseries-worker.ts). */
export type ThreadBackend = 'raster' | 'array';

interface TaskBase {
  backend: ThreadBackend;
  /** Identifies the series (a worker keeps per-series memos: feature coverage, colormap). */
  series: string;
  raw: RawRequestParams;
  granules: readonly Granule[];
  searchBounds: Bounds;
  /** No other set of the series reads these granules: the thread drops the blocks it decoded once done. */
  dropBlocks?: boolean;
}
export type SeriesTask =
  | (TaskBase & { kind: 'statistics'; feature: Feature })
  /** `encodeAt`: the frame is LZW-encoded in the thread at this size (gif-file.ts), not sent as indices. */
  | (TaskBase & { kind: 'frame'; sized: boolean; bounds: Bounds; encodeAt?: [number, number] });

/** What a task gives back: its value and what it read. */
export interface TaskAnswer<T> {
  value: T;
  reads: ReadDep[];
  uncacheable?: string;
}

/** The task every pool thread runs first (timeseries-worker.ts): the series work on a built-in granule. */
export const WARMUP_TASK = { kind: 'warmup' } as const;
export const isWarmupTask = (task: unknown): boolean => (task as { kind?: unknown } | null)?.kind === WARMUP_TASK.kind;

/** A frame as it crosses, indexed or encoded: `shared` when its palette is the colormap's shared one (same array on this side). */
export type ThreadFrame = (IndexedFrame | EncodedFrame) & { shared: boolean };

const pools = new WeakMap<Services, ThreadPool>();
const hooked = new WeakSet<FastifyInstance>();
/** The pools of a server (keyed by its http server: the same object for every encapsulated Fastify instance). */
const serverPools = new WeakMap<object, Set<ThreadPool>>();
let seriesCount = 0;

/** A fresh series id. */
export const newSeriesId = (): string => `${process.pid}-${++seriesCount}`;

/** The entry module: the .ts source under tsx (tests, bench from source), the .js build under dist/. */
const workerEntry = (): URL => new URL(`./timeseries-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** The app's pool, or undefined when steps run on the calling thread (threads = 0). */
export function timeseriesPool(app: FastifyInstance, services: Services): ThreadPool | undefined {
  const size = services.config.timeseries.threads;
  if (!(size > 0)) return undefined;
  let pool = pools.get(services);
  if (pool === undefined) {
    const warm = process.env['RASTILE_WARMUP'] !== '0';
    pool = new ThreadPool({
      size,
      entry: workerEntry(),
      workerData: { config: cloneable(services.config) },
      name: 'rastile-timeseries',
      ...(warm ? { warmup: WARMUP_TASK } : {}),
      idleMs: services.config.timeseries.threadsIdleMs ?? 0,
    });
    pools.set(services, pool);
  }
  let mine = serverPools.get(app.server);
  if (mine === undefined) serverPools.set(app.server, (mine = new Set()));
  mine.add(pool);
  if (!hooked.has(app)) {
    hooked.add(app);
    const p = pool;
    app.addHook('onClose', async () => p.close());
  }
  return pool;
}

/** When the latest series that found its pool cold ended (ms since 1970). */
const lastColdSeries = new WeakMap<ThreadPool, number>();

/**
 * The pool a series should use now: `pool` when its threads are started and warm (or the config
 * says to wait for them), else undefined — the series runs on the calling thread. Starting the
 * threads costs ~1.4 s of CPU each (module load and warm-up; BENCHMARKS.md, time series, ninth
 * session), so they start (and warm up) when a cold series' response closes only if another cold
 * series ended less than RASTILE_TIMESERIES_THREADS_IDLE_S before (always when that is 0): a
 * lone series now and then never pays it, a burst gets the threads from its third series on, and
 * the start-up does not compete with a series for the cores.
 */
export function seriesPool(
  pool: ThreadPool | undefined,
  services: Services,
  response: { once(event: 'close', fn: () => void): unknown },
): ThreadPool | undefined {
  if (pool === undefined || services.config.timeseries.threadsWhenCold === 'wait') return pool;
  if (pool.ready) {
    pool.touch(); // the idle stop does not fire during this series' searches
    return pool;
  }
  response.once('close', () => {
    const idleMs = services.config.timeseries.threadsIdleMs ?? 0;
    const now = Date.now();
    const previous = lastColdSeries.get(pool);
    lastColdSeries.set(pool, now);
    if (idleMs === 0 || (previous !== undefined && now - previous < idleMs)) pool.prestart();
  });
  return undefined;
}

/**
 * Starts the time-series threads of `app` (none when RASTILE_TIMESERIES_THREADS = 0) and waits for
 * their warm-up; resolves with the threads started and warmed. A server calls it before listening.
 */
export async function startTimeseriesThreads(app: FastifyInstance): Promise<{ threads: number; warmed: number }> {
  let threads = 0;
  let warmed = 0;
  for (const pool of serverPools.get(app.server) ?? []) {
    warmed += await pool.start();
    threads += pool.threads;
  }
  return { threads, warmed };
}

/** Run one task on the pool; the reads it made are recorded into this request's read set. */
export async function runTask<T>(pool: ThreadPool, task: SeriesTask, signal: AbortSignal): Promise<T> {
  const answer = await pool.run<TaskAnswer<T>>(
    task,
    signal,
    task.granules.map((g) => g.id),
  );
  for (const r of answer.reads) recordRead(r.kind, r.location, r.version);
  if (answer.uncacheable !== undefined) markUnversionedRead(answer.uncacheable);
  return answer.value;
}

/** A worker's frame as the calling thread's renderer would have made it (the shared palette is the same array). */
export function frameFromThread(f: ThreadFrame, colormap: ColorMap | undefined): IndexedFrame | EncodedFrame {
  const shared = f.shared && colormap?.kind === 'lut' ? sharedColormapPalette(colormap.table) : undefined;
  const { width, height, transparentIndex } = f;
  const palette = shared ?? f.palette;
  return 'data' in f ? { width, height, data: f.data, palette, transparentIndex } : { width, height, index: f.index, palette, transparentIndex };
}

/** The config as structured-cloneable data (functions — test clocks, header hooks — stay on this thread). */
function cloneable(value: unknown): unknown {
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object' || value instanceof RegExp || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map(cloneable);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'function') out[k] = cloneable(v);
  return out;
}
