/**
 * Statistics of one GeoJSON feature on one reader: the body of POST /statistics per feature, also
 * called per step by POST /{backend}/timeseries/statistics (so a step's statistics are exactly
 * the single-step endpoint's).
 */
import { Errors } from '../../errors.ts';
import type { Crs } from '../../geo/crs.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { coverageFractions, type PixelGeometry } from '../../raster/rasterize.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import type { Feature } from '../geojson-body.ts';
import { readOptions } from '../params/dataset.ts';
import { partSize } from '../params/image-size.ts';
import { statisticsOptions } from '../params/statistics.ts';
import { readFeature } from './feature-read.ts';

/** The parsed parameters the computation reads (POST /statistics's). */
export type FeatureStatisticsParams = Parameters<typeof readOptions>[0] &
  Parameters<typeof partSize>[0] &
  Parameters<typeof statisticsOptions>[0] & { cover_scale: number; algorithm?: string };

export interface FeatureStatistics {
  statistics: ReturnType<typeof imageStatistics>;
  /** Inputs the reader used (granules of a mosaic), when it reports them. */
  used?: string[];
}

/**
 * Coverage fractions shared by the steps of one time series: steps whose reads have the same grid
 * see the feature as the same pixel geometry, and rasterising it at cover_scale was the largest
 * cost of a statistics step (bench/timeseries.ts). Keyed by the exact pixel coordinates, size and
 * scale; at most `max` rasters kept (steps over granules in different grids do not pile up).
 * The arrays are only read (imageStatistics weights).
 */
export class CoverageMemo {
  private readonly kept = new Map<string, Float32Array>();
  constructor(private readonly max = 4) {}

  get(pixels: PixelGeometry, width: number, height: number, coverScale: number): Float32Array {
    const b64 = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
    const key = [
      `${width} ${height} ${coverScale}`,
      pixels.polygons.map((rings) => rings.map(b64).join(',')).join(';'),
      pixels.lines.map(b64).join(','),
      b64(pixels.points),
    ].join('|');
    let coverage = this.kept.get(key);
    if (coverage === undefined) {
      coverage = coverageFractions(pixels, width, height, coverScale);
      this.kept.set(key, coverage);
      if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    }
    return coverage;
  }
}

export async function featureStatistics(
  reader: ImageReader,
  p: FeatureStatisticsParams,
  post: (img: ImageData) => Promise<ImageData>,
  feature: Feature,
  coordCrs: Crs,
  dstCrs: Crs,
  signal: AbortSignal,
  coverageMemo?: CoverageMemo,
): Promise<FeatureStatistics> {
  const request = { ...readOptions(p), dstCrs, ...partSize(p), alignBoundsWithDataset: true };
  const { cut, pixels, used } = await readFeature(reader, request, feature.geometry, coordCrs, signal);
  const coverage = coverageMemo
    ? coverageMemo.get(pixels, cut.width, cut.height, p.cover_scale)
    : coverageFractions(pixels, cut.width, cut.height, p.cover_scale);
  const processed = await post(cut);
  if (processed.width !== cut.width || processed.height !== cut.height) {
    throw Errors.badRequest(`algorithm '${p.algorithm}' changes the image size; use it with GET /statistics or without coverage`);
  }
  return { statistics: imageStatistics(processed, { ...statisticsOptions(p), coverage }), ...(used ? { used } : {}) };
}
