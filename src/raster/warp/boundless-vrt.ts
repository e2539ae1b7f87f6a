/**
 * Nearest-neighbour sampling grids exactly as GDAL 3.6 computes them for rasterio reads:
 *
 * - `gdalNearestAxis`: GDALRasterBand::IRasterIO's nearest loop over a floating-point window
 *   (source = window offset + (i + 0.5)·step + 1e-10, truncated and clamped to the raster; x
 *   positions are accumulated step by step, y positions multiplied, as GDAL does).
 * - `boundlessNearestPlan`: rasterio's `read(window, out_shape, boundless=True)`, which reads
 *   an in-memory VRT whose canvas is the window (size trunc(max(raster, window) + 1)) with the
 *   raster as one ComplexSource placed at −window offset. GDAL picks one of the VRT's implicit
 *   overviews (one per raster overview, ≥ 128 px) on the VRT size and rescales the request by
 *   VRT size / overview size, which is not exactly the raster's overview factor; the source
 *   clips the request to the raster (VRTSimpleSource::GetSrcDstWindow: output sub-window
 *   rounded to whole pixels with a 1e-3 tolerance, floating source window corrected to match)
 *   and reads that sub-window from the raster, which makes its own overview choice.
 *   GDAL 3.6 quirk: the implicit overviews serve only the first read of a freshly opened VRT,
 *   i.e. the first band of rasterio's request; the other bands and the mask read that follows
 *   go straight to the raster (`vrtOverviews` false).
 *
 * Written by hand because no library reproduces GDAL's sampling; verified pixel by pixel
 * against rasterio 1.3 / GDAL 3.6.2 reads of index rasters (test/http/tiles-oracle.test.ts).
 */
import { chooseLevel, type LevelSize } from './overview-choice.ts';

const EPS = 1e-10;
const VRT_EPS = 1e-3;
const MIN_VRT_OVERVIEW = 128;

/** Nearest source index per output pixel along one axis (clamped to [0, limit)). */
export function gdalNearestAxis(off: number, size: number, n: number, limit: number, accumulate: boolean): Int32Array {
  const out = new Int32Array(n);
  gdalNearestInto(off, size, n, limit, accumulate, out, 0);
  return out;
}

function gdalNearestInto(off: number, size: number, n: number, limit: number, accumulate: boolean, out: Int32Array, at: number): void {
  const step = size / n;
  const hi = limit - 1;
  let x = 0.5 * step + off + EPS;
  for (let i = 0; i < n; i++) {
    const v = accumulate ? x : (i + 0.5) * step + off + EPS;
    out[at + i] = Math.trunc(Math.min(Math.max(0, v), hi));
    x += step;
  }
}

/** rio-tiler reads boundless when the window starts before or ends at/after the raster edge. */
export function isBoundless(base: LevelSize, w: { col: number; row: number; width: number; height: number }): boolean {
  // A window equal to the whole raster is a preview (rio-tiler reads it without a window).
  if (w.col === 0 && w.row === 0 && w.width === base.width && w.height === base.height) return false;
  return Math.min(w.col, w.row) < 0 || w.col + w.width >= base.width || w.row + w.height >= base.height;
}

export interface NearestPlan {
  /** Level the samples come from (0 = full resolution). */
  level: number;
  /** Source column / row at that level per output column / row; −1 where GDAL writes nothing. */
  cols: Int32Array;
  rows: Int32Array;
}

/** One axis of VRTSimpleSource::GetSrcDstWindow: the source request and covered output span. */
interface AxisWindow {
  reqOff: number; // floating source window
  reqSize: number;
  nReqOff: number; // integer source window
  nReqSize: number;
  outOff: number; // covered output pixels
  outSize: number;
}

/**
 * @param dfOff,dfSize request window on the (overview of the) VRT, VRT pixels
 * @param dstOff,dstSize the raster's place on that VRT level (DstRect)
 * @param srcSize raster size (SrcRect is the whole raster)
 */
function srcDstAxis(dfOff: number, dfSize: number, nBuf: number, dstOff: number, dstSize: number, srcSize: number): AxisWindow | null {
  if (dfOff >= dstOff + dstSize || dfOff + dfSize <= dstOff) return null;
  let modified = false;
  let rOff = dfOff;
  let rSize = dfSize;
  if (rOff < dstOff) {
    rSize = rSize + rOff - dstOff;
    rOff = dstOff;
    modified = true;
  }
  if (rOff + rSize > dstOff + dstSize) {
    rSize = dstOff + dstSize - rOff;
    modified = true;
  }
  const scale = srcSize / dstSize;
  let reqOff = (rOff - dstOff) * scale;
  let reqSize = rSize * scale;
  if (!Number.isFinite(reqOff) || !Number.isFinite(reqSize) || reqSize < 0) return null;
  if (reqOff < 0) {
    reqSize += reqOff;
    reqOff = 0;
    modified = true;
  }
  let nReqOff = Math.floor(reqOff);
  if (reqOff - nReqOff > 1 - VRT_EPS) {
    nReqOff++;
    reqOff = nReqOff;
  }
  let nReqSize = Math.floor(reqSize + 0.5);
  if (nReqSize === 0) nReqSize = 1;
  if (nReqOff + nReqSize > srcSize) {
    nReqSize = srcSize - nReqOff;
    modified = true;
  }
  if (reqOff + reqSize > srcSize) {
    reqSize = srcSize - reqOff;
    modified = true;
  }
  if (nReqOff >= srcSize || nReqSize <= 0) return null;
  let outOff = 0;
  let outSize = nBuf;
  if (modified) {
    const toDst = (v: number): number => (v / srcSize) * dstSize + dstOff;
    const ul = toDst(reqOff);
    const lr = toDst(reqOff + reqSize);
    const winToBuf = nBuf / dfSize;
    const outOffF = (ul - dfOff) * winToBuf;
    outOff = outOffF <= 0 ? 0 : Math.trunc(outOffF + VRT_EPS);
    let delta = ((outOffF - outOff) / winToBuf / dstSize) * srcSize;
    reqOff -= delta;
    reqSize += delta;
    const outRight = (lr - dfOff) * winToBuf;
    if (outRight < outOffF) return null;
    const nOutRight = Math.ceil(outRight - VRT_EPS);
    outSize = nOutRight - outOff;
    if (outOff + outSize > nBuf) outSize = nBuf - outOff;
    delta = ((nOutRight - outRight) / winToBuf / dstSize) * srcSize;
    reqSize += delta;
    if (outSize < 1) return null;
  }
  return { reqOff: roundIfCloseToInt(reqOff), reqSize: roundIfCloseToInt(reqSize), nReqOff, nReqSize, outOff, outSize };
}

function roundIfCloseToInt(v: number): number {
  return snapNearInt(v, EPS);
}

/** `v` rounded to the nearest integer when closer to it than `tolerance`. */
function snapNearInt(v: number, tolerance: number): number {
  const r = Math.floor(v + 0.5);
  return Math.abs(v - r) < tolerance ? r : v;
}

/**
 * rasterio boundless nearest read of `window` (full-resolution pixels, may reach outside the
 * raster) onto outWidth × outHeight, for a raster whose levels are `levels` (0 = full size).
 */
export function boundlessNearestPlan(
  levels: readonly LevelSize[],
  window: { col: number; row: number; width: number; height: number },
  outWidth: number,
  outHeight: number,
  vrtOverviews: boolean,
): NearestPlan {
  const W = levels[0].width;
  const H = levels[0].height;
  const cols = new Int32Array(outWidth).fill(-1);
  const rows = new Int32Array(outHeight).fill(-1);

  // The VRT canvas and the raster's place on it.
  const vw = Math.trunc(Math.max(W, window.width) + 1);
  const vh = Math.trunc(Math.max(H, window.height) + 1);
  // rasterio writes the raster's DstRect as text; GDAL's VRT source snaps DstRect values within
  // 1e-3 of an integer to it (VRTSimpleSource::SetDstWindow), which absorbs the floating noise
  // of tile bounds (a window row of −3584.000000011 is placed at 3584 exactly).
  let dstX = snapNearInt(-window.col, VRT_EPS);
  let dstY = snapNearInt(-window.row, VRT_EPS);
  let dstW = W;
  let dstH = H;
  const nx = Math.trunc(Math.max(1, window.width));
  const ny = Math.trunc(Math.max(1, window.height));
  let dfX = 0;
  let dfY = 0;
  // Request sizes within 1e-3 of a whole number of pixels are read as that whole number, on the
  // VRT and on its implicit overview (matched against rasterio 1.3 / GDAL 3.6.2 on tile windows
  // whose sizes carry the floating noise of tile bounds, e.g. 8191.999999996).
  let dfW = snapNearInt(window.width, VRT_EPS);
  let dfH = snapNearInt(window.height, VRT_EPS);

  // Implicit VRT overviews and GDAL's choice among them.
  if (vrtOverviews && (outWidth < nx || outHeight < ny)) {
    const vrtLevels: LevelSize[] = [{ width: vw, height: vh }];
    const ratios: Array<[number, number]> = [[1, 1]];
    for (let i = 1; i < levels.length; i++) {
      const rx = levels[i].width / W;
      const ry = levels[i].height / H;
      if (rx >= 1 || ry >= 1) continue;
      const ow = Math.trunc(0.5 + vw * rx);
      const oh = Math.trunc(0.5 + vh * ry);
      if (ow < MIN_VRT_OVERVIEW || oh < MIN_VRT_OVERVIEW) break;
      vrtLevels.push({ width: ow, height: oh });
      ratios.push([rx, ry]);
    }
    const k = chooseLevel(vrtLevels, nx, ny, outWidth, outHeight);
    if (k > 0) {
      const fx = vw / vrtLevels[k].width;
      const fy = vh / vrtLevels[k].height;
      dfX /= fx;
      dfW = snapNearInt(dfW / fx, VRT_EPS);
      dfY /= fy;
      dfH = snapNearInt(dfH / fy, VRT_EPS);
      dstX *= ratios[k][0];
      dstW *= ratios[k][0];
      dstY *= ratios[k][1];
      dstH *= ratios[k][1];
    }
  }

  // The source's part of the request, then the raster's own RasterIO of it.
  const ax = srcDstAxis(dfX, dfW, outWidth, dstX, dstW, W);
  const ay = srcDstAxis(dfY, dfH, outHeight, dstY, dstH, H);
  if (!ax || !ay) return { level: 0, cols, rows };
  const level = ax.outSize < ax.nReqSize || ay.outSize < ay.nReqSize ? chooseLevel(levels, ax.nReqSize, ay.nReqSize, ax.outSize, ay.outSize) : 0;
  const fx = W / levels[level].width;
  const fy = H / levels[level].height;
  gdalNearestInto(ax.reqOff / fx, ax.reqSize / fx, ax.outSize, levels[level].width, true, cols, ax.outOff);
  gdalNearestInto(ay.reqOff / fy, ay.reqSize / fy, ay.outSize, levels[level].height, false, rows, ay.outOff);
  return { level, cols, rows };
}

export function samePlan(a: NearestPlan, b: NearestPlan): boolean {
  if (a.level !== b.level || a.cols.length !== b.cols.length || a.rows.length !== b.rows.length) return false;
  for (let i = 0; i < a.cols.length; i++) if (a.cols[i] !== b.cols[i]) return false;
  for (let i = 0; i < a.rows.length; i++) if (a.rows[i] !== b.rows[i]) return false;
  return true;
}
