/**
 * Reads every item independently (no pixel selection), in chunks of `concurrency`, keeping item
 * order: what a mosaic's point query does (titiler-cmr §4.4: one entry per granule that contains
 * the point). Items without data there (PointOutsideBounds, TileOutsideBounds) are left out.
 * No item at all → NoData (204); items but none with data → NoData too.
 */
import { Errors, type RastileErrorKind } from '../errors.ts';
import { batches, isSkippedError, NO_DATA_SKIP_KINDS, noItemsError } from './batched.ts';

export interface ReadEachOptions {
  concurrency: number;
  signal?: AbortSignal;
  skipKinds?: readonly RastileErrorKind[];
  what?: string;
}

export async function readEach<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  read: (item: T, signal: AbortSignal) => Promise<R>,
  options: ReadEachOptions,
): Promise<Array<{ item: T; value: R }>> {
  const skip = options.skipKinds ?? NO_DATA_SKIP_KINDS;
  const out: Array<{ item: T; value: R }> = [];
  let seen = 0;
  for await (const batch of batches(items, options.concurrency, options.signal)) {
    const chunk = batch.items;
    seen += chunk.length;
    const settled = await Promise.allSettled(chunk.map((item) => read(item, batch.signal)));
    for (let k = 0; k < chunk.length; k++) {
      const s = settled[k];
      if (s.status === 'fulfilled') out.push({ item: chunk[k], value: s.value });
      else if (!isSkippedError(s.reason, skip)) throw s.reason;
    }
  }
  if (seen === 0) throw noItemsError(options.what);
  if (out.length === 0) throw Errors.noData(`No asset has data at ${options.what ?? 'the request location'}`);
  return out;
}
