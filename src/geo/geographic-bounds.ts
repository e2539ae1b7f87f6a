/**
 * A dataset's bounds in a geographic CRS the way rio-tiler's `get_geographic_bounds` computes
 * them (tilejson/tileset bounds, /info.geojson): native bounds when the CRSs are the same (y
 * ordered), else `transform_bounds` with 21 densification points; the whole world
 * (-180, -90, 180, 90) when that fails or gives non-finite numbers.
 */
import type { Bounds } from './bounds.ts';
import type { Crs } from './crs-type.ts';
import { sameCrs } from './crs-registry.ts';
import { transformBounds } from './transform-bounds.ts';

export const WORLD_BOUNDS: Readonly<Bounds> = Object.freeze([-180, -90, 180, 90]) as Readonly<Bounds>;

export function datasetGeographicBounds(datasetCrs: Crs, bounds: Bounds, geographicCrs: Crs): Bounds {
  if (sameCrs(datasetCrs, geographicCrs)) {
    return [bounds[0], Math.min(bounds[1], bounds[3]), bounds[2], Math.max(bounds[1], bounds[3])];
  }
  let out: Bounds;
  try {
    out = transformBounds(datasetCrs, geographicCrs, bounds, 21);
  } catch {
    return [...WORLD_BOUNDS] as Bounds;
  }
  return out.every(Number.isFinite) ? out : ([...WORLD_BOUNDS] as Bounds);
}
