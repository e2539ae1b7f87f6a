/**
 * Reads every item independently (no pixel selection), in chunks of `concurrency`, keeping item
 * order: what a mosaic's point query does (titiler-cmr §4.4: one entry per granule that contains
 * the point). Items without data there (PointOutsideBounds, TileOutsideBounds) are left out.
 * No item at all → NoData (204); items but none with data → NoData too.
 */
import { isRastileError, RastileError, type RastileErrorKind } from '../errors.ts';
import { chunks } from './mosaic-read.ts';

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
  const skip = options.skipKinds ?? ['PointOutsideBounds', 'TileOutsideBounds'];
  const out: Array<{ item: T; value: R }> = [];
  let seen = 0;
  for await (const chunk of chunks(items, Math.max(1, Math.floor(options.concurrency)))) {
    options.signal?.throwIfAborted();
    seen += chunk.length;
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const settled = await Promise.allSettled(chunk.map((item) => read(item, controller.signal)));
      for (let k = 0; k < chunk.length; k++) {
        const s = settled[k];
        if (s.status === 'fulfilled') out.push({ item: chunk[k], value: s.value });
        else if (!(isRastileError(s.reason) && skip.includes(s.reason.kind))) throw s.reason;
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
  if (seen === 0) throw new RastileError('NoData', `No assets found for ${options.what ?? 'the request'}`);
  if (out.length === 0) throw new RastileError('NoData', `No asset has data at ${options.what ?? 'the request location'}`);
  return out;
}
