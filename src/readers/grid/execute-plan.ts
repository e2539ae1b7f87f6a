/** Runs a read plan (read-plan.ts) against a GridDataset: window or warp read, then the padding crop. */
import type { GridDataset } from '../../formats/grid-dataset.ts';
import type { Crs } from '../../geo/crs.ts';
import type { TypedArray } from '../../dtype.ts';
import { releaseImage, remapImage, type ImageData } from '../../raster/image-data.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import type { ReadOptions } from '../read-options.ts';
import type { ReadPlan } from './read-plan.ts';
import { readWarpedImage } from './read-warped.ts';
import { readWindowImage } from './read-window.ts';

/** `dstCrs` is the plan's output CRS as an object (the plan names it by id only). */
export async function executePlan(
  ds: GridDataset,
  plan: ReadPlan,
  dstCrs: Crs,
  options: ReadOptions,
  maxReadPixels: number,
  signal?: AbortSignal,
): Promise<ImageData> {
  const img =
    plan.kind === 'window'
      ? await readWindowImage(ds, plan.window, plan.readWidth, plan.readHeight, options, signal)
      : await readWarpedImage(ds, { crs: dstCrs, ...plan.grid }, plan.readWidth, plan.readHeight, options, maxReadPixels, signal);
  if (plan.padding === 0) return img;
  const cropped = cropImage(img, plan.padding, plan.width, plan.height);
  releaseImage(img); // copied out: the padded arrays are dead
  return { ...cropped, bounds: plan.bounds };
}

/** The image without `pad` pixels on each edge; shared masks stay shared. */
function cropImage(img: ImageData, pad: number, width: number, height: number): ImageData {
  const crop = <T extends TypedArray>(src: T): T => {
    const out = (src instanceof Uint8Array ? BUFFER_POOL.bytes(width * height) : BUFFER_POOL.array(img.dtype, width * height)) as T;
    for (let r = 0; r < height; r++) {
      const from = (r + pad) * img.width + pad;
      out.set(src.subarray(from, from + width), r * width);
    }
    return out;
  };
  return remapImage(img, width, height, crop);
}
