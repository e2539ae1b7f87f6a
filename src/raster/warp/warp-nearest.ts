/**
 * The nearest warp kernel (warp-sample.ts' `warpSample('nearest', …)`): GWKNearest exactly, source
 * index = floor(coord + 1e-10); a sample is used when `valid` allows it and it is not the nodata.
 */
import type { TypedArray } from '../../dtype.ts';
import { EPS, type SourceRegion, type TargetLayout, type WarpTarget } from './warp-types.ts';

/**
 * Nearest in two passes: each destination pixel's source sample index (or −1: none), one loop over
 * the coordinates alone; then per band a copy through those indices. Where source and target
 * have the same type the copy moves bits through unsigned views of the sample width (so the copy
 * loop sees at most four array types over every dtype: typed-array accesses stay polymorphic,
 * not megamorphic), an integer nodata compared on the same bits; float samples with a nodata
 * keep the value test.
 */
export function nearest(src: SourceRegion, sx: Float64Array, sy: Float64Array, dst: WarpTarget, at: TargetLayout, memo?: NearestMemo): void {
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

/**
 * Source and target of different types, or a NaN nodata: the value test and the target's conversion.
 * The same walk as copyNearest on purpose: one shared loop with a callback or a branch per pixel
 * would make copyNearest's bit copy see every type again (the megamorphic access this file removes).
 */
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
