/**
 * Same-CRS read (rio-tiler `read` without a WarpedVRT): a fractional window of the dataset
 * resampled onto width×height, boundless (outside pixels masked and filled with nodata).
 */
import type { Window } from '../../geo/bounds.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { boundsOfWindow } from '../part-plan.ts';
import type { ReadOptions } from '../read-options.ts';
import { assembleImage } from './assemble-image.ts';
import { planMasks, resolveMasks } from './band-masks.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { bandIndexes } from './band-indexes.ts';
import { rasterIO } from './raster-io.ts';

export async function readWindowImage(
  ds: GridDataset,
  window: Window,
  width: number,
  height: number,
  options: ReadOptions,
  signal?: AbortSignal,
): Promise<ImageData> {
  const indexes = bandIndexes(ds, options.indexes);
  const plan = planMasks(ds, options.nodata);
  const readBands = plan.alphaBand !== null ? [...indexes, plan.alphaBand] : indexes;
  const res = await rasterIO(ds, window, width, height, readBands, {
    resampling: options.resampling ?? 'nearest',
    withMask: plan.useDatasetMask,
    fill: plan.nodata ?? 0,
    signal,
  });
  const bands = plan.alphaBand !== null ? res.bands.slice(0, -1) : res.bands;
  const alpha = plan.alphaBand !== null ? res.bands[res.bands.length - 1] : null;
  const masks = resolveMasks(plan, bands, alpha, res.mask, res.inside, width * height);
  const bounds = boundsOfWindow(window, ds.geoTransform);
  return assembleImage(ds, indexes, bands, masks, { bounds, crs: ds.crs, width, height }, plan.nodata, options.unscale ?? false);
}
