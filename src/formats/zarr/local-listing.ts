/**
 * Directory listings for unconsolidated local Zarr stores (the only stores that can be listed
 * here: HTTP has no listing, and S3 listing needs a permission public buckets rarely grant).
 * Checked against the local roots like every local read.
 */
import { readdir } from 'node:fs/promises';
import { fileError } from '../../sources/file-error.ts';
import { LocalRoots } from '../../sources/local-roots.ts';
import { parseLocation } from '../../sources/location.ts';
import type { ListChildren } from './zarr-hierarchy.ts';

/** A ListChildren for local paths and file:// URLs under `localRoots`; null for other locations. */
export function localZarrLister(localRoots: readonly string[]): ListChildren {
  const roots = new LocalRoots(localRoots);
  return async (location) => {
    const loc = parseLocation(location);
    if (loc.kind !== 'file') return null;
    const dir = await roots.resolve(loc.path, location);
    try {
      return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch (err) {
      throw fileError(err, location);
    }
  };
}
