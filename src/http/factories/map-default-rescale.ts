/**
 * The map page's default `rescale` for data wider than 8 bits (issue 13/14: the first picture a
 * user sees is not black). Like TiTiler's viewer, the 2nd–98th percentiles of the first band, taken
 * from the same statistics `GET {prefix}/statistics` answers with its defaults (a preview of the
 * whole dataset at max_size 1024, the algorithm applied), so the numbers on the page are the ones
 * the user finds there.
 *
 * Computed server-side while rendering the page rather than by a fetch from the page: the handler
 * has the reader open already, the page is answered (and cached by the response cache) with the
 * rescale in its TileJSON URL, so the first tiles need no extra round trip and no script.
 */
import type { ImageData } from '../../raster/image-data.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import type { BandStatistics } from '../../raster/statistics.ts';
import { shortNumber } from '../../util/short-number.ts';

/** Longest side of the preview the statistics are computed on (the /statistics default max_size). */
const STATISTICS_MAX_SIZE = 1024;

export interface DefaultRescale {
  min: number;
  max: number;
  /** Band the percentiles come from (the first). */
  band: string;
  /** Data type of the data the statistics describe (after expression and algorithm). */
  dtype: string;
}

/**
 * The default rescale, or null when none is needed (8-bit data, an embedded palette) or none can
 * be computed (no valid pixel, a constant band).
 */
export async function defaultRescale(
  reader: ImageReader,
  options: Omit<ReadOptions, 'indexes'>,
  post: (img: ImageData) => Promise<ImageData>,
  signal: AbortSignal,
): Promise<DefaultRescale | null> {
  // (not released to the buffer pool: like GET /statistics, the preview is left to the GC)
  const img = await post(await reader.preview({ ...options, maxSize: STATISTICS_MAX_SIZE }, signal));
  if (img.dtype === 'uint8' || img.colormap || img.bands.length === 0) return null;
  const first: ImageData = {
    ...img,
    bands: [img.bands[0]!],
    masks: [img.masks[0]!],
    bandNames: [img.bandNames[0]!],
    bandDescriptions: [img.bandDescriptions[0]!],
  };
  return fromPercentiles(Object.entries(imageStatistics(first, { percentiles: [2, 98] }))[0]!, img.dtype);
}

function fromPercentiles([band, stats]: [string, BandStatistics], dtype: string): DefaultRescale | null {
  const lo = Number(shortNumber(stats['percentile_2']));
  const hi = Number(shortNumber(stats['percentile_98']));
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) return null;
  return { min: lo, max: hi, band, dtype };
}
