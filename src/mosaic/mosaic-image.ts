/** Shared helpers of the pixel-selection methods: input checks and the result's metadata. */
import { Errors } from '../errors.ts';
import type { DType } from '../dtype.ts';
import type { ImageData } from '../raster/image-data.ts';

/** Fails clearly when an item does not have the mosaic's band count (numpy would not broadcast). */
export function assertSameBands(first: ImageData, img: ImageData): void {
  if (img.bands.length !== first.bands.length) {
    throw Errors.badRequest(`Mosaic items must have the same number of bands: got ${img.bands.length} after ${first.bands.length}`);
  }
  if (img.width !== first.width || img.height !== first.height) {
    throw Errors.badRequest(`Mosaic items must have the same size: got ${img.width}x${img.height} after ${first.width}x${first.height}`);
  }
}

/** Metadata of a mosaic result: the first image's, with the given bands, masks and dtype. */
export function mosaicImage(
  first: ImageData,
  dtype: DType,
  bands: ImageData['bands'],
  masks: Uint8Array[],
  keep: (i: number) => boolean = () => true,
): ImageData {
  const pick = <T>(list: readonly T[]): T[] => list.filter((_, i) => keep(i));
  const stats = first.datasetStatistics ? pick(first.datasetStatistics) : undefined;
  return {
    width: first.width,
    height: first.height,
    dtype,
    bands,
    masks,
    bounds: first.bounds,
    crs: first.crs,
    bandNames: pick(first.bandNames),
    bandDescriptions: pick(first.bandDescriptions),
    nodata: first.nodata,
    scales: pick(first.scales),
    offsets: pick(first.offsets),
    datasetStatistics: stats && stats.length === bands.length ? stats : undefined,
  };
}
