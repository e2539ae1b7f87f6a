/**
 * Opened datasets cached per location (headers are read once); concurrent requests share one
 * open, each waiting under its own AbortSignal. Format-neutral: the opener decides what a
 * location is (today a GeoTIFF, formats/tiff/tiff-grid.ts).
 */
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { SharedWork } from '../../sources/abort.ts';
import { LruCache } from '../../util/lru-cache.ts';

export type GridOpener = (location: string, signal?: AbortSignal) => Promise<GridDataset>;

/**
 * Cache of opened datasets keyed by location; failures are not cached. Concurrent opens of one
 * location share one attempt that no single caller's AbortSignal can cancel: a caller that
 * aborts stops waiting at once, and the open itself is abandoned only when every caller has.
 */
export class DatasetCache {
  private readonly datasets: LruCache<string, GridDataset>;
  private readonly opening = new Map<string, SharedWork<GridDataset>>();

  constructor(
    private readonly openDataset: GridOpener,
    maxDatasets: number,
  ) {
    this.datasets = new LruCache<string, GridDataset>(maxDatasets, () => 1);
  }

  open(location: string, signal?: AbortSignal): Promise<GridDataset> {
    const hit = this.datasets.get(location);
    if (hit !== undefined) return Promise.resolve(hit);
    let work = this.opening.get(location);
    if (work === undefined || !work.alive) {
      const created = new SharedWork((s) => this.openDataset(location, s));
      work = created;
      this.opening.set(location, created);
      created.promise
        .then(
          (ds) => this.datasets.set(location, ds),
          () => {},
        )
        .finally(() => {
          if (this.opening.get(location) === created) this.opening.delete(location);
        });
    }
    return work.join(signal, 'the dataset');
  }
}
