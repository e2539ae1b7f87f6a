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
import { gridToSource } from '../../raster/warp/grid-transform.ts';
import { MAX_BLOCK_SIDE } from '../../raster/warp/block-plan.ts';
import { warpBlocks, type BlockWarpSource } from '../../raster/warp/warp-blocks.ts';
import type { SourceRegion } from '../../raster/warp/warp-sample.ts';
import { Errors } from '../../errors.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';
import { fillCooperative } from '../../util/cooperate.ts';
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

  // 1. Implicit overviews of the warped VRT, and the one RasterIO picks for this output size.
  const vrtLevels = warpedOverviews(ds.levels, grid.width, grid.height);
  const k = chooseLevel(vrtLevels, grid.width, grid.height, outWidth, outHeight);
  const gw = vrtLevels[k].width;
  const gh = vrtLevels[k].height;
  const ggt: GeoTransform = [
    grid.geoTransform[0],
    (grid.geoTransform[1] * grid.width) / gw,
    0,
    grid.geoTransform[3],
    0,
    (grid.geoTransform[5] * grid.height) / gh,
  ];

  // 2. Which grid pixels the output samples (identity when sizes match).
  const resampling = options.resampling ?? 'nearest';
  const direct = resampling === 'nearest' || (gw === outWidth && gh === outHeight);
  const cols = direct ? nearestIndexes(0, gw, outWidth, gw) : identity(gw);
  const rows = direct ? nearestIndexes(0, gh, outHeight, gh) : identity(gh);
  const tw = cols.length;
  const th = rows.length;

  // 3. Source pixel coordinates (in source level k pixels) of grid pixel centres, and the warp,
  // block by block (raster/warp/warp-blocks.ts): blocks that cannot reach the source cost nothing.
  const [fx, fy] = levelFactors(ds.levels, k);
  const srcGt = ds.geoTransform;
  const levelGt: GeoTransform = [srcGt[0], srcGt[1] * fx, srcGt[2] * fy, srcGt[3], srcGt[4] * fx, srcGt[5] * fy];
  const exact = gridToSource(ggt, invertGeoTransform(levelGt), getTransformer(grid.crs, ds.crs));
  // output bands + `written` + masks, and the coordinates of one block at a time (16 bytes/pixel)
  chargeRequest(
    tw * th * (1 + readBands.length * bytesPerSample(ds.dtype) + indexes.length) + 16 * MAX_BLOCK_SIDE * MAX_BLOCK_SIDE,
    `A ${tw}×${th} warp of ${readBands.length} band(s)`,
  );
  const lv = ds.levels[k];
  const reproject = options.reproject ?? 'nearest';
  const count = tw * th;
  const dtype = ds.dtype;
  const fill = plan.nodata ?? 0;
  const warped: TypedArray[] = [];
  // zero fills: a new buffer (any larger than the pool) is zero already and stays untouched
  for (let b = 0; b < readBands.length; b++)
    warped.push(Object.is(fill, 0) ? BUFFER_POOL.zeroed(dtype, count) : await fillCooperative(BUFFER_POOL.array(dtype, count), fill));
  const written = BUFFER_POOL.zeroed('uint8', count) as Uint8Array;
  const readMasks = new Map<SourceRegion, Uint8Array>();
  const source: BlockWarpSource = {
    read: async ([c0, r0, c1, r1]) => {
      if ((c1 - c0) * (r1 - r0) > maxReadPixels)
        throw Errors.maxSize(`warped read needs ${(c1 - c0) * (r1 - r0)} source pixels, more than the limit of ${maxReadPixels}`);
      const part = await ds.readWindow(k, { col: c0, row: r0, width: c1 - c0, height: r1 - r0 }, readBands, signal);
      const region: SourceRegion = {
        bands: part.bands,
        valid: plan.useDatasetMask && part.mask ? part.mask : plan.alphaBand !== null ? nonZeroMask(part.bands[part.bands.length - 1]) : null,
        nodata: plan.nodata,
        col0: c0,
        row0: r0,
        width: c1 - c0,
        height: r1 - r0,
      };
      if (part.mask) readMasks.set(region, part.mask);
      return region;
    },
    // the source window is read by no one else: its buffers serve the next reads
    release: (region) => {
      const mask = readMasks.get(region);
      readMasks.delete(region);
      BUFFER_POOL.release(...region.bands.map((b) => b.buffer), ...(mask ? [mask.buffer] : []));
      releaseRequest(region.bands.reduce((sum, b) => sum + b.byteLength, mask?.byteLength ?? 0));
    },
  };
  await warpBlocks(
    {
      exact,
      cols,
      rows,
      gridWidth: gw,
      vrtBlockWidth: VRT_BLOCK_WIDTH,
      maxError: MAX_ERROR,
      sourceWidth: lv.width,
      sourceHeight: lv.height,
      method: reproject,
      margin: reproject === 'nearest' ? 0 : 4,
      // every input of `exact`, `cols` and `rows`: a time series' steps share the coordinates
      key: [grid.crs.id, ds.crs.id, ggt.join(','), levelGt.join(','), gw, gh, outWidth, outHeight, direct, lv.width, lv.height].join('|'),
    },
    source,
    { bands: warped, written, dtype },
  );
  releaseRequest(16 * MAX_BLOCK_SIDE * MAX_BLOCK_SIDE); // the coordinate scratch is given back

  // 5. Masks (rio-tiler: nodata → value == nodata; else the VRT's alpha = pixels written).
  let bands: TypedArray[] = plan.alphaBand !== null ? warped.slice(0, -1) : warped;
  // With one band, a pixel holds data exactly where a source sample was written (nodata samples
  // are never copied), so `written` is the nodata mask too.
  let masks: Uint8Array[] = plan.nodata !== null && bands.length > 1 ? bands.map((b) => nodataMask(b, plan.nodata!)) : bands.map(() => written);
  if (!direct) {
    const win = { col: 0, row: 0, width: gw, height: gh };
    bands = bands.map((b, i) => resampleKernel(b, gw, gh, win, outWidth, outHeight, resampling, masks[i], dtype, fill));
    masks =
      plan.nodata !== null
        ? bands.map((b) => nodataMask(b, plan.nodata!))
        : [sampleMaskNearest(written, gw, 0, 0, nearestIndexes(0, gw, outWidth, gw), nearestIndexes(0, gh, outHeight, gh))];
    if (plan.nodata === null) masks = bands.map(() => masks[0]);
  }
  return assembleImage(
    ds,
    indexes,
    bands,
    masks,
    { bounds: grid.bounds, crs: grid.crs, width: outWidth, height: outHeight },
    plan.nodata,
    options.unscale ?? false,
  );
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}
