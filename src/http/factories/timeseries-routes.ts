/**
 * Time series over granules (titiler-cmr §5): GET /timeseries (the steps as search objects) and,
 * per granule backend, POST …/timeseries/statistics, GET …/timeseries/{tms}/tilejson.json and
 * GET …/timeseries/bbox/….gif.
 *
 * Unlike titiler-cmr, steps are not HTTP sub-requests to ourselves: each step opens the backend's
 * reader for that step's search (the request's parameters with the step's `temporal`) and calls
 * the same read functions as the single-step routes (featureStatistics, readBbox,
 * tileJsonDocument), with at most RASTILE_TIMESERIES_CONCURRENCY steps at once
 * (src/granule/timeseries/step-executor.ts). The request's signal (client gone, request deadline)
 * stops every step. Any ImageBackend whose `open` honours `temporal` plugs in (/raster, /array).
 * With a backend's `searchStep` and RASTILE_TIMESERIES_THREADS > 0, each distinct granule set's
 * read, mosaic and statistics or frame runs on a worker thread (timeseries-threads.ts), given the
 * granules this thread's search found and the request's raw parameters.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { WGS84, type Crs } from '../../geo/crs.ts';
import { geometryBounds } from '../../geo/geometry.ts';
import { transformBounds } from '../../geo/transform-bounds.ts';
import { datasetGeographicBounds } from '../../geo/transform.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import type { Granule } from '../../search/types.ts';
import { getTileMatrixSet } from '../../geo/tms.ts';
import { checkSeriesSize, collectionResolution, type GuardedEndpoint } from '../../granule/timeseries/size-guard.ts';
import { runSteps } from '../../granule/timeseries/step-executor.ts';
import { encodeSeriesFrame, seriesGif, type SeriesFrame } from '../../raster/render/encode-gif.ts';
import { labelFrame, stepLabel } from '../../raster/render/frame-label.ts';
import { LISTING_COVERAGE_TOLERANCE } from '../../search/query-params.ts';
import { rangeTemporal } from '../../search/series-search.ts';
import { runWithSharedWork, SharedWork } from '../../util/shared-work.ts';
import { parseFeature } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { datasetParams } from '../params/dataset.ts';
import { granuleSearchParams, legacyGranuleSearchAliases } from '../params/granule-search.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { tileJsonParams, tilesizeParam } from '../params/tile.ts';
import { tmsPathParam } from '../params/tms.ts';
import { queryPairs } from '../query-string.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { P, type ParamDefs, type ParsedParams, type RawRequestParams } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { CoverageMemo } from './feature-statistics.ts';
import { colormapOf, postProcessFor } from './image-output.ts';
import { TILEJSON_DROP, tileJsonDocument } from './tilejson-document.ts';
import { frameStep, gifDefs, statisticsDefs, statisticsStep } from './timeseries-step-work.ts';
import { encodeSeriesFrameOffThread, startGifEncoder } from './timeseries-gif-encoder.ts';
import { frameFromThread, newSeriesId, runTask, seriesPool, timeseriesPool, type ThreadBackend, type ThreadFrame } from './timeseries-threads.ts';
import { collectionOf, requestSteps, stepSearches, timeseriesParams, TIMESERIES_KEYS, type TimeseriesRequest } from './timeseries-plan.ts';

const TAG = 'Time series';

/**
 * For each granule set, whether none of its granules is in another set: false for every set when
 * a set's granules are not known.
 */
function setsAlone(sets: ReadonlyArray<readonly Granule[] | undefined>): boolean[] {
  if (sets.some((g) => g === undefined)) return sets.map(() => false);
  const count = new Map<string, number>();
  for (const g of sets) for (const id of new Set(g!.map((x) => x.id))) count.set(id, (count.get(id) ?? 0) + 1);
  return sets.map((g) => g!.every((x) => count.get(x.id) === 1));
}

/** A step's granule search done ahead of its read (a backend may offer it; see `searchStep`). */
export interface StepSearch {
  /** Identifies the granules found, in order: steps with equal keys read the same mosaic. */
  key: string;
  count: number;
  /** The granules found (sent to a worker thread with the step's work). */
  granules?: readonly Granule[];
  /** The bounds the step's reader reports (its search's: `granule_ur`, `bounding_box` or the world). */
  searchBounds?(signal: AbortSignal): Promise<Bounds>;
  /** The step's reader over exactly these granules (no second search). */
  open(signal: AbortSignal): Promise<ImageReader>;
}

/** `area`: the read's area in EPSG:4326, as the reader would search it. */
export type StepSearcher<D extends ParamDefs> = (params: ParsedParams<D>, area: Bounds, signal: AbortSignal) => Promise<StepSearch>;

/** GET /timeseries: backend-agnostic; the step list as CMR search objects. */
export function registerTimeseriesListRoute(app: FastifyInstance, registry: RouteRegistry, services: Services): void {
  const box = {
    minx: P.float().describe('West of the box the step-less granule search is limited to (with miny, maxx, maxy).'),
    miny: P.float().describe('South of that box.'),
    maxx: P.float().describe('East of that box.'),
    maxy: P.float().describe('North of that box.'),
  };
  registerRoute(app, registry, {
    method: 'GET',
    path: '/timeseries',
    operationId: 'timeseries_steps',
    summary: 'The steps of a time series: one CMR search object per step (collection, filters and the step `temporal`).',
    tags: [TAG],
    params: { ...granuleSearchParams({ coverageTolerance: LISTING_COVERAGE_TOLERANCE }), ...legacyGranuleSearchAliases, ...timeseriesParams, ...box },
    responses: { 200: { description: 'Search objects, in step order.', content: { 'application/json': {} } } },
    handler: async ({ params: p, signal }) => {
      const bbox: Bounds | undefined =
        p.minx !== undefined && p.miny !== undefined && p.maxx !== undefined && p.maxy !== undefined ? [p.minx, p.miny, p.maxx, p.maxy] : undefined;
      const steps = await requestSteps(p, services, bbox, signal);
      return { kind: 'json', data: stepSearches(p, steps) };
    },
  });
}

/** titiler-cmr §5.7: the collection's resolution, then the per-step and total estimates. */
async function sizeGuard(
  services: Services,
  p: TimeseriesRequest,
  endpoint: GuardedEndpoint,
  aoi: Bounds,
  crs: Crs,
  steps: number,
  signal: AbortSignal,
): Promise<void> {
  if (steps === 0) return;
  const id = collectionOf(p)!;
  const collection = await services.cmr.getCollection(id, signal);
  if (collection === null) throw Errors.sourceNotFound(`concept_id ${id} not found`);
  const wgs84 = crs === WGS84 ? aoi : transformBounds(crs, WGS84, aoi);
  checkSeriesSize(endpoint, wgs84, collectionResolution(collection.umm), steps, services.config.timeseries);
}

export function registerTimeseriesRoutes<D extends ParamDefs>(
  app: FastifyInstance,
  registry: RouteRegistry,
  services: Services,
  backend: ImageBackend<D>,
  searchStep?: StepSearcher<D>,
  threadBackend?: ThreadBackend,
): void {
  const { prefix } = backend;
  const op = prefix.slice(1);
  const tags = [backend.tag, TAG];
  const maxSide = services.config.limits.maxImageSide;
  // steps share repeated pure work (warp coordinates, cutlines) and, where provably the same, one
  // CMR search over their range (src/search/series-search.ts) through one scope per series
  const inSeries = <T>(steps: string[], fn: () => Promise<T>): Promise<T> => {
    const shared = new SharedWork();
    const temporal = steps.length > 1 ? rangeTemporal(steps) : undefined;
    if (temporal !== undefined) shared.searchRange = { temporal, steps: steps.length };
    // sets read at once on this thread: their inflates overlap on libuv's thread pool
    shared.inflateOffThread = services.config.timeseries.concurrency > 1;
    return runWithSharedWork(fn, shared);
  };
  const run = <T>(steps: string[], work: (step: string, signal: AbortSignal) => Promise<T>, signal: AbortSignal) =>
    inSeries(steps, () => runSteps(steps, (step, _i, s) => work(step, s), { concurrency: services.config.timeseries.concurrency, signal }));
  /** The request's parameters for one step: its `temporal`, everything else unchanged. */
  const forStep = <P extends object>(p: P, step: string): P => ({ ...p, temporal: step, datetime: undefined });
  // RASTILE_TIMESERIES_THREADS > 0: each granule set's work runs on a worker thread (one task per
  // set, so its blocks are fetched once) once the threads are warm (seriesPool: before, on this one).
  const pool = threadBackend !== undefined && searchStep !== undefined ? timeseriesPool(app, services) : undefined;
  /** A step's raw query as the worker parses it: the request's, with the step's `temporal`. */
  const stepQuery = (query: unknown, step: string): RawRequestParams['query'] => {
    const q: RawRequestParams['query'] = { ...(query as RawRequestParams['query']), temporal: step };
    delete q['datetime'];
    return q;
  };
  /**
   * The steps' reads. With a backend's `searchStep`, every step's search comes first (one shared
   * range search where provable: no data read yet), then each distinct granule set is read once
   * (consecutive steps inside one granule's time range are the same mosaic), at most
   * RASTILE_TIMESERIES_CONCURRENCY sets at once — sets, not steps, so that many granules' round
   * trips overlap (with steps, the 3 steps of one granule held 3 of the 4 slots waiting on one
   * read). A step finding nothing is a 204 step without a read. Otherwise each step's reader
   * searches as the single-step route does. With a pool, `remote` runs a set's read on a worker
   * thread over the granules found.
   */
  const readSteps = <T>(
    steps: string[],
    p: ParsedParams<D>,
    area: Bounds,
    read: (reader: ImageReader, signal: AbortSignal) => Promise<T>,
    remote: ((step: string, granules: readonly Granule[], searchBounds: Bounds, signal: AbortSignal, alone: boolean) => Promise<T>) | undefined,
    signal: AbortSignal,
  ): Promise<Array<T | null>> => {
    if (searchStep === undefined) return run(steps, async (step, s) => read(await backend.open(forStep(p, step), s), s), signal);
    const concurrency = services.config.timeseries.concurrency;
    return inSeries(steps, async () => {
      const found = await runSteps(
        steps,
        async (step, _i, s) => {
          const f = await searchStep(forStep(p, step), area, s);
          if (f.count === 0) throw Errors.noData('No granule found for this step');
          return f;
        },
        { concurrency, signal },
      );
      const sets = new Map<string, { step: string; found: StepSearch }>();
      found.forEach((f, i) => {
        if (f !== null && !sets.has(f.key)) sets.set(f.key, { step: steps[i]!, found: f });
      });
      const keys = [...sets.keys()];
      const alone = setsAlone([...sets.values()].map((v) => v.found.granules));
      const reads = await runSteps(
        keys,
        async (key, i, s) => {
          const { step, found: f } = sets.get(key)!;
          const { granules, searchBounds } = f;
          if (remote !== undefined && granules !== undefined && searchBounds !== undefined) return remote(step, granules, await searchBounds(s), s, alone[i]!);
          const readSet = async (): Promise<T> => read(await f.open(s), s);
          // no other set of the series reads these granules: the blocks this read decoded are
          // not read again by it, so their buffers go back to the pool for the next sets' blocks
          // (a fresh 128 KiB block buffer costs ~0.25 ms of page faults: BENCHMARKS.md)
          return alone[i] === true ? services.blockCache.readDropping(readSet) : readSet();
        },
        { concurrency, signal },
      );
      const byKey = new Map(keys.map((k, i) => [k, reads[i] ?? null]));
      return found.map((f) => (f === null ? null : (byKey.get(f.key) ?? null)));
    });
  };

  registerRoute(app, registry, {
    method: 'POST',
    path: `${prefix}/timeseries/statistics`,
    operationId: `${op}_timeseries_statistics`,
    summary: 'Statistics inside a GeoJSON Feature for every step of a time series, keyed by the step.',
    description:
      'Each step is the POST /statistics of that step; steps without data are left out. A FeatureCollection is refused (400): send one request per feature. Steps run in this process (RASTILE_TIMESERIES_CONCURRENCY at once), each distinct granule set read on a worker thread when RASTILE_TIMESERIES_THREADS > 0.',
    tags,
    params: statisticsDefs(backend.params, maxSide),
    body: { required: true, description: 'One GeoJSON Feature.', schema: { $ref: '#/components/schemas/Feature' } },
    responses: { 200: { description: 'The Feature, with `properties.statistics` = {step: statistics per band}.', content: { 'application/geo+json': {} } } },
    handler: async ({ params, body, request, reply, signal }) => {
      const p = params as ParsedParams<D> & typeof params & TimeseriesRequest;
      if (typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'FeatureCollection') {
        throw Errors.badRequest('Expected a GeoJSON Feature: the time-series statistics take one Feature per request (a FeatureCollection is not accepted)');
      }
      const feature = parseFeature(body);
      const post = postProcessFor(p);
      const coordCrs = p.coord_crs ?? WGS84;
      const dstCrs = p.dst_crs ?? coordCrs;
      const steps = await requestSteps(p, services, undefined, signal);
      await sizeGuard(services, p, 'statistics', geometryBounds(feature.geometry), coordCrs, steps.length, signal);
      const area = datasetGeographicBounds(coordCrs, geometryBounds(feature.geometry), WGS84);
      const coverage = new CoverageMemo();
      const series = newSeriesId();
      const threads = seriesPool(pool, services, reply.raw);
      const results = await readSteps(
        steps,
        p,
        area,
        (reader, s) => statisticsStep(reader, p, post, feature, { coord: coordCrs, dst: dstCrs }, s, coverage),
        threads &&
          ((step, granules, searchBounds, s, alone) =>
            runTask(
              threads,
              {
                kind: 'statistics',
                backend: threadBackend!,
                series,
                raw: { query: stepQuery(request.query, step), path: {} },
                granules,
                searchBounds,
                dropBlocks: alone,
                feature,
              },
              s,
            )),
        signal,
      );
      const statistics: Record<string, unknown> = {};
      steps.forEach((step, i) => {
        if (results[i] !== null) statistics[step] = results[i];
      });
      feature.properties = { ...(feature.properties ?? {}), statistics };
      return { kind: 'json', contentType: 'application/geo+json', data: feature };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/timeseries/{tileMatrixSetId}/tilejson.json`,
    operationId: `${op}_timeseries_tilejson`,
    summary: 'One TileJSON per step of a time series, keyed by the step, in step order.',
    description: "Each tile URL carries its step's `temporal`; other parameters (a `sel` `{datetime}` template included) are passed on unchanged.",
    tags,
    params: {
      ...tmsPathParam,
      ...tilesizeParam,
      ...tileJsonParams,
      ...backend.params,
      ...datasetParams,
      ...algorithmParams,
      ...colormapParams,
      ...renderParams,
      ...timeseriesParams,
      tile_scale: P.int().ge(1).le(3).default(1).describe('Accepted for titiler-cmr compatibility; has no effect (use `tilesize`).'),
    },
    responses: { 200: { description: '{step: TileJSON}.', content: { 'application/json': {} } } },
    handler: async ({ params, request, baseUrl, signal }) => {
      const p = params as ParsedParams<D> & typeof params & TimeseriesRequest;
      postProcessFor(p);
      const tms = getTileMatrixSet(p.tileMatrixSetId);
      const steps = await requestSteps(p, services, undefined, signal);
      const base = queryPairs(request.url, [...TILEJSON_DROP, ...TIMESERIES_KEYS, 'tile_scale']);
      const docs = await run(
        steps,
        async (step, s) => {
          const reader = await backend.open(forStep(p, step), s);
          return tileJsonDocument(backend, forStep(p, step), reader, tms, [...base, ['temporal', step]], baseUrl);
        },
        signal,
      );
      const data: Record<string, unknown> = {};
      steps.forEach((step, i) => {
        if (docs[i] !== null) data[step] = docs[i];
      });
      return { kind: 'json', data };
    },
  });

  for (const sized of [true, false]) {
    registerRoute(app, registry, {
      method: 'GET',
      path: `${prefix}/timeseries/bbox/{minx},{miny},{maxx},{maxy}${sized ? '/{width}x{height}' : ''}.{format}`,
      operationId: `${op}_timeseries_bbox${sized ? '_sized' : ''}`,
      summary: 'Animated GIF of a bbox, one frame per step with data, in step order.',
      description:
        'Each frame is the bbox image of its step (as GET /bbox/…), rendered to 8 bits with the colormap as palette (one for every frame) or its own 256-colour palette; steps without data are dropped; no frame at all → 204. Loops forever. Frames are read and rendered on worker threads when RASTILE_TIMESERIES_THREADS > 0.',
      tags,
      params: gifDefs(backend.params, maxSide, sized),
      responses: { 200: { description: 'Animated GIF.', content: { 'image/gif': {} } }, 204: { description: 'No step has data.' } },
      handler: async ({ params, request, reply, signal }) => {
        const p = params as ParsedParams<D> & typeof params & TimeseriesRequest & { width?: number; height?: number; max_size?: number };
        const post = postProcessFor(p);
        const bounds: Bounds = [p.minx, p.miny, p.maxx, p.maxy];
        const steps = await requestSteps(p, services, bounds, signal);
        await sizeGuard(services, p, 'bbox', bounds, p.coord_crs ?? WGS84, steps.length, signal);
        const area = datasetGeographicBounds(p.coord_crs ?? WGS84, bounds, WGS84);
        // one colormap table for the series: its frames then share one palette (encode-gif.ts)
        const colormap = colormapOf(p);
        const series = newSeriesId();
        const threads = seriesPool(pool, services, reply.raw);
        const path: RawRequestParams['path'] = { minx: String(p.minx), miny: String(p.miny), maxx: String(p.maxx), maxy: String(p.maxy), format: p.format };
        if (sized) Object.assign(path, { width: String(p.width), height: String(p.height) });
        // frames of a known size (no per-step label) are LZW-encoded as soon as rendered (gif-file.ts)
        const early = sized && !p.label;
        const done = (f: SeriesFrame): SeriesFrame => (early && !('data' in f) ? encodeSeriesFrame(f, p.width!, p.height!) : f);
        // RASTILE_TIMESERIES_THREADS = 0: such frames are LZW-encoded on one small thread (timeseries-gif-encoder.ts)
        if (early && !(services.config.timeseries.threads > 0)) startGifEncoder(services.config.timeseries.threadsIdleMs ?? 0);
        const frames = await readSteps<SeriesFrame>(
          steps,
          p,
          area,
          async (reader, s) => {
            const f = await frameStep(reader, p, post, bounds, colormap, s);
            // on this thread: the encoder thread encodes while the next frames are read and rendered
            return early ? encodeSeriesFrameOffThread(f, p.width!, p.height!, s) : f;
          },
          threads &&
            (async (step, granules, searchBounds, s, alone) =>
              done(
                frameFromThread(
                  await runTask<ThreadFrame>(
                    threads,
                    {
                      kind: 'frame',
                      backend: threadBackend!,
                      series,
                      raw: { query: stepQuery(request.query, step), path },
                      granules,
                      searchBounds,
                      dropBlocks: alone,
                      sized,
                      bounds,
                      ...(early && { encodeAt: [p.width!, p.height!] as [number, number] }),
                    },
                    s,
                  ),
                  colormap,
                ),
              )),
          signal,
        );
        const kept: SeriesFrame[] = [];
        frames.forEach((f, i) => {
          if (f !== null) kept.push(p.label && !('data' in f) ? labelFrame(f, stepLabel(steps[i]!)) : f);
        });
        if (kept.length === 0) return { kind: 'body', status: 204, body: '', contentType: 'image/gif' };
        const body = seriesGif(kept, Math.floor(1000 / p.fps));
        return { kind: 'body', body, contentType: 'image/gif' };
      },
    });
  }
}
