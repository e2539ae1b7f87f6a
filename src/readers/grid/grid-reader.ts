/**
 * The single-dataset reader: rio-tiler `Reader` semantics over any GridDataset (a GeoTIFF today,
 * an HDF5/NetCDF/Zarr variable next). Everything format-specific stays behind the GridDataset.
 */
import { Errors } from '../../errors.ts';
import { geoTransformFromBounds, invertGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import { boundsAreFinite, boundsIntersect, type Bounds } from '../../geo/bounds.ts';
import { sameCrs, type Crs } from '../../geo/crs.ts';
import { suggestedWarpOutput } from '../../geo/suggested-warp.ts';
import type { TileMatrixSet } from '../../geo/tms.ts';
import { datasetGeographicBounds, transformBounds, transformPoint } from '../../geo/transform.ts';
import { celestialBodyMismatch } from '../../geo/transformer.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { windowFromBounds } from '../part-plan.ts';
import type { ReadOptions } from '../read-options.ts';
import { tilePartRequest, type DatasetReader, type PartRequest, type PreviewRequest, type TileRequest } from '../reader.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { LruCache } from '../../util/lru-cache.ts';
import type { Info } from '../info.ts';
import { datasetInfo } from './info.ts';
import { executePlan } from './execute-plan.ts';
import { planPart, planPreview, type ReadPlan } from './read-plan.ts';
import { readWindowImage } from './read-window.ts';

export interface ReaderLimits {
  maxReadPixels: number;
}

/** How many CRSs' native grids a dataset keeps (a server sees a handful of TMS CRSs). */
const NATIVE_GRIDS_PER_DATASET = 8;

/**
 * The dataset grid expressed in other CRSs (keyed by CRS id), per dataset: readers are created
 * per request, the dataset object lives in the dataset cache. Values are frozen: shared.
 */
const NATIVE_GRIDS = new WeakMap<GridDataset, LruCache<string, Readonly<GeoTransform>>>();

/**
 * Native grids by what they are computed from (source CRS, target CRS, size, geotransform), across
 * datasets: the granules of a collection share a grid, so a newly opened one reuses the answer
 * (suggestedWarpOutput transforms up to ~10⁴ points: ~15–40 ms on the first tile of a new file).
 */
const NATIVE_GRIDS_BY_GRID = new LruCache<string, Readonly<GeoTransform>>(64, () => 1);

/** The native-grid cache of a dataset (exported for tests). */
export function nativeGrids(ds: GridDataset): LruCache<string, Readonly<GeoTransform>> {
  let cache = NATIVE_GRIDS.get(ds);
  if (cache === undefined) {
    cache = new LruCache(NATIVE_GRIDS_PER_DATASET, () => 1);
    NATIVE_GRIDS.set(ds, cache);
  }
  return cache;
}

export class GridReader implements DatasetReader {
  constructor(
    private readonly ds: GridDataset,
    private readonly limits: ReaderLimits,
    /** Sees every read plan before it runs (the server logs them at debug level). */
    private readonly onPlan?: (plan: ReadPlan) => void,
  ) {}

  get crs(): Crs {
    return this.ds.crs;
  }

  get bounds(): Bounds {
    return this.ds.bounds;
  }

  info(): Info {
    return datasetInfo(this.ds);
  }

  /** The dataset bounds in `crs` (rio-tiler `get_geographic_bounds`; the whole world when they cannot be computed). */
  boundsIn(crs: Crs): Bounds {
    return datasetGeographicBounds(this.ds.crs, this.ds.bounds, crs);
  }

  zoomRange(tms: TileMatrixSet): { minzoom: number; maxzoom: number } {
    return tms.zoomRange(this.ds.crs, this.ds.geoTransform, this.ds.width, this.ds.height);
  }

  tileExists(tms: TileMatrixSet, x: number, y: number, z: number): boolean {
    const tb = tms.tileBounds(x, y, z);
    let b = tb;
    if (!sameCrs(tms.crs, this.ds.crs)) {
      try {
        b = transformBounds(tms.crs, this.ds.crs, tb, 21);
      } catch {
        return true;
      }
      if (!boundsAreFinite(b)) return true;
    }
    return boundsIntersect(b, this.ds.bounds);
  }

  /**
   * The dataset's resolution expressed in `crs` (rasterio calculate_default_transform, rio-tiler's
   * 4326→3857 fix), cached on the dataset so every request's reader shares it.
   */
  private nativeGridIn(crs: Crs): GeoTransform {
    const grids = nativeGrids(this.ds);
    const hit = grids.get(crs.id);
    // Frozen, and only ever read: the mutable type is what vrtGrid's signature names.
    if (hit) return hit as GeoTransform;
    let bounds = this.ds.bounds;
    let width = this.ds.width;
    let height = this.ds.height;
    // rio-tiler hands calculate_default_transform the bounds, not the geotransform: a rotated
    // raster is sized as if its width × height pixels filled the envelope of its corners.
    const gt0 = this.ds.geoTransform;
    let gt = gt0[2] === 0 && gt0[4] === 0 ? gt0 : geoTransformFromBounds(bounds, width, height);
    if (this.ds.crs.epsg === 4326 && crs.epsg === 3857 && (bounds[1] < -85.06 || bounds[3] > 85.06)) {
      bounds = [bounds[0], Math.max(bounds[1], -85.06), bounds[2], Math.min(bounds[3], 85.06)];
      const w = windowFromBounds(bounds, this.ds.geoTransform);
      width = Math.round(w.width);
      height = Math.round(w.height);
      gt = geoTransformFromBounds(bounds, width, height);
    }
    const key = `${this.ds.crs.id}\u0000${this.ds.crs.proj4}\u0000${crs.id}\u0000${crs.proj4}\u0000${width}\u0000${height}\u0000${gt.join(',')}`;
    let out = NATIVE_GRIDS_BY_GRID.get(key);
    if (out === undefined) {
      out = Object.freeze(suggestedWarpOutput(this.ds.crs, crs, width, height, gt).geoTransform);
      NATIVE_GRIDS_BY_GRID.set(key, out);
    }
    grids.set(crs.id, out);
    return out as GeoTransform;
  }

  /** The read plan of a part (pure: no I/O); `part` executes it. */
  planPart(req: PartRequest): ReadPlan {
    const r = this.ds.exactBoundsParts === true && req.alignBoundsWithDataset ? { ...req, alignBoundsWithDataset: false } : req;
    return planPart(this.ds, r, (crs) => this.nativeGridIn(crs));
  }

  planPreview(req: PreviewRequest): ReadPlan {
    return planPreview(this.ds, req);
  }

  part(req: PartRequest, signal?: AbortSignal): Promise<ImageData> {
    return this.execute(this.planPart(req), req.dstCrs ?? this.ds.crs, req, signal);
  }

  preview(req: PreviewRequest, signal?: AbortSignal): Promise<ImageData> {
    return this.execute(this.planPreview(req), req.dstCrs ?? this.ds.crs, req, signal);
  }

  async tile(tms: TileMatrixSet, x: number, y: number, z: number, req: TileRequest, signal?: AbortSignal): Promise<ImageData> {
    if (!this.tileExists(tms, x, y, z)) throw Errors.tileOutsideBounds(x, y, z);
    return this.part(tilePartRequest(tms, x, y, z, req), signal);
  }

  async point(x: number, y: number, coordCrs: Crs, options: ReadOptions, signal?: AbortSignal): Promise<ImageData> {
    const same = sameCrs(coordCrs, this.ds.crs);
    // rio-tiler's read_point asks PROJ, which refuses bodies apart (a 500 in TiTiler): say why instead
    const apart = same ? null : celestialBodyMismatch(coordCrs, this.ds.crs);
    if (apart !== null) throw Errors.invalidCrs(`Cannot place the point: ${apart}`);
    const [px, py] = same ? [x, y] : transformPoint(coordCrs, this.ds.crs, x, y);
    const [minx, miny, maxx, maxy] = this.ds.bounds;
    if (!(minx < px && px < maxx && miny < py && py < maxy)) throw Errors.pointOutsideBounds();
    const inv = rowColInverse(this.ds.geoTransform);
    const eps = Number.EPSILON;
    const col = Math.floor(inv[0] + (px + eps) * inv[1] + (py - eps) * inv[2]);
    const row = Math.floor(inv[3] + (px + eps) * inv[4] + (py - eps) * inv[5]);
    return readWindowImage(this.ds, { col, row, width: 1, height: 1 }, 1, 1, options, signal);
  }

  private async execute(plan: ReadPlan, dstCrs: Crs, options: ReadOptions, signal: AbortSignal | undefined): Promise<ImageData> {
    this.onPlan?.(plan);
    if (plan.width * plan.height > this.limits.maxReadPixels) {
      throw Errors.maxSize(`Requested image of ${plan.width}x${plan.height} pixels exceeds the limit of ${this.limits.maxReadPixels} pixels`);
    }
    return executePlan(this.ds, plan, dstCrs, options, this.limits.maxReadPixels, signal);
  }
}

/**
 * The inverse geotransform the way rasterio's rowcol computes it (the affine package's `~`: one
 * 1/det, offsets from the inverted coefficients), so that points on a pixel edge pick the same
 * pixel as rasterio's sample and gdallocationinfo (a combined-offset inverse can land 1e-10 below
 * an edge 800 pixels away and pick the previous column).
 */
function rowColInverse(gt: GeoTransform): GeoTransform {
  invertGeoTransform(gt); // validates (throws when not invertible)
  const idet = 1 / (gt[1] * gt[5] - gt[2] * gt[4]);
  const ra = gt[5] * idet;
  const rb = -gt[2] * idet;
  const rd = -gt[4] * idet;
  const re = gt[1] * idet;
  return [-gt[0] * ra - gt[3] * rb, ra, rb, -gt[0] * rd - gt[3] * re, rd, re];
}
