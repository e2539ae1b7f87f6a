/**
 * The batch loop of the mosaic reads (mosaicRead, readEach): items are taken in order in batches
 * of `concurrency`; every batch gets its own signal, linked to the caller's, which is aborted as
 * soon as the consumer moves on to the next batch or leaves the loop (reads of the batch still
 * running stop, and the link to the caller's signal is removed). Leaving the loop early also
 * returns the item iterator, so a paged search stops asking for pages.
 */
import { isRastileError, RastileError, type RastileErrorKind } from '../errors.ts';
import { LinkedAbortController } from '../sources/linked-controller.ts';

/** Error kinds meaning "this item has no data here": the item is skipped, not the mosaic failed. */
export const NO_DATA_SKIP_KINDS: readonly RastileErrorKind[] = ['TileOutsideBounds', 'PointOutsideBounds'];

/** The error of a mosaic read that found no item at all (NoData: 204 in the HTTP layer). */
export const noItemsError = (what: string | undefined): RastileError => new RastileError('NoData', `No assets found for ${what ?? 'the request'}`);

/** True when `err` is a RastileError of one of `kinds`. */
export const isSkippedError = (err: unknown, kinds: readonly RastileErrorKind[]): boolean => isRastileError(err) && kinds.includes(err.kind);

export interface Batch<T> {
  items: T[];
  /** Aborted when the caller's signal aborts, or once the consumer is done with this batch. */
  signal: AbortSignal;
}

/** Batches of at most `concurrency` (≥ 1) items, each with its own linked signal (see above). */
export async function* batches<T>(items: Iterable<T> | AsyncIterable<T>, concurrency: number, signal?: AbortSignal): AsyncGenerator<Batch<T>> {
  for await (const chunk of chunks(items, Math.max(1, Math.floor(concurrency)))) {
    signal?.throwIfAborted();
    const child = new LinkedAbortController(signal);
    try {
      yield { items: chunk, signal: child.signal };
    } finally {
      child.abort(new RastileError('Internal', 'batch finished'));
      child.dispose();
    }
  }
}

/**
 * Groups an (async) iterable into arrays of `size`. Breaking out of the consumer's loop returns
 * the source iterator, so a paged search stops asking for pages.
 */
export async function* chunks<T>(items: Iterable<T> | AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
