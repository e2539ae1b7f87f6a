/**
 * Windowed, resampled reads of a multi-level raster the way GDAL's RasterIO does them
 * (what rasterio's `read(window=…, out_shape=…)` returns): pick the overview level, map each
 * output pixel centre to a source pixel, read only the blocks needed (in row strips so memory
 * stays bounded on big un-tiled files), and report which output pixels fall outside the raster.
 */
import type { Window } from '../../geo/bounds.ts';
import { allocate, type DType, type TypedArray } from '../../raster/dtype.ts';
import { resampleKernel } from '../../raster/resample-kernel.ts';
import type { ReadResampling } from '../../raster/resampling.ts';
import { indexSpan, nearestIndexes } from '../../raster/sample-index.ts';
import { chooseLevel, levelFactors } from './overview-choice.ts';

/** What RasterIO needs from a multi-level raster (a TiffDataset satisfies it). */
export interface LeveledRaster {
  readonly dtype: DType;
  readonly levels: ReadonlyArray<{ width: number; height: number; blockWidth: number; blockHeight: number; hasMask: boolean }>;
  readWindow(
    level: number,
    col: number,
    row: number,
    width: number,
    height: number,
    bands: number[],
    signal?: AbortSignal,
  ): Promise<{ bands: TypedArray[]; mask: Uint8Array | null }>;
}

export interface RasterIoResult {
  bands: TypedArray[];
  /** Per-dataset mask sampled like the data (255 valid), when requested and present. */
  mask: Uint8Array | null;
  /** 255 where the output pixel maps inside the raster, 0 outside; null when every pixel is inside. */
  inside: Uint8Array | null;
  /** Level the samples were taken from (0 = full resolution). */
  level: number;
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
  const level = chooseLevel(raster.levels, window.width, window.height, outWidth, outHeight);
  const [fx, fy] = levelFactors(raster.levels, level);
  const lv = raster.levels[level];
  const levelWindow: Window = { col: window.col / fx, row: window.row / fy, width: window.width / fx, height: window.height / fy };
  if (options.resampling !== 'nearest' && (levelWindow.width !== outWidth || levelWindow.height !== outHeight)) {
    return resampledRead(raster, level, levelWindow, outWidth, outHeight, bands, options);
  }
  const cols = nearestIndexes(levelWindow.col, levelWindow.width, outWidth, lv.width);
  const rows = nearestIndexes(levelWindow.row, levelWindow.height, outHeight, lv.height);
  const n = outWidth * outHeight;
  const out = bands.map(() => allocate(raster.dtype, n));
  if (options.fill !== 0) for (const b of out) b.fill(options.fill);
  const wantMask = options.withMask && lv.hasMask;
  const mask = wantMask ? new Uint8Array(n) : null;
  const inside = insideMask(cols, rows);
  const spanX = indexSpan(cols);
  const spanY = indexSpan(rows);
  if (spanX === null || spanY === null) return { bands: out, mask, inside: inside ?? new Uint8Array(n), level };

  const spanWidth = spanX[1] - spanX[0];
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
    const part = await raster.readWindow(level, spanX[0], r0, spanWidth, r1 - r0 + 1, bands, options.signal);
    for (let b = 0; b < bands.length; b++) sampleRows(part.bands[b], spanWidth, spanX[0], r0, cols, rows, i, j, outWidth, out[b]);
    if (mask && part.mask) sampleRows(part.mask, spanWidth, spanX[0], r0, cols, rows, i, j, outWidth, mask);
    i = j;
  }
  return { bands: out, mask, inside, level };
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

function insideMask(cols: Int32Array, rows: Int32Array): Uint8Array | null {
  let allInside = true;
  for (let j = 0; j < cols.length && allInside; j++) if (cols[j] < 0) allInside = false;
  for (let i = 0; i < rows.length && allInside; i++) if (rows[i] < 0) allInside = false;
  if (allInside) return null;
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
  const cols = nearestIndexes(win.col, win.width, outWidth, lv.width);
  const rows = nearestIndexes(win.row, win.height, outHeight, lv.height);
  const inside = insideMask(cols, rows);
  if (c1 <= c0 || r1 <= r0) {
    const out = bands.map(() => allocate(raster.dtype, n).fill(options.fill));
    return { bands: out, mask: options.withMask && lv.hasMask ? new Uint8Array(n) : null, inside: new Uint8Array(n), level };
  }
  const part = await raster.readWindow(level, c0, r0, c1 - c0, r1 - r0, bands, options.signal);
  const srcWin: Window = { col: win.col - c0, row: win.row - r0, width: win.width, height: win.height };
  const validSrc = part.mask;
  const out = part.bands.map((b) =>
    resampleKernel(b, c1 - c0, r1 - r0, srcWin, outWidth, outHeight, options.resampling, validSrc, raster.dtype, options.fill),
  );
  let mask: Uint8Array | null = null;
  if (options.withMask && lv.hasMask && part.mask) {
    mask = resampleKernel(part.mask, c1 - c0, r1 - r0, srcWin, outWidth, outHeight, 'nearest', null, 'uint8', 0) as Uint8Array;
  }
  return { bands: out, mask, inside, level };
}
