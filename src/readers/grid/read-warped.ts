/**
 * Reprojected read: what rasterio's WarpedVRT + `read(out_shape=…)` returns.
 *
 * GDAL gives the warped VRT implicit overviews, one per source overview (size = VRT size /
 * (source width / overview width), rounded); a downsampled read picks one of them with the
 * usual RasterIO rule, warps the matching source overview onto that grid (nearest: source
 * pixel = floor(coordinate + 1e-10), coordinates from GDAL's approximate transformer with a
 * 0.125 px error budget, per 512-pixel VRT block row) and then samples it onto the output.
 * We compose both steps and only transform the grid pixels the output actually samples.
 */
import type { GeoTransform } from '../../geo/affine.ts';
import { invertGeoTransform } from '../../geo/affine.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs.ts';
import { getTransformer } from '../../geo/transform.ts';
import type { TypedArray } from '../../dtype.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { resampleKernel } from '../../raster/resample-kernel.ts';
import { nearestIndexes, sampleMaskNearest } from '../../raster/sample-index.ts';
import { approxRowAt } from '../../raster/warp/approx-row.ts';
import { warpSample, type SourceRegion } from '../../raster/warp/warp-sample.ts';
import { Errors } from '../../errors.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';
import { bytesPerSample } from '../../dtype.ts';
import type { ReadOptions } from '../read-options.ts';
import { assembleImage } from './assemble-image.ts';
import { nodataMask, nonZeroMask, planMasks } from './band-masks.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { bandIndexes } from './band-indexes.ts';
import { chooseLevel, levelFactors, warpedOverviews } from '../../raster/warp/overview-choice.ts';

export interface WarpGrid {
  crs: Crs;
  bounds: Bounds;
  geoTransform: GeoTransform;
  width: number;
  height: number;
}

const VRT_BLOCK_WIDTH = 512;
const MAX_ERROR = 0.125;

export async function readWarpedImage(
  ds: GridDataset,
  grid: WarpGrid,
  outWidth: number,
  outHeight: number,
  options: ReadOptions,
  maxReadPixels: number,
  signal?: AbortSignal,
): Promise<ImageData> {
  const indexes = bandIndexes(ds, options.indexes);
  const plan = planMasks(ds, options.nodata);
  const readBands = plan.alphaBand !== null ? [...indexes, plan.alphaBand] : indexes;
  const tiff = ds;

  // 1. Implicit overviews of the warped VRT, and the one RasterIO picks for this output size.
  const vrtLevels = warpedOverviews(tiff.levels, grid.width, grid.height);
  const k = chooseLevel(vrtLevels, grid.width, grid.height, outWidth, outHeight);
  const gw = vrtLevels[k].width;
  const gh = vrtLevels[k].height;
  const ggt: GeoTransform = [grid.geoTransform[0], (grid.geoTransform[1] * grid.width) / gw, 0, grid.geoTransform[3], 0, (grid.geoTransform[5] * grid.height) / gh];

  // 2. Which grid pixels the output samples (identity when sizes match).
  const resampling = options.resampling ?? 'nearest';
  const direct = resampling === 'nearest' || (gw === outWidth && gh === outHeight);
  const cols = direct ? nearestIndexes(0, gw, outWidth, gw) : identity(gw);
  const rows = direct ? nearestIndexes(0, gh, outHeight, gh) : identity(gh);
  const tw = cols.length;
  const th = rows.length;

  // 3. Source pixel coordinates (in source level k pixels) of those grid pixel centres.
  const [fx, fy] = levelFactors(tiff.levels, k);
  const srcGt = ds.geoTransform;
  const levelGt: GeoTransform = [srcGt[0], srcGt[1] * fx, srcGt[2] * fy, srcGt[3], srcGt[4] * fx, srcGt[5] * fy];
  const inv = invertGeoTransform(levelGt);
  const transformer = getTransformer(grid.crs, ds.crs);
  const exact = (xs: Float64Array, ys: Float64Array): void => {
    for (let i = 0; i < xs.length; i++) {
      const px = xs[i];
      const py = ys[i];
      xs[i] = ggt[0] + px * ggt[1] + py * ggt[2];
      ys[i] = ggt[3] + px * ggt[4] + py * ggt[5];
    }
    transformer.forward(xs, ys);
    for (let i = 0; i < xs.length; i++) {
      const gx = xs[i];
      const gy = ys[i];
      xs[i] = inv[0] + gx * inv[1] + gy * inv[2];
      ys[i] = inv[3] + gx * inv[4] + gy * inv[5];
    }
  };
  chargeRequest(tw * th * (17 + readBands.length * bytesPerSample(tiff.dtype) + indexes.length), `A ${tw}×${th} warp of ${readBands.length} band(s)`);
  const sx = (BUFFER_POOL.array('float64', tw * th) as Float64Array).fill(NaN);
  const sy = (BUFFER_POOL.array('float64', tw * th) as Float64Array).fill(NaN);
  try {
    return await warpAndAssemble();
  } finally {
    BUFFER_POOL.release(sx.buffer, sy.buffer);
    releaseRequest(sx.byteLength + sy.byteLength);
  }

  async function warpAndAssemble(): Promise<ImageData> {
  // Per 512-pixel VRT block: the output columns it holds and their positions inside it.
  const blocks = blocksOf(cols, VRT_BLOCK_WIDTH).map((block) => {
    const c0 = block * VRT_BLOCK_WIDTH;
    const n = Math.min(VRT_BLOCK_WIDTH, gw - c0);
    let j0 = 0;
    while (j0 < tw && !(cols[j0] >= c0)) j0++;
    let j1 = j0;
    while (j1 < tw && cols[j1] < c0 + n) j1++;
    const at = new Int32Array(j1 - j0);
    for (let j = j0; j < j1; j++) at[j - j0] = cols[j] - c0;
    return { c0, n, j0, j1, at };
  });
  for (let i = 0; i < th; i++) {
    const r = rows[i];
    if (r < 0) continue;
    for (const b of blocks) {
      const o = i * tw;
      approxRowAt(exact, b.c0, r + 0.5, b.n, MAX_ERROR, b.at, sx.subarray(o + b.j0, o + b.j1), sy.subarray(o + b.j0, o + b.j1));
    }
  }

  // 4. Read the covering source window at level k (with a margin for kernels) and warp.
  const lv = tiff.levels[k];
  const reproject = options.reproject ?? 'nearest';
  const margin = reproject === 'nearest' ? 0 : 4;
  const span = coordSpan(sx, sy, lv.width, lv.height, margin);
  const count = tw * th;
  const dtype = tiff.dtype;
  const fill = plan.nodata ?? 0;
  const warped = readBands.map(() => BUFFER_POOL.array(dtype, count).fill(fill));
  const written = BUFFER_POOL.bytes(count).fill(0);
  if (span) {
    const [c0, r0, c1, r1] = span;
    if ((c1 - c0) * (r1 - r0) > maxReadPixels) throw Errors.maxSize(`warped read needs ${(c1 - c0) * (r1 - r0)} source pixels, more than the limit of ${maxReadPixels}`);
    const part = await tiff.readWindow(k, { col: c0, row: r0, width: c1 - c0, height: r1 - r0 }, readBands, signal);
    const region: SourceRegion = {
      bands: part.bands,
      valid: plan.useDatasetMask && part.mask ? part.mask : plan.alphaBand !== null ? nonZeroMask(part.bands[part.bands.length - 1]) : null,
      nodata: plan.nodata,
      col0: c0,
      row0: r0,
      width: c1 - c0,
      height: r1 - r0,
    };
    const [scaleX, scaleY] = footprintScale(sx, sy, cols, rows);
    warpSample(reproject, region, sx, sy, scaleX, scaleY, { bands: warped, written, dtype });
    // the source window is read by no one else: its buffers serve the next reads
    BUFFER_POOL.release(...part.bands.map((b) => b.buffer), ...(part.mask ? [part.mask.buffer] : []));
    releaseRequest(part.bands.reduce((sum, b) => sum + b.byteLength, part.mask?.byteLength ?? 0));
  }

  // 5. Masks (rio-tiler: nodata → value == nodata; else the VRT's alpha = pixels written).
  let bands: TypedArray[] = plan.alphaBand !== null ? warped.slice(0, -1) : warped;
  // With one band, a pixel holds data exactly where a source sample was written (nodata samples
  // are never copied), so `written` is the nodata mask too.
  let masks: Uint8Array[] =
    plan.nodata !== null && bands.length > 1 ? bands.map((b) => nodataMask(b, plan.nodata!)) : bands.map(() => written);
  if (!direct) {
    const win = { col: 0, row: 0, width: gw, height: gh };
    bands = bands.map((b, i) => resampleKernel(b, gw, gh, win, outWidth, outHeight, resampling, masks[i], dtype, fill));
    masks = plan.nodata !== null ? bands.map((b) => nodataMask(b, plan.nodata!)) : [sampleMaskNearest(written, gw, 0, 0, nearestIndexes(0, gw, outWidth, gw), nearestIndexes(0, gh, outHeight, gh))];
    if (plan.nodata === null) masks = bands.map(() => masks[0]);
  }
  return assembleImage(ds, indexes, bands, masks, { bounds: grid.bounds, crs: grid.crs, width: outWidth, height: outHeight }, plan.nodata, options.unscale ?? false);
  }
}

/** Source pixels per grid pixel along x and y, measured on the first and middle samples. */
function footprintScale(sx: Float64Array, sy: Float64Array, cols: Int32Array, rows: Int32Array): [number, number] {
  const tw = cols.length;
  const th = rows.length;
  const mi = th >> 1;
  const mj = tw >> 1;
  const dx = Math.hypot(sx[mi * tw + tw - 1] - sx[mi * tw], sy[mi * tw + tw - 1] - sy[mi * tw]) / Math.max(1, cols[tw - 1] - cols[0]);
  const dy = Math.hypot(sx[(th - 1) * tw + mj] - sx[mj], sy[(th - 1) * tw + mj] - sy[mj]) / Math.max(1, rows[th - 1] - rows[0]);
  return [Number.isFinite(dx) && dx > 0 ? dx : 1, Number.isFinite(dy) && dy > 0 ? dy : 1];
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

function blocksOf(cols: Int32Array, blockWidth: number): number[] {
  const set = new Set<number>();
  for (const c of cols) if (c >= 0) set.add(Math.floor(c / blockWidth));
  return [...set].sort((a, b) => a - b);
}

/** Integer source window [c0, r0, c1, r1) covering the finite coordinates (clamped), or null. */
function coordSpan(sx: Float64Array, sy: Float64Array, width: number, height: number, margin: number): [number, number, number, number] | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < sx.length; i++) {
    const x = sx[i];
    const y = sy[i];
    if (!(x === x) || !(y === y)) continue;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (x0 === Infinity) return null;
  const c0 = Math.max(0, Math.floor(x0) - margin);
  const r0 = Math.max(0, Math.floor(y0) - margin);
  const c1 = Math.min(width, Math.floor(x1) + 1 + margin);
  const r1 = Math.min(height, Math.floor(y1) + 1 + margin);
  return c1 > c0 && r1 > r0 ? [c0, r0, c1, r1] : null;
}
