/**
 * Windowed, resampled reads of a multi-level raster the way GDAL's RasterIO does them
 * (what rasterio's `read(window=…, out_shape=…)` returns): pick the overview level, map each
 * output pixel centre to a source pixel, read only the blocks needed (in row strips so memory
 * stays bounded on big un-tiled files), and report which output pixels fall outside the raster.
 *
 * A window reaching past the raster is what rasterio reads with `boundless=True`: through an
 * in-memory VRT that places the raster on a larger canvas. GDAL then picks one of the VRT's
 * implicit overviews, clips the request to the raster (VRTSimpleSource::GetSrcDstWindow, which
 * rounds the covered part of the output to whole pixels and shifts the source window to match)
 * and reads that sub-window with the raster's own overview choice. The sampling grid differs
 * from a plain read of the same window, so nearest reads emulate that chain (boundless-vrt.ts).
 */
import type { Window } from '../../geo/bounds.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';
import { allocate, bytesPerSample, type TypedArray } from '../../dtype.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { resampleKernel } from '../../raster/resample-kernel.ts';
import type { ReadResampling } from '../../raster/resampling.ts';
import { indexSpan, nearestIndexes, sampleMaskNearest } from '../../raster/sample-index.ts';
import { boundlessNearestPlan, gdalNearestAxis, isBoundless, samePlan, type NearestPlan } from '../../raster/warp/boundless-vrt.ts';
import { chooseLevel, levelFactors } from '../../raster/warp/overview-choice.ts';

/** What RasterIO needs from a multi-level raster (any GridDataset satisfies it). */
export type LeveledRaster = Pick<GridDataset, 'dtype' | 'levels' | 'readWindow'>;

export interface RasterIoResult {
  bands: TypedArray[];
  /** Per-dataset mask sampled like the data (255 valid), when requested and present. */
  mask: Uint8Array | null;
  /** 255 where the output pixel maps inside the raster, 0 outside; null when every pixel is inside. */
  inside: Uint8Array | null;
  /** Level the samples were taken from (0 = full resolution). */
  level: number;
}

/**
 * The level `rasterIO` reads a request from (what RasterIoResult.level reports), without reading:
 * a boundless nearest read picks it through the VRT chain (boundless-vrt.ts), any other read by
 * GDAL's overview rule on the truncated window size. Read plans report it (read-plan.ts).
 */
export function readLevel(levels: GridDataset['levels'], window: Window, outWidth: number, outHeight: number, resampling: ReadResampling): number {
  if (resampling === 'nearest' && isBoundless(levels[0], window)) return boundlessNearestPlan(levels, window, outWidth, outHeight, true).level;
  return chooseLevel(levels, Math.trunc(Math.max(1, window.width)), Math.trunc(Math.max(1, window.height)), outWidth, outHeight);
}

/** Largest number of source samples (per band) held at once while reading one request. */
const STRIP_SAMPLES = 8 * 1024 * 1024;

export async function rasterIO(
  raster: LeveledRaster,
  window: Window,
  outWidth: number,
  outHeight: number,
  bands: number[],
  options: { resampling: ReadResampling; withMask: boolean; fill: number; signal?: AbortSignal },
): Promise<RasterIoResult> {
  // rasterio hands GDAL the truncated integer window size (the overview choice uses it).
  const nx = Math.trunc(Math.max(1, window.width));
  const ny = Math.trunc(Math.max(1, window.height));
  const level = chooseLevel(raster.levels, nx, ny, outWidth, outHeight);
  const [fx, fy] = levelFactors(raster.levels, level);
  const levelWindow: Window = { col: window.col / fx, row: window.row / fy, width: window.width / fx, height: window.height / fy };
  const all = bands.map((_, k) => k);
  let groups: SampleGroup[];
  if (options.resampling === 'nearest' && isBoundless(raster.levels[0], window)) {
    const first = boundlessNearestPlan(raster.levels, window, outWidth, outHeight, true);
    const rest = boundlessNearestPlan(raster.levels, window, outWidth, outHeight, false);
    groups = samePlan(first, rest)
      ? [{ plan: first, bands: all, mask: true }]
      : [
          { plan: first, bands: [0], mask: false },
          { plan: rest, bands: all.slice(1), mask: true },
        ];
  } else if (options.resampling !== 'nearest' && (levelWindow.width !== outWidth || levelWindow.height !== outHeight)) {
    return resampledRead(raster, level, levelWindow, outWidth, outHeight, bands, options);
  } else {
    const l = raster.levels[level];
    const cols = gdalNearestAxis(levelWindow.col, levelWindow.width, outWidth, l.width, true);
    const rows = gdalNearestAxis(levelWindow.row, levelWindow.height, outHeight, l.height, false);
    groups = [{ plan: { level, cols, rows }, bands: all, mask: true }];
  }
  const n = outWidth * outHeight;
  chargeRequest(n * (bands.length * bytesPerSample(raster.dtype) + 2), `A ${outWidth}×${outHeight} read of ${bands.length} band(s)`);
  const out = bands.map(() => BUFFER_POOL.array(raster.dtype, n));
  const maskGroup = groups[groups.length - 1];
  const mask = options.withMask && raster.levels[maskGroup.plan.level].hasMask ? BUFFER_POOL.bytes(n).fill(0) : null;
  let inside: Uint8Array | null = null;
  // a grid reaching only source pixels writes every output pixel: the fill is for grids that do not
  const reachesOutside = groups.map((g) => !allInside(g.plan.cols, g.plan.rows));
  if (reachesOutside.some(Boolean)) for (const b of out) b.fill(options.fill);
  for (let g = 0; g < groups.length; g++) {
    const m = reachesOutside[g] ? insideMask(groups[g].plan.cols, groups[g].plan.rows) : null;
    if (m === null) {
      inside = null;
      break;
    }
    if (inside === null) inside = m;
    else for (let i = 0; i < n; i++) inside[i] |= m[i];
  }
  for (const g of groups) {
    const wanted = g.bands.length > 0 ? g.bands.map((k) => bands[k]) : [bands[0]];
    const targets = g.bands.map((k) => out[k]);
    await samplePlan(raster, g.plan, wanted, targets, g.mask ? mask : null, outWidth, outHeight, options.signal);
  }
  return { bands: out, mask, inside, level: groups[0].plan.level };
}

/** Bands (indexes into the request) sampled on one grid; `mask` also samples the dataset mask. */
interface SampleGroup {
  plan: NearestPlan;
  bands: number[];
  mask: boolean;
}

/** Reads the blocks a sampling grid needs, in strips of source rows, and samples them. */
async function samplePlan(
  raster: LeveledRaster,
  plan: NearestPlan,
  bandNumbers: number[],
  targets: TypedArray[],
  mask: Uint8Array | null,
  outWidth: number,
  outHeight: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { level, cols, rows } = plan;
  const lv = raster.levels[level];
  const spanX = indexSpan(cols);
  const spanY = indexSpan(rows);
  if (spanX === null || spanY === null || (targets.length === 0 && mask === null)) return;
  const spanWidth = spanX[1] - spanX[0];
  const copyRows = isRun(cols);
  const stripRows = Math.max(lv.blockHeight, Math.floor(STRIP_SAMPLES / Math.max(1, spanWidth) / lv.blockHeight) * lv.blockHeight);
  // Walk output rows in groups whose source rows fall in the same strip of source rows.
  let i = 0;
  while (i < outHeight) {
    if (rows[i] < 0) {
      i++;
      continue;
    }
    const strip = Math.floor(rows[i] / stripRows);
    let j = i;
    let r0 = rows[i];
    let r1 = rows[i];
    while (j < outHeight && rows[j] >= 0 && Math.floor(rows[j] / stripRows) === strip) {
      if (rows[j] < r0) r0 = rows[j];
      if (rows[j] > r1) r1 = rows[j];
      j++;
    }
    const part = await raster.readWindow(level, { col: spanX[0], row: r0, width: spanWidth, height: r1 - r0 + 1 }, bandNumbers, signal);
    const sample = copyRows ? copyRowRuns : sampleRows;
    for (let b = 0; b < targets.length; b++) sample(part.bands[b], spanWidth, spanX[0], r0, cols, rows, i, j, outWidth, targets[b]);
    if (mask && part.mask) sample(part.mask, spanWidth, spanX[0], r0, cols, rows, i, j, outWidth, mask);
    BUFFER_POOL.release(...part.bands.map((b) => b.buffer), ...(part.mask ? [part.mask.buffer] : [])); // sampled: dead
    releaseRequest(part.bands.reduce((sum, b) => sum + b.byteLength, part.mask?.byteLength ?? 0));
    i = j;
  }
}

function sampleRows(
  src: TypedArray,
  srcWidth: number,
  col0: number,
  row0: number,
  cols: Int32Array,
  rows: Int32Array,
  from: number,
  to: number,
  outWidth: number,
  out: TypedArray,
): void {
  for (let i = from; i < to; i++) {
    const r = rows[i];
    if (r < 0) continue;
    const srcRow = (r - row0) * srcWidth - col0;
    const dstRow = i * outWidth;
    for (let j = 0; j < outWidth; j++) {
      const c = cols[j];
      if (c >= 0) out[dstRow + j] = src[srcRow + c];
    }
  }
}

/** Whether the columns are consecutive source columns (a read at the level's own resolution). */
function isRun(cols: Int32Array): boolean {
  for (let j = 1; j < cols.length; j++) if (cols[j] !== cols[0] + j) return false;
  return cols.length > 0 && cols[0] >= 0;
}

/** `sampleRows` for consecutive columns: each output row is a copy of a source row's span. */
function copyRowRuns(
  src: TypedArray,
  srcWidth: number,
  col0: number,
  row0: number,
  cols: Int32Array,
  rows: Int32Array,
  from: number,
  to: number,
  outWidth: number,
  out: TypedArray,
): void {
  for (let i = from; i < to; i++) {
    const r = rows[i];
    if (r < 0) continue;
    const start = (r - row0) * srcWidth - col0 + cols[0];
    out.set(src.subarray(start, start + outWidth), i * outWidth);
  }
}

function allInside(cols: Int32Array, rows: Int32Array): boolean {
  for (let j = 0; j < cols.length; j++) if (cols[j] < 0) return false;
  for (let i = 0; i < rows.length; i++) if (rows[i] < 0) return false;
  return true;
}

function insideMask(cols: Int32Array, rows: Int32Array): Uint8Array | null {
  if (allInside(cols, rows)) return null;
  const w = cols.length;
  const m = new Uint8Array(w * rows.length);
  for (let i = 0; i < rows.length; i++) {
    if (rows[i] < 0) continue;
    for (let j = 0; j < w; j++) if (cols[j] >= 0) m[i * w + j] = 255;
  }
  return m;
}

/**
 * Non-nearest read resampling: read the covering source window at the chosen level, then
 * resample with a GDAL-like kernel. Pixels outside the raster are excluded from kernels.
 */
async function resampledRead(
  raster: LeveledRaster,
  level: number,
  win: Window,
  outWidth: number,
  outHeight: number,
  bands: number[],
  options: { resampling: ReadResampling; withMask: boolean; fill: number; signal?: AbortSignal },
): Promise<RasterIoResult> {
  const lv = raster.levels[level];
  const scaleX = win.width / outWidth;
  const scaleY = win.height / outHeight;
  // kernel support grows with the decimation factor (at least 2 source pixels for cubic-like kernels)
  const marginX = Math.ceil(Math.max(1, scaleX) * 2) + 1;
  const marginY = Math.ceil(Math.max(1, scaleY) * 2) + 1;
  const c0 = Math.max(0, Math.floor(win.col) - marginX);
  const r0 = Math.max(0, Math.floor(win.row) - marginY);
  const c1 = Math.min(lv.width, Math.ceil(win.col + win.width) + marginX);
  const r1 = Math.min(lv.height, Math.ceil(win.row + win.height) + marginY);
  const n = outWidth * outHeight;
  chargeRequest(n * (bands.length * bytesPerSample(raster.dtype) + 2), `A ${outWidth}×${outHeight} resampled read of ${bands.length} band(s)`);
  const cols = nearestIndexes(win.col, win.width, outWidth, lv.width);
  const rows = nearestIndexes(win.row, win.height, outHeight, lv.height);
  const inside = insideMask(cols, rows);
  if (c1 <= c0 || r1 <= r0) {
    const out = bands.map(() => allocate(raster.dtype, n).fill(options.fill));
    return { bands: out, mask: options.withMask && lv.hasMask ? new Uint8Array(n) : null, inside: new Uint8Array(n), level };
  }
  const part = await raster.readWindow(level, { col: c0, row: r0, width: c1 - c0, height: r1 - r0 }, bands, options.signal);
  const srcWin: Window = { col: win.col - c0, row: win.row - r0, width: win.width, height: win.height };
  const validSrc = part.mask;
  const out = part.bands.map((b) => resampleKernel(b, c1 - c0, r1 - r0, srcWin, outWidth, outHeight, options.resampling, validSrc, raster.dtype, options.fill));
  let mask: Uint8Array | null = null;
  if (options.withMask && lv.hasMask && part.mask) {
    // the mask stays 0/255: sampled at the nearest source pixel, never kernel-averaged
    mask = sampleMaskNearest(part.mask, c1 - c0, c0, r0, cols, rows);
  }
  return { bands: out, mask, inside, level };
}
