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
import { dtypeRange, isFloat, roundToRange, type DType, type TypedArray } from '../../dtype.ts';
import type { WarpResampling } from '../resampling.ts';
import { isInterpolationKernel, kernelRadius, kernelWeight, type InterpolationKernel } from '../kernels.ts';

export interface SourceRegion {
  /** Band samples of a source window; all the same size. */
  bands: TypedArray[];
  /** Per-pixel validity of the window (255 valid), or null when all are valid. */
  valid: Uint8Array | null;
  /** Source nodata value (NaN allowed): samples equal to it are left out (per band). */
  nodata: number | null;
  col0: number;
  row0: number;
  width: number;
  height: number;
}

export interface WarpTarget {
  bands: TypedArray[];
  /** Set to 255 where at least one source sample contributed. */
  written: Uint8Array;
  /** Dtype of `bands`: integer results are rounded and clamped to its range. */
  dtype: DType;
}

/**
 * Where the samples go in the target: sample i (of rows `width` samples long) lands at
 * offset + floor(i / width)·stride + i mod width. Without it, sample i lands at index i.
 */
export interface TargetLayout {
  offset: number;
  stride: number;
  width: number;
}

const EPS = 1e-10;

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

/**
 * Nearest in two passes: each destination pixel's source sample index (or −1: none), one loop over
 * the coordinates alone; then per band a copy through those indices. Where source and target
 * have the same type the copy moves bits through unsigned views of the sample width (so the copy
 * loop sees at most four array types over every dtype: typed-array accesses stay polymorphic,
 * not megamorphic), an integer nodata compared on the same bits; float samples with a nodata
 * keep the value test.
 */
function nearest(src: SourceRegion, sx: Float64Array, sy: Float64Array, dst: WarpTarget, at: TargetLayout, memo?: NearestMemo): void {
  const n = sx.length;
  const index = memo === undefined ? nearestIndices(src, sx, sy) : memoIndices(memo, src, sx, sy);
  const nd = src.nodata;
  for (let b = 0; b < src.bands.length; b++) {
    const from = src.bands[b]!;
    const to = dst.bands[b]!;
    // float samples with a nodata keep the value test (NaN's many bit patterns, −0 equal to 0)
    if (from.constructor === to.constructor && (nd === null || !isFloatArray(from))) {
      copyNearest(bitView(from), bitView(to), index, n, nd === null ? NaN : bitsOf(from, nd), dst.written, at);
    } else {
      copyNearestValues(from, to, index, n, nd, dst.written, at);
    }
  }
}

/**
 * Kept with coordinates that several warps use (a time series' steps over one grid): the source
 * indices of the latest source window without a validity mask, reused while the window is the same.
 */
export interface NearestMemo {
  window?: { col0: number; row0: number; width: number; height: number; index: Int32Array };
}

function memoIndices(memo: NearestMemo, src: SourceRegion, sx: Float64Array, sy: Float64Array): Int32Array {
  const w = memo.window;
  if (src.valid !== null) return nearestIndices(src, sx, sy);
  if (w !== undefined && w.col0 === src.col0 && w.row0 === src.row0 && w.width === src.width && w.height === src.height) return w.index;
  const index = nearestIndices(src, sx, sy).slice(0, sx.length);
  memo.window = { col0: src.col0, row0: src.row0, width: src.width, height: src.height, index };
  return index;
}

let scratchIndex = new Int32Array(0);

/** Source sample index of each coordinate pair, −1 outside the window, NaN or invalid. */
function nearestIndices(src: SourceRegion, sx: Float64Array, sy: Float64Array): Int32Array {
  const n = sx.length;
  if (scratchIndex.length < n) scratchIndex = new Int32Array(Math.max(n, 1 << 16));
  const index = scratchIndex;
  const { width, height, col0, row0, valid } = src;
  for (let i = 0; i < n; i++) {
    // NaN coordinates fail every comparison
    const c = Math.floor(sx[i]! + EPS) - col0;
    const r = Math.floor(sy[i]! + EPS) - row0;
    index[i] = c >= 0 && r >= 0 && c < width && r < height ? r * width + c : -1;
  }
  if (valid !== null) {
    for (let i = 0; i < n; i++) {
      const k = index[i]!;
      if (k >= 0 && valid[k] === 0) index[i] = -1;
    }
  }
  return index;
}

type BitArray = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** The same bytes as unsigned integers of the sample width (8-byte samples: as float64, copied bit for bit). */
function bitView(a: TypedArray): BitArray {
  switch (a.BYTES_PER_ELEMENT) {
    case 1:
      return a instanceof Uint8Array ? a : new Uint8Array(a.buffer, a.byteOffset, a.length);
    case 2:
      return a instanceof Uint16Array ? a : new Uint16Array(a.buffer, a.byteOffset, a.length);
    case 4:
      return a instanceof Uint32Array ? a : new Uint32Array(a.buffer, a.byteOffset, a.length);
    default:
      return a instanceof Float64Array ? a : new Float64Array(a.buffer, a.byteOffset, a.length);
  }
}

const isFloatArray = (a: TypedArray): boolean => a instanceof Float32Array || a instanceof Float64Array;

/** Integer `value` stored in `a`'s type, read back through bitView: the bits a sample equal to it has (NaN: no sample can). */
function bitsOf(a: TypedArray, value: number): number {
  const one = new (a.constructor as new (n: number) => TypedArray)(1);
  one[0] = value;
  // a value the type cannot hold (e.g. nodata 300 on uint8) equals no sample
  if (one[0] !== value) return NaN;
  return bitView(one)[0]!;
}

function copyNearest(from: BitArray, to: BitArray, index: Int32Array, n: number, skip: number, written: Uint8Array, at: TargetLayout): void {
  const w = at.width;
  for (let i = 0, row = at.offset; i < n; row += at.stride) {
    for (let d = row, end = i + w; i < end; i++, d++) {
      const k = index[i]!;
      if (k < 0) continue;
      const v = from[k]!;
      if (v === skip) continue;
      to[d] = v;
      written[d] = 255;
    }
  }
}

/** Source and target of different types, or a NaN nodata: the value test and the target's conversion. */
function copyNearestValues(from: TypedArray, to: TypedArray, index: Int32Array, n: number, nodata: number | null, written: Uint8Array, at: TargetLayout): void {
  const ndNaN = nodata !== null && Number.isNaN(nodata);
  const w = at.width;
  for (let i = 0, row = at.offset; i < n; row += at.stride) {
    for (let d = row, end = i + w; i < end; i++, d++) {
      const k = index[i]!;
      if (k < 0) continue;
      const v = from[k]!;
      if (nodata !== null && (ndNaN ? v !== v : v === nodata)) continue;
      to[d] = v;
      written[d] = 255;
    }
  }
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
