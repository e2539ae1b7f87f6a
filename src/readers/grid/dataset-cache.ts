/**
 * Opened datasets cached per location (headers are read once); concurrent requests share one
 * open, each waiting under its own AbortSignal. Format-neutral: the opener decides what a
 * location is (today a GeoTIFF, formats/tiff/tiff-grid.ts).
 */
import type { DatasetVersions, GridDataset } from '../../formats/grid-dataset.ts';
import { SharedWork } from '../../sources/abort.ts';
import { LruCache } from '../../util/lru-cache.ts';

export type GridOpener = (location: string, signal?: AbortSignal) => Promise<GridDataset>;

/**
 * Cache of opened datasets keyed by location; failures are not cached. Concurrent opens of one
 * location share one attempt that no single caller's AbortSignal can cancel: a caller that
 * aborts stops waiting at once, and the open itself is abandoned only when every caller has.
 *
 * With `versions`, a dataset's identity is its bytes' version: every use asks for the current
 * version (for a local file one `stat`; a remote object's is known from its responses) and a
 * cached dataset of another version is dropped (with its decoded blocks) and opened again.
 * Opens are shared per location and version, so a request never joins an open of an older one.
 */
export class DatasetCache {
  private readonly datasets: LruCache<string, GridDataset>;
  private readonly opening = new Map<string, SharedWork<GridDataset>>();
  /** Datasets dropped for a newer version, until that one is open (its blocks are then let go). */
  private readonly replaced = new Map<string, GridDataset>();

  constructor(
    private readonly openDataset: GridOpener,
    maxDatasets: number,
    private readonly versions?: DatasetVersions,
  ) {
    this.datasets = new LruCache<string, GridDataset>(maxDatasets, () => 1);
  }

  async open(location: string, signal?: AbortSignal): Promise<GridDataset> {
    let key = location;
    if (this.versions !== undefined) {
      const version = await this.versions.current(location, signal);
      const hit = this.datasets.get(location);
      if (hit !== undefined) {
        if (hit.version === version) return hit;
        this.datasets.delete(location);
        this.replaced.set(location, hit);
      }
      key = `${location}\u0000${version}`;
    } else {
      const hit = this.datasets.get(location);
      if (hit !== undefined) return hit;
    }
    let work = this.opening.get(key);
    if (work === undefined || !work.alive) {
      const created = new SharedWork((s) => this.openDataset(location, s));
      work = created;
      this.opening.set(key, created);
      created.promise
        .then(
          (ds) => this.keep(location, ds),
          () => {},
        )
        .finally(() => {
          if (this.opening.get(key) === created) this.opening.delete(key);
        });
    }
    return work.join(signal, 'the dataset');
  }

  private keep(location: string, ds: GridDataset): void {
    const old = this.replaced.get(location) ?? this.datasets.get(location);
    this.replaced.delete(location);
    if (old !== undefined && old !== ds && old.version !== ds.version) this.versions?.forget(old, ds);
    this.datasets.set(location, ds);
  }
}
