/**
 * Resizes an image with nearest-neighbour sampling (rio-tiler's `resize_array`, used when assets
 * of different resolutions are concatenated): output pixel i reads source pixel
 * floor((i + 0.5) · source/target), GDAL RasterIO's nearest rule. Masks are resized the same way;
 * a mask shared by several bands stays shared. The source alpha is dropped.
 */
import { allocate, dtypeOf, type TypedArray } from '../dtype.ts';
import { remapImage, type ImageData } from './image-data.ts';
import { nearestIndexes } from './sample-index.ts';

export function resizeNearest(img: ImageData, width: number, height: number): ImageData {
  if (img.width === width && img.height === height) return img;
  const cols = nearestIndexes(0, img.width, width, img.width);
  const rows = nearestIndexes(0, img.height, height, img.height);
  const resample = <T extends TypedArray>(src: T, out: T): T => {
    const w = img.width;
    let o = 0;
    for (let r = 0; r < height; r++) {
      const base = rows[r] * w;
      for (let c = 0; c < width; c++) out[o++] = src[base + cols[c]];
    }
    return out;
  };
  return { ...remapImage(img, width, height, (b) => resample(b, allocate(dtypeOf(b), width * height) as typeof b)), alpha: undefined };
}
