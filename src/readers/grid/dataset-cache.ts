/**
 * Opened datasets cached per location (headers are read once); concurrent requests share one
 * open, each waiting under its own AbortSignal. Format-neutral: the opener decides what a
 * location is (today a GeoTIFF, formats/tiff/tiff-grid.ts).
 */
import type { DatasetVersions, GridDataset } from '../../formats/grid-dataset.ts';
import { SharedWork } from '../../sources/abort.ts';
import { LruCache } from '../../util/lru-cache.ts';
import { markUnversionedRead, recordRead } from '../../util/read-set.ts';

/** The read-set kind of datasets opened through a DatasetCache (validated by `currentVersion`). */
export const GRID_READ_KIND = 'grid';

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
    /** The read-set kind recorded for its datasets: one per cache, so the validator is this cache's `currentVersion`. */
    readonly readKind: string = GRID_READ_KIND,
  ) {
    this.datasets = new LruCache<string, GridDataset>(maxDatasets, () => 1);
  }

  /**
   * Opens `location` and records it (with the version of the bytes it reads) in the current
   * request's read set, the response cache's key (src/util/read-set.ts).
   */
  async open(location: string, signal?: AbortSignal): Promise<GridDataset> {
    const ds = await this.openCurrent(location, signal);
    if (this.versions === undefined) markUnversionedRead(`${location} is not versioned`);
    else recordRead(this.readKind, location, ds.version);
    return ds;
  }

  /** The version `location` holds now (a stat per local file; remote: RASTILE_REVALIDATE_MS), or undefined when unversioned. */
  async currentVersion(location: string, signal?: AbortSignal): Promise<string | undefined> {
    return this.versions?.peek?.(location) ?? this.versions?.current(location, signal);
  }

  /** The version `location` holds now when a synchronous check can tell (a local file's stats), else undefined. */
  peekVersion(location: string): string | undefined {
    return this.versions?.peek?.(location);
  }

  private async openCurrent(location: string, signal?: AbortSignal): Promise<GridDataset> {
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
