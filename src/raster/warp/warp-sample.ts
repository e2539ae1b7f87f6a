/**
 * Warp kernels: fill destination pixels from source samples at given source pixel coordinates
 * (GDAL warp-kernel conventions: pixel-is-area, coordinates of destination pixel centres).
 *
 * Nearest follows GWKNearest exactly: source index = floor(coord + 1e-10). The other methods
 * follow GDAL's definitions (bilinear/cubic/cubicspline/lanczos kernels centred at coord − 0.5,
 * statistics over the destination pixel's footprint) without reproducing GDAL's exact footprint
 * geometry, so they can differ from GDAL on a few edge pixels.
 *
 * Validity is the same for every method: a source sample is used when `valid` allows it, it is
 * not NaN and it is not the nodata value (tested inline, per band).
 */
import { dtypeRange, isFloat, roundToRange } from '../../dtype.ts';
import type { WarpResampling } from '../resampling.ts';
import { isInterpolationKernel, kernelRadius, kernelWeight, type InterpolationKernel } from '../kernels.ts';
import { nearest, type NearestMemo } from './warp-nearest.ts';
import { EPS, type SourceRegion, type TargetLayout, type WarpTarget } from './warp-types.ts';

export type { NearestMemo };

export type { SourceRegion, TargetLayout, WarpTarget };

/**
 * @param sx source x (level pixel coordinates) per destination pixel, NaN when the transform failed
 * @param scaleX source pixels per destination pixel along x (footprint size for statistical methods)
 */
export function warpSample(
  method: WarpResampling,
  src: SourceRegion,
  sx: Float64Array,
  sy: Float64Array,
  scaleX: number,
  scaleY: number,
  dst: WarpTarget,
  layout?: TargetLayout,
  memo?: NearestMemo,
): void {
  const at = layout ?? { offset: 0, stride: sx.length, width: sx.length };
  if (at.width === 0) return;
  if (method === 'nearest') return nearest(src, sx, sy, dst, at, memo);
  if (isInterpolationKernel(method)) return convolve(method, kernelRadius(method), src, sx, sy, dst, at);
  return footprintStatistic(method, src, sx, sy, Math.max(1, scaleX), Math.max(1, scaleY), dst, at);
}

/**
 * `nodata` as a value no sample can equal (NaN samples are skipped separately), so the hot loops
 * test it with one comparison: NaN for "no nodata" or a NaN nodata.
 */
function nodataValue(src: SourceRegion): number {
  return src.nodata === null ? NaN : src.nodata;
}

function convolve(method: InterpolationKernel, radius: number, src: SourceRegion, sx: Float64Array, sy: Float64Array, dst: WarpTarget, at: TargetLayout): void {
  const n = sx.length;
  const integer = !isFloat(dst.dtype);
  const [lo, hi] = dtypeRange(dst.dtype);
  const { width, height, col0, row0, valid } = src;
  const nd = nodataValue(src);
  const nb = src.bands.length;
  const taps = 2 * radius;
  // kernel weights of the destination pixel's rows and columns, shared by every band
  const wys = new Float64Array(taps);
  const wxs = new Float64Array(taps);
  const w = at.width;
  // d: where sample i lands (the layout's next index; past a row's end, the next row's start)
  for (let i = 0, d = at.offset, col = 0; i < n; i++, d = ++col === w ? ((col = 0), d + at.stride - w + 1) : d + 1) {
    const x = sx[i] - 0.5 - col0;
    const y = sy[i] - 0.5 - row0;
    if (!(x === x) || !(y === y)) continue;
    // The nearest source pixel must itself be inside the source (as GDAL's kernels require).
    const cn = Math.floor(sx[i] + EPS) - col0;
    const rn = Math.floor(sy[i] + EPS) - row0;
    if (cn < 0 || rn < 0 || cn >= width || rn >= height) continue;
    const rFirst = Math.floor(y) - radius + 1;
    const cFirst = Math.floor(x) - radius + 1;
    for (let t = 0; t < taps; t++) {
      const r = rFirst + t;
      wys[t] = r < 0 || r >= height ? 0 : kernelWeight(method, y - r);
      const c = cFirst + t;
      wxs[t] = c < 0 || c >= width ? 0 : kernelWeight(method, x - c);
    }
    let any = false;
    for (let b = 0; b < nb; b++) {
      const band = src.bands[b];
      let acc = 0;
      let wsum = 0;
      for (let ty = 0; ty < taps; ty++) {
        const wy = wys[ty];
        if (wy === 0) continue; // also every row outside the source
        const rowBase = (rFirst + ty) * width + cFirst;
        for (let tx = 0; tx < taps; tx++) {
          const c = cFirst + tx;
          if (c < 0 || c >= width) continue;
          const k = rowBase + tx;
          if (valid !== null && valid[k] === 0) continue;
          const v = band[k];
          if (v !== v || v === nd) continue;
          const w = wy * wxs[tx];
          acc += w * v;
          wsum += w;
        }
      }
      if (Math.abs(wsum) < 1e-5) continue;
      const value = acc / wsum;
      dst.bands[b][d] = integer ? roundToRange(value, lo, hi) : value;
      any = true;
    }
    if (any) dst.written[d] = 255;
  }
}

/** Reusable buffers of footprintStatistic (one per call: no per-pixel allocation). */
interface Footprint {
  values: Float64Array;
  weights: Float64Array;
  count: number;
  modeCounts: Map<number, number>;
}

function footprintStatistic(
  method: WarpResampling,
  src: SourceRegion,
  sx: Float64Array,
  sy: Float64Array,
  scaleX: number,
  scaleY: number,
  dst: WarpTarget,
  at: TargetLayout,
): void {
  const n = sx.length;
  const integer = !isFloat(dst.dtype);
  const [lo, hi] = dtypeRange(dst.dtype);
  const { width, height, col0, row0, valid } = src;
  const nd = nodataValue(src);
  const nb = src.bands.length;
  const hx = scaleX / 2;
  const hy = scaleY / 2;
  // a footprint spans fewer than scale + 2 pixels per axis, and never more than the window
  const maxCols = Math.min(width, Math.ceil(scaleX) + 2);
  const maxRows = Math.min(height, Math.ceil(scaleY) + 2);
  const fp: Footprint = {
    values: new Float64Array(maxCols * maxRows),
    weights: new Float64Array(maxCols * maxRows),
    count: 0,
    modeCounts: new Map(),
  };
  const wxs = new Float64Array(maxCols);
  const wys = new Float64Array(maxRows);
  const w = at.width;
  // d: where sample i lands (the layout's next index; past a row's end, the next row's start)
  for (let i = 0, d = at.offset, col = 0; i < n; i++, d = ++col === w ? ((col = 0), d + at.stride - w + 1) : d + 1) {
    // In the source's own pixel coordinates (not the window's), so that the footprint's edges
    // and weights do not depend on where the window read happens to start.
    const x = sx[i];
    const y = sy[i];
    if (!(x === x) || !(y === y)) continue;
    const c0 = Math.max(col0, Math.floor(x - hx)) - col0;
    const c1 = Math.min(col0 + width, Math.ceil(x + hx)) - col0;
    const r0 = Math.max(row0, Math.floor(y - hy)) - row0;
    const r1 = Math.min(row0 + height, Math.ceil(y + hy)) - row0;
    if (c0 >= c1 || r0 >= r1) continue;
    // overlap of each source row / column with the footprint, shared by every band
    for (let r = r0; r < r1; r++) wys[r - r0] = Math.min(r + row0 + 1, y + hy) - Math.max(r + row0, y - hy);
    for (let c = c0; c < c1; c++) wxs[c - c0] = Math.min(c + col0 + 1, x + hx) - Math.max(c + col0, x - hx);
    let any = false;
    for (let b = 0; b < nb; b++) {
      const band = src.bands[b];
      let count = 0;
      for (let r = r0; r < r1; r++) {
        const wy = wys[r - r0];
        if (wy <= 0) continue;
        for (let c = c0; c < c1; c++) {
          const wx = wxs[c - c0];
          if (wx <= 0) continue;
          const k = r * width + c;
          if (valid !== null && valid[k] === 0) continue;
          const v = band[k];
          if (v !== v || v === nd) continue;
          fp.values[count] = v;
          fp.weights[count] = wx * wy;
          count++;
        }
      }
      if (count === 0) continue;
      fp.count = count;
      const value = reduce(method, fp);
      dst.bands[b][d] = integer ? roundToRange(value, lo, hi) : value;
      any = true;
    }
    if (any) dst.written[d] = 255;
  }
}

/** The statistic of fp.values[0..count) (weights: area of each sample inside the footprint). */
function reduce(method: WarpResampling, fp: Footprint): number {
  const { values, weights, count } = fp;
  switch (method) {
    case 'min': {
      let m = values[0];
      for (let k = 1; k < count; k++) if (values[k] < m) m = values[k];
      return m;
    }
    case 'max': {
      let m = values[0];
      for (let k = 1; k < count; k++) if (values[k] > m) m = values[k];
      return m;
    }
    case 'sum': {
      let acc = 0;
      for (let k = 0; k < count; k++) acc += values[k];
      return acc;
    }
    case 'rms': {
      let acc = 0;
      let w = 0;
      for (let k = 0; k < count; k++) {
        acc += values[k] * values[k] * weights[k];
        w += weights[k];
      }
      return Math.sqrt(acc / w);
    }
    case 'mode': {
      // most frequent value; the first one reaching the top count wins ties
      const counts = fp.modeCounts;
      counts.clear();
      let best = values[0];
      let bestCount = 0;
      for (let k = 0; k < count; k++) {
        const v = values[k];
        const c = (counts.get(v) ?? 0) + 1;
        counts.set(v, c);
        if (c > bestCount) {
          best = v;
          bestCount = c;
        }
      }
      return best;
    }
    case 'med':
    case 'q1':
    case 'q3': {
      const sorted = values.subarray(0, count).sort(); // in place: the scratch is refilled per band
      const q = method === 'med' ? 0.5 : method === 'q1' ? 0.25 : 0.75;
      return sorted[Math.min(count - 1, Math.floor(q * count))];
    }
    default: {
      // average: area-weighted mean
      let acc = 0;
      let w = 0;
      for (let k = 0; k < count; k++) {
        acc += values[k] * weights[k];
        w += weights[k];
      }
      return acc / w;
    }
  }
}
