/**
 * The single-dataset reader: rio-tiler `Reader` semantics over any GridDataset (a GeoTIFF today,
 * an HDF5/NetCDF/Zarr variable next). Everything format-specific stays behind the GridDataset.
 */
import { Errors } from '../../errors.ts';
import { boundsFromGeoTransform, geoTransformFromBounds, invertGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import { boundsAreFinite, boundsIntersect, type Bounds } from '../../geo/bounds.ts';
import { sameCrs, type Crs } from '../../geo/crs.ts';
import { suggestedWarpOutput } from '../../geo/suggested-warp.ts';
import type { TileMatrixSet } from '../../geo/tms.ts';
import { datasetGeographicBounds, transformBounds, transformPoint } from '../../geo/transform.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { applyBuffer, outputSize, vrtGrid, windowFromBounds, boundsOfWindow, roundWindowOutward } from '../part-plan.ts';
import type { ReadOptions } from '../read-options.ts';
import type { DatasetReader, PartRequest, PreviewRequest, TileRequest } from '../reader.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { LruCache } from '../../util/lru-cache.ts';
import type { Info } from '../info.ts';
import { datasetInfo } from './info.ts';
import { readWarpedImage } from './read-warped.ts';
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
    let gt = this.ds.geoTransform;
    if (this.ds.crs.epsg === 4326 && crs.epsg === 3857 && (bounds[1] < -85.06 || bounds[3] > 85.06)) {
      bounds = [bounds[0], Math.max(bounds[1], -85.06), bounds[2], Math.min(bounds[3], 85.06)];
      const w = windowFromBounds(bounds, this.ds.geoTransform);
      width = Math.round(w.width);
      height = Math.round(w.height);
      gt = geoTransformFromBounds(bounds, width, height);
    }
    const out = Object.freeze(suggestedWarpOutput(this.ds.crs, crs, width, height, gt).geoTransform);
    grids.set(crs.id, out);
    return out as GeoTransform;
  }

  async part(req: PartRequest, signal?: AbortSignal): Promise<ImageData> {
    if (req.buffer && req.buffer % 0.5) throw Errors.badRequest('`buffer` must be a multiple of `0.5` (e.g: 0.5, 1, 1.5, ...).');
    const dstCrs = req.dstCrs ?? this.ds.crs;
    let bounds = req.bounds;
    if (req.boundsCrs && !sameCrs(req.boundsCrs, dstCrs)) bounds = transformBounds(req.boundsCrs, dstCrs, bounds, 21);
    const size = { width: req.width, height: req.height, maxSize: req.maxSize };

    if (!sameCrs(dstCrs, this.ds.crs)) {
      const native = this.nativeGridIn(dstCrs);
      let grid = vrtGrid(bounds, native, size, req.alignBoundsWithDataset ?? false);
      let [height, width] = outputSize(size, grid.height, grid.width, false);
      if (req.buffer) {
        const b = applyBuffer(req.buffer, grid.bounds, height, width);
        height = b.height;
        width = b.width;
        grid = vrtGrid(b.bounds, native, { width, height }, req.alignBoundsWithDataset ?? false);
      }
      this.checkSize(width, height);
      return readWarpedImage(this.ds, { crs: dstCrs, ...grid }, width, height, req, this.limits.maxReadPixels, signal);
    }

    let window = windowFromBounds(bounds, this.ds.geoTransform);
    if (req.alignBoundsWithDataset) {
      window = roundWindowOutward(window);
      bounds = boundsOfWindow(window, this.ds.geoTransform);
    }
    let [height, width] = outputSize(size, window.height, window.width, true);
    if (req.buffer) {
      const b = applyBuffer(req.buffer, bounds, height, width);
      height = b.height;
      width = b.width;
      window = windowFromBounds(b.bounds, this.ds.geoTransform);
    }
    this.checkSize(width, height);
    return readWindowImage(this.ds, window, width, height, req, signal);
  }

  async preview(req: PreviewRequest, signal?: AbortSignal): Promise<ImageData> {
    const { width: W, height: H } = this.ds;
    const size = { width: req.width, height: req.height, maxSize: req.maxSize };
    if (req.dstCrs && !sameCrs(req.dstCrs, this.ds.crs)) {
      const out = suggestedWarpOutput(this.ds.crs, req.dstCrs, W, H, this.ds.geoTransform);
      const gt = out.geoTransform;
      const bounds = boundsFromGeoTransform(gt, out.width, out.height);
      const [height, width] = outputSize(size, out.height, out.width, false);
      this.checkSize(width, height);
      return readWarpedImage(this.ds, { crs: req.dstCrs, bounds, geoTransform: gt, width: out.width, height: out.height }, width, height, req, this.limits.maxReadPixels, signal);
    }
    const [height, width] = outputSize(size, H, W, false);
    this.checkSize(width, height);
    return readWindowImage(this.ds, { col: 0, row: 0, width: W, height: H }, width, height, req, signal);
  }

  async tile(tms: TileMatrixSet, x: number, y: number, z: number, req: TileRequest, signal?: AbortSignal): Promise<ImageData> {
    if (!this.tileExists(tms, x, y, z)) throw Errors.tileOutsideBounds(x, y, z);
    const m = tms.matrix(z);
    const bounds = tms.tileBounds(x, y, z);
    return this.part(
      { ...req, bounds, dstCrs: tms.crs, width: req.tilesize ?? m.tileWidth, height: req.tilesize ?? m.tileHeight },
      signal,
    );
  }

  async point(x: number, y: number, coordCrs: Crs, options: ReadOptions, signal?: AbortSignal): Promise<ImageData> {
    const [px, py] = sameCrs(coordCrs, this.ds.crs) ? [x, y] : transformPoint(coordCrs, this.ds.crs, x, y);
    const [minx, miny, maxx, maxy] = this.ds.bounds;
    if (!(minx < px && px < maxx && miny < py && py < maxy)) throw Errors.pointOutsideBounds();
    const inv = invertGeoTransform(this.ds.geoTransform);
    const eps = Number.EPSILON;
    const col = Math.floor(inv[0] + (px + eps) * inv[1] + (py - eps) * inv[2]);
    const row = Math.floor(inv[3] + (px + eps) * inv[4] + (py - eps) * inv[5]);
    return readWindowImage(this.ds, { col, row, width: 1, height: 1 }, 1, 1, options, signal);
  }

  private checkSize(width: number, height: number): void {
    if (width * height > this.limits.maxReadPixels) {
      throw Errors.maxSize(`Requested image of ${width}x${height} pixels exceeds the limit of ${this.limits.maxReadPixels} pixels`);
    }
  }
}
