/**
 * Concatenates the images read from several assets into one (rio-tiler's
 * `ImageData.create_from_list` as the multi-asset reader uses it): images of different sizes are
 * resized to the largest width and height with nearest; bands take numpy's common dtype; bands
 * are renamed b1..bN in asset order and described `<asset>_<description>`, or `<asset>` with
 * `asset_as_band` (1-band assets only), or as read with `plainDescriptions`. Bounds and CRS are the first image's.
 */
import { Errors } from '../../errors.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { castArray } from '../../raster/cast-array.ts';
import { promoteDtypes } from '../../raster/dtype-promote.ts';
import { resizeNearest } from '../../raster/resize.ts';
import { bytesPerSample } from '../../dtype.ts';
import { chargeRequest } from '../../util/request-budget.ts';

export interface AssetImage {
  asset: string;
  img: ImageData;
}

export function concatAssetImages(parts: readonly AssetImage[], assetAsBand: boolean, plainDescriptions = false): ImageData {
  if (parts.length === 0) throw Errors.internal('No asset to read'); // StacReader rejects an empty selection first
  if (assetAsBand) {
    const multi = parts.find((p) => p.img.bands.length !== 1);
    if (multi) {
      throw Errors.badRequest(`Can't use \`asset_as_band\` for multibands asset: '${multi.asset}' gives ${multi.img.bands.length} bands`, {
        context: { asset: multi.asset },
      });
    }
  }
  const width = Math.max(...parts.map((p) => p.img.width));
  const height = Math.max(...parts.map((p) => p.img.height));
  const dtype = promoteDtypes(parts.map((p) => p.img.dtype));
  // at most: every band resized (with its mask) and cast to the common dtype
  const count = parts.reduce((sum, p) => sum + p.img.bands.length, 0);
  chargeRequest(
    count * width * height * (Math.max(...parts.map((p) => bytesPerSample(p.img.dtype))) + bytesPerSample(dtype) + 1),
    `${parts.length} assets (${count} band(s)) merged at ${width}×${height}`,
  );
  const images = parts.map((p) => resizeNearest(p.img, width, height));
  const first = images[0];
  const bands = images.flatMap((img) => img.bands.map((b) => castArray(b, dtype)));
  const descriptions = parts.flatMap((p, i) =>
    assetAsBand ? [p.asset] : plainDescriptions ? images[i].bandDescriptions : images[i].bandDescriptions.map((d) => `${p.asset}_${d}`),
  );
  const stats = images.every((img) => img.datasetStatistics && img.datasetStatistics.length === img.bands.length)
    ? images.flatMap((img) => img.datasetStatistics!)
    : undefined;
  return {
    width,
    height,
    dtype,
    bands,
    masks: images.flatMap((img) => img.masks),
    alpha: images.length === 1 ? first.alpha : undefined,
    bounds: first.bounds,
    crs: first.crs,
    bandNames: bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: descriptions,
    nodata: images.every((img) => Object.is(img.nodata, first.nodata)) ? first.nodata : null,
    scales: images.flatMap((img) => img.scales),
    offsets: images.flatMap((img) => img.offsets),
    datasetStatistics: stats,
    colormap: images.length === 1 ? first.colormap : undefined,
  };
}
