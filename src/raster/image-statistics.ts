/** Per-band statistics of an ImageData, keyed by band name (rio-tiler ImageData.statistics). */
import type { ImageData } from './image-data.ts';
import { chargeRequest, releaseRequest } from '../util/request-budget.ts';
import { bandStatistics, type BandStatistics, type StatisticsOptions } from './statistics.ts';

export type BandStatisticsWithDescription = BandStatistics & { description: string };

const STATS_BYTES_PER_PIXEL = 40;

export function imageStatistics(img: ImageData, options: StatisticsOptions): Record<string, BandStatisticsWithDescription> {
  const out: Record<string, BandStatisticsWithDescription> = {};
  img.bands.forEach((band, i) => {
    chargeRequest(band.length * STATS_BYTES_PER_PIXEL, `Statistics of a ${img.width}×${img.height} band`); // distinct values, counts, weights, sort keys
    const stats = bandStatistics(band, img.masks[i], options);
    releaseRequest(band.length * STATS_BYTES_PER_PIXEL);
    out[img.bandNames[i]] = { ...stats, description: img.bandDescriptions[i] };
  });
  return out;
}
