/**
 * The per-granule-set work of a time series, shared by the calling thread (RASTILE_TIMESERIES_THREADS=0)
 * and the worker threads (timeseries-worker.ts), so that both give the same answers: the routes'
 * parameter definitions (a worker parses the request's raw parameters with the same ones), the
 * statistics of one step's mosaic inside the feature, and one GIF frame of a step's mosaic.
 */
import type { Bounds } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs.ts';
import type { Feature } from '../geojson-body.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { releaseImage } from '../../raster/image-data.ts';
import type { ColorMap } from '../../raster/colormap/types.ts';
import { renderGifFrame, type IndexedFrame } from '../../raster/render/encode-gif.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { bboxPathParams } from '../params/coordinates.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams } from '../params/dataset.ts';
import { partSizeParams } from '../params/image-size.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { coverScaleParam, histogramParams, statisticsParams } from '../params/statistics.ts';
import { P, type ParamDefs, type ParsedParams } from '../validation/params.ts';
import { readBbox } from './bbox-read.ts';
import { featureStatistics, type CoverageMemo } from './feature-statistics.ts';
import { timeseriesParams } from './timeseries-plan.ts';

/** POST …/timeseries/statistics. */
export const statisticsDefs = <D extends ParamDefs>(backendParams: D, maxSide: number) => ({
  ...backendParams,
  ...datasetParams,
  ...algorithmParams,
  ...statisticsParams,
  ...histogramParams,
  ...coordCrsParam,
  ...dstCrsParam,
  ...partSizeParams(maxSide),
  ...coverScaleParam,
  ...timeseriesParams,
});

const gifCommon = <D extends ParamDefs>(backendParams: D) => ({
  ...bboxPathParams,
  format: P.enumeration(['gif'] as const)
    .path()
    .describe('Output type: `gif`.'),
  ...backendParams,
  ...datasetParams,
  ...algorithmParams,
  ...colormapParams,
  ...renderParams,
  ...coordCrsParam,
  ...dstCrsParam,
  ...timeseriesParams,
  fps: P.int().gt(1).default(10).describe('Frames per second (each frame shows 1000 // fps ms).'),
  label: P.bool().default(false).describe("Draw each frame's step (its start date, with the time when not midnight) in the top-left corner."),
});

/** GET …/timeseries/bbox/….gif: `sized` with `/{width}x{height}` in the path, else `max_size`/`width`/`height` in the query. */
export const gifDefs = <D extends ParamDefs>(backendParams: D, maxSide: number, sized: boolean) =>
  sized
    ? {
        ...gifCommon(backendParams),
        width: P.int().gt(0).le(maxSide).path().describe('Frame width.'),
        height: P.int().gt(0).le(maxSide).path().describe('Frame height.'),
      }
    : { ...gifCommon(backendParams), ...partSizeParams(maxSide) };

export type StatisticsStepParams = ParsedParams<ReturnType<typeof statisticsDefs<ParamDefs>>>;
export type GifStepParams = ParsedParams<ReturnType<typeof gifCommon<ParamDefs>>>;

/** The statistics of one step's mosaic inside `feature` (POST /statistics' `properties.statistics`). */
export async function statisticsStep(
  reader: ImageReader,
  p: StatisticsStepParams,
  post: (img: ImageData) => Promise<ImageData>,
  feature: Feature,
  crs: { coord: Crs; dst: Crs },
  signal: AbortSignal,
  coverage: CoverageMemo,
): Promise<unknown> {
  return (await featureStatistics(reader, p, post, feature, crs.coord, crs.dst, signal, coverage)).statistics;
}

/** One GIF frame: the bbox image of a step's mosaic (as GET /bbox/…), rendered to palette indices. */
export async function frameStep(
  reader: ImageReader,
  p: GifStepParams,
  post: (img: ImageData) => Promise<ImageData>,
  bounds: Bounds,
  colormap: ColorMap | undefined,
  signal: AbortSignal,
): Promise<IndexedFrame> {
  const img = await readBbox(reader, p, bounds, signal);
  const shown = await post(img);
  try {
    return renderGifFrame(shown, { rescale: p.rescale, colorFormula: p.color_formula, colormap, returnMask: p.return_mask });
  } finally {
    releaseImage(img);
    if (shown !== img) releaseImage(shown);
  }
}
