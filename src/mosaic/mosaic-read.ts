/**
 * Reads the items of a mosaic and combines their images (rio-tiler's `mosaic_reader`): items
 * are taken in order, in chunks of `concurrency` read in parallel, and fed to the pixel
 * selection in item order. Items that have no data for the area (TileOutsideBounds,
 * PointOutsideBounds) are skipped. Images of another size are resized (nearest) to the first
 * image's size. As soon as the method is done (`first` with every pixel filled, inside the
 * cutline for features), the reads still running are aborted and no further item is asked for:
 * with a lazy item source (a paged search), this also stops the search.
 *
 * No item at all → NoData "No assets found…"; items but no image → NoData "empty mosaic".
 * Both are 204 in the HTTP layer. Any other error of a read fails the mosaic at once.
 */
import { RastileError, type RastileErrorKind } from '../errors.ts';
import type { ImageData } from '../raster/image-data.ts';
import { resizeNearest } from '../raster/resize.ts';
import { batches, isSkippedError, NO_DATA_SKIP_KINDS, noItemsError } from './batched.ts';
import type { PixelSelection } from './pixel-selection-type.ts';

export interface MosaicReadOptions {
  method: PixelSelection;
  /** Items read in parallel per chunk (≥ 1). */
  concurrency: number;
  signal?: AbortSignal;
  /** Pixels that must be filled for `first` to stop early (non-zero = inside), from the first image. */
  cutline?: (first: ImageData) => Uint8Array;
  /** Error kinds meaning "this item has no data here" (default TileOutsideBounds, PointOutsideBounds). */
  skipKinds?: readonly RastileErrorKind[];
  /** What the area is, for the NoData message ("tile 5-8-12", "bbox", …). */
  what?: string;
}

export interface MosaicResult<T> {
  image: ImageData;
  /** Items whose image was fed, in order. */
  used: T[];
}

export async function mosaicRead<T>(
  items: Iterable<T> | AsyncIterable<T>,
  read: (item: T, signal: AbortSignal) => Promise<ImageData>,
  options: MosaicReadOptions,
): Promise<MosaicResult<T>> {
  const { method } = options;
  const skip = options.skipKinds ?? NO_DATA_SKIP_KINDS;
  const used: T[] = [];
  let seen = 0;
  let first: ImageData | null = null;
  let cutline: Uint8Array | undefined;

  for await (const batch of batches(items, options.concurrency, options.signal)) {
    const chunk = batch.items;
    seen += chunk.length;
    // Start every read of the batch now; consume them in item order.
    const pending = chunk.map((item) => {
      const p = read(item, batch.signal);
      p.catch(() => undefined); // handled below, in order; avoid unhandled rejections of aborted siblings
      return p;
    });
    for (let k = 0; k < chunk.length; k++) {
      let img: ImageData;
      try {
        img = await pending[k];
      } catch (err) {
        if (isSkippedError(err, skip)) continue;
        throw err;
      }
      if (first === null) {
        first = img;
        cutline = options.cutline?.(img);
      } else if (img.width !== first.width || img.height !== first.height) {
        img = resizeNearest(img, first.width, first.height);
      }
      method.feed(img);
      used.push(chunk[k]);
      if (method.isDone(cutline)) {
        const result = method.result();
        if (result) return { image: result, used };
      }
    }
  }
  const result = method.result();
  if (seen === 0) throw noItemsError(options.what);
  if (result === null) throw new RastileError('NoData', 'Method returned an empty array');
  return { image: result, used };
}
