/** The warp kernels' source window, target and target layout (warp-sample.ts, warp-nearest.ts). */
import type { DType, TypedArray } from '../../dtype.ts';

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

/** GWKNearest's floor(coord + 1e-10); shared by every kernel's sample position. */
export const EPS = 1e-10;
