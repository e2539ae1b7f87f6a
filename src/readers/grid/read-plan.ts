/**
 * A read as data: what a `part` / `preview` of a GridDataset will read — direct window or warp
 * grid, overview level, source window, output size, padding — decided without I/O and returned
 * as a plain JSON-serialisable object, so it can be logged (debug) and unit-tested, then executed
 * (execute-plan.ts). Rules: rio-tiler's `part` / `read` (sizes, buffer, padding), rasterio's
 * windows, GDAL's overview choice (RasterIO and the warped VRT's implicit overviews).
 */
import { Errors } from '../../errors.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { boundsFromGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import type { Bounds, Window } from '../../geo/bounds.ts';
import { sameCrs, type Crs } from '../../geo/crs.ts';
import { suggestedWarpOutput } from '../../geo/suggested-warp.ts';
import { transformBounds } from '../../geo/transform.ts';
import { chooseLevel, warpedOverviews } from '../../raster/warp/overview-choice.ts';
import { pyRound } from '../../util/python.ts';
import { applyBuffer, boundsOfWindow, outputSize, roundWindowOutward, vrtGrid, windowFromBounds } from '../part-plan.ts';
import type { PartRequest, PreviewRequest } from '../reader.ts';
import { readLevel } from './raster-io.ts';

/** What planning needs of a dataset: its grid, not its bytes. */
export type PlanGeometry = Pick<GridDataset, 'crs' | 'geoTransform' | 'width' | 'height' | 'levels'>;

interface PlanCommon {
  /** Output CRS (id). */
  crs: string;
  /** Output bounds in `crs`. */
  bounds: Bounds;
  /** Output size. */
  width: number;
  height: number;
  /** Size read before the padding is cropped (= width/height + 2 × padding). */
  readWidth: number;
  readHeight: number;
  /** Output pixels read around the image for resampling and cropped after (0: none). */
  padding: number;
  /** Overview level the pixels come from (0 = full resolution; for a warp, the warped VRT's implicit overview). */
  level: number;
}

/** Same-CRS read: a fractional full-resolution window resampled onto readWidth × readHeight. */
export interface WindowPlan extends PlanCommon {
  kind: 'window';
  window: Window;
  /** The window reaches past the raster (outside pixels masked). */
  boundless: boolean;
}

/** Reprojected read: the warped VRT grid (rio-tiler get_vrt_transform) sampled onto readWidth × readHeight. */
export interface WarpPlan extends PlanCommon {
  kind: 'warp';
  grid: { bounds: Bounds; geoTransform: GeoTransform; width: number; height: number };
}

export type ReadPlan = WindowPlan | WarpPlan;

/** rio-tiler `part`: bounds (in `boundsCrs` or the output CRS) → window or warp grid. */
export function planPart(ds: PlanGeometry, req: PartRequest, nativeGridIn: (crs: Crs) => GeoTransform): ReadPlan {
  if (req.buffer && req.buffer % 0.5) throw Errors.badRequest('`buffer` must be a multiple of `0.5` (e.g: 0.5, 1, 1.5, ...).');
  const dstCrs = req.dstCrs ?? ds.crs;
  let bounds = req.bounds;
  if (req.boundsCrs && !sameCrs(req.boundsCrs, dstCrs)) bounds = transformBounds(req.boundsCrs, dstCrs, bounds, 21);
  const size = { width: req.width, height: req.height, maxSize: req.maxSize };
  const align = req.alignBoundsWithDataset ?? false;
  const padding = req.padding ?? 0;

  if (!sameCrs(dstCrs, ds.crs)) {
    const native = nativeGridIn(dstCrs);
    let grid = vrtGrid(bounds, native, size, align);
    let [height, width] = outputSize(size, grid.height, grid.width, false);
    if (req.buffer) {
      const b = applyBuffer(req.buffer, grid.bounds, height, width);
      height = b.height;
      width = b.width;
      grid = vrtGrid(b.bounds, native, { width, height }, align);
    }
    return warpPlan(ds, dstCrs, grid, width, height, padding);
  }

  let window = windowFromBounds(bounds, ds.geoTransform);
  if (align) {
    window = roundWindowOutward(window);
    bounds = boundsOfWindow(window, ds.geoTransform);
  }
  let [height, width] = outputSize(size, window.height, window.width, true);
  if (req.buffer) {
    const b = applyBuffer(req.buffer, bounds, height, width);
    bounds = b.bounds;
    height = b.height;
    width = b.width;
    window = windowFromBounds(b.bounds, ds.geoTransform);
  }
  if (padding > 0 && !alignedWithBlocks(ds, window)) {
    // rio-tiler: the padding is a buffer of `padding` output pixels, read and then cropped.
    const padded = applyBuffer(padding, bounds, height, width);
    return windowPlan(ds, windowFromBounds(padded.bounds, ds.geoTransform), bounds, width, height, padding, req);
  }
  return windowPlan(ds, window, boundsOfWindow(window, ds.geoTransform), width, height, 0, req);
}

/** rio-tiler `preview`: the whole dataset at max_size (or width/height), optionally reprojected. */
export function planPreview(ds: PlanGeometry, req: PreviewRequest): ReadPlan {
  const { width: W, height: H } = ds;
  const size = { width: req.width, height: req.height, maxSize: req.maxSize };
  if (req.dstCrs && !sameCrs(req.dstCrs, ds.crs)) {
    const out = suggestedWarpOutput(ds.crs, req.dstCrs, W, H, ds.geoTransform);
    const grid = {
      bounds: boundsFromGeoTransform(out.geoTransform, out.width, out.height),
      geoTransform: out.geoTransform,
      width: out.width,
      height: out.height,
    };
    const [height, width] = outputSize(size, out.height, out.width, false);
    return warpPlan(ds, req.dstCrs, grid, width, height, 0);
  }
  const [height, width] = outputSize(size, H, W, false);
  const window = { col: 0, row: 0, width: W, height: H };
  return windowPlan(ds, window, boundsOfWindow(window, ds.geoTransform), width, height, 0, req);
}

function windowPlan(
  ds: PlanGeometry,
  window: Window,
  bounds: Bounds,
  width: number,
  height: number,
  padding: number,
  req: { resampling?: PartRequest['resampling'] },
): WindowPlan {
  const readWidth = width + 2 * padding;
  const readHeight = height + 2 * padding;
  const boundless = window.col < 0 || window.row < 0 || window.col + window.width > ds.width || window.row + window.height > ds.height;
  const level = readLevel(ds.levels, window, readWidth, readHeight, req.resampling ?? 'nearest');
  return { kind: 'window', crs: ds.crs.id, bounds, width, height, readWidth, readHeight, padding, level, window, boundless };
}

/**
 * A warp onto `grid`. Padding (rio-tiler: the VRT grows by `padding` pixels each side and the
 * original extent is read out of it) is applied when the grid is the output size — every tile
 * at or above native resolution; a downsampled warp reads its grid whole (no sub-window read of
 * the VRT here), so it is read without padding.
 */
function warpPlan(ds: PlanGeometry, dstCrs: Crs, grid: WarpPlan['grid'], width: number, height: number, padding: number): WarpPlan {
  let g = grid;
  let pad = 0;
  if (padding > 0 && grid.width === width && grid.height === height) {
    pad = padding;
    const [x0, dx, rx, y0, ry, dy] = grid.geoTransform;
    const geoTransform: GeoTransform = [x0 - pad * dx - pad * rx, dx, rx, y0 - pad * ry - pad * dy, ry, dy];
    const w = grid.width + 2 * pad;
    const h = grid.height + 2 * pad;
    g = { bounds: boundsFromGeoTransform(geoTransform, w, h), geoTransform, width: w, height: h };
  }
  const readWidth = width + 2 * pad;
  const readHeight = height + 2 * pad;
  const level = chooseLevel(warpedOverviews(ds.levels, g.width, g.height), g.width, g.height, readWidth, readHeight);
  return { kind: 'warp', crs: dstCrs.id, bounds: grid.bounds, width, height, readWidth, readHeight, padding: pad, level, grid: g };
}

/**
 * rio-tiler `_requested_tile_aligned_with_internal_tile` for a same-CRS read: a tiled dataset
 * whose window starts on the 64-pixel lattice counted from the far edges (and spans a multiple
 * of 64 on one axis) needs no padding.
 */
function alignedWithBlocks(ds: PlanGeometry, window: Window): boolean {
  if (ds.levels[0].blockWidth === ds.width) return false; // strips: not tiled
  if (pyRound(window.width) % 64 && pyRound(window.height) % 64) return false;
  if (pyMod(ds.width - pyRound(window.col), 64)) return false;
  if (pyMod(ds.height - pyRound(window.row), 64)) return false;
  return true;
}

/** Python's `%` (the sign of the divisor). */
function pyMod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
