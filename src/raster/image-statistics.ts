/** Per-band statistics of an ImageData, keyed by band name (rio-tiler ImageData.statistics). */
import type { ImageData } from './image-data.ts';
import { bandStatistics, type BandStatistics, type StatisticsOptions } from './statistics.ts';

export type BandStatisticsWithDescription = BandStatistics & { description: string };

export function imageStatistics(img: ImageData, options: StatisticsOptions): Record<string, BandStatisticsWithDescription> {
  const out: Record<string, BandStatisticsWithDescription> = {};
  img.bands.forEach((band, i) => {
    const stats = bandStatistics(band, img.masks[i], options);
    out[img.bandNames[i]] = { ...stats, description: img.bandDescriptions[i] };
  });
  return out;
}
