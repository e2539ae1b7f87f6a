/**
 * The image of a bbox on one reader: the read of GET /bbox/…, also called per step by the
 * time-series GIF (so a frame is exactly the single-step bbox image before encoding).
 */
import type { Bounds } from '../../geo/bounds.ts';
import { WGS84, type Crs } from '../../geo/crs.ts';
import type { ImageData } from '../../raster/image-data.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import { readOptions } from '../params/dataset.ts';
import { partSize } from '../params/image-size.ts';

export type BboxReadParams = Parameters<typeof readOptions>[0] & Parameters<typeof partSize>[0] & { coord_crs?: Crs; dst_crs?: Crs };

export function readBbox(reader: ImageReader, p: BboxReadParams, bounds: Bounds, signal: AbortSignal): Promise<ImageData> {
  const coordCrs = p.coord_crs ?? WGS84;
  return reader.part({ ...readOptions(p), bounds, boundsCrs: coordCrs, dstCrs: p.dst_crs ?? coordCrs, ...partSize(p) }, signal);
}
