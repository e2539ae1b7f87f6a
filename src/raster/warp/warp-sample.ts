/**
 * Warp kernels: fill destination pixels from source samples at given source pixel coordinates
 * (GDAL warp-kernel conventions: pixel-is-area, coordinates of destination pixel centres).
 *
 * Nearest follows GWKNearest exactly: source index = floor(coord + 1e-10). The other methods
 * follow GDAL's definitions (bilinear/cubic/cubicspline/lanczos kernels centred at coord − 0.5,
 * statistics over the destination pixel's footprint) without reproducing GDAL's exact footprint
 * geometry, so they can differ from GDAL on a few edge pixels.
 */
import { dtypeRange, isFloat, type DType, type TypedArray } from '../dtype.ts';
import type { WarpResampling } from '../resampling.ts';
import { isInterpolationKernel, kernelRadius, kernelWeight, type InterpolationKernel } from '../kernels.ts';

export interface SourceRegion {
  /** Band samples of a source window; all the same size. */
  bands: TypedArray[];
  /** Per-pixel validity of the window (255 valid), or null when all are valid. */
  valid: Uint8Array | null;
  /** Per-band validity (nodata), or null. Combined with `valid`. Not needed by nearest, which tests `nodata` inline. */
  bandValid: Array<Uint8Array | null> | null;
  /** Source nodata value (NaN allowed): samples equal to it are not copied. */
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
  /** Per-band write mask (nodata datasets keep untouched pixels at their init value). */
  dtype: DType;
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
): void {
  if (method === 'nearest') return nearest(src, sx, sy, dst);
  if (isInterpolationKernel(method)) return convolve(method, kernelRadius(method), src, sx, sy, dst);
  return footprintStatistic(method, src, sx, sy, Math.max(1, scaleX), Math.max(1, scaleY), dst);
}

function nearest(src: SourceRegion, sx: Float64Array, sy: Float64Array, dst: WarpTarget): void {
  const n = sx.length;
  const { width, height, col0, row0, valid, nodata } = src;
  const nb = src.bands.length;
  const hasNodata = nodata !== null;
  const ndNaN = hasNodata && Number.isNaN(nodata);
  const nd = nodata ?? 0;
  for (let i = 0; i < n; i++) {
    const x = sx[i];
    const y = sy[i];
    if (!(x === x) || !(y === y)) continue;
    const c = Math.floor(x + EPS) - col0;
    const r = Math.floor(y + EPS) - row0;
    if (c < 0 || r < 0 || c >= width || r >= height) continue;
    const k = r * width + c;
    if (valid !== null && valid[k] === 0) continue;
    let any = false;
    for (let b = 0; b < nb; b++) {
      const v = src.bands[b][k];
      if (hasNodata && (ndNaN ? v !== v : v === nd)) continue;
      dst.bands[b][i] = v;
      any = true;
    }
    if (any) dst.written[i] = 255;
  }
}

function store(dst: WarpTarget, b: number, i: number, v: number, integer: boolean, lo: number, hi: number): void {
  dst.bands[b][i] = integer ? Math.min(hi, Math.max(lo, Math.round(v))) : v;
}

function convolve(method: InterpolationKernel, radius: number, src: SourceRegion, sx: Float64Array, sy: Float64Array, dst: WarpTarget): void {
  const n = sx.length;
  const integer = !isFloat(dst.dtype);
  const [lo, hi] = dtypeRange(dst.dtype);
  const { width, height, col0, row0, valid, bandValid } = src;
  for (let i = 0; i < n; i++) {
    const x = sx[i] - 0.5 - col0;
    const y = sy[i] - 0.5 - row0;
    if (!(x === x) || !(y === y)) continue;
    // The nearest source pixel must itself be inside the source (as GDAL's kernels require).
    const cn = Math.floor(sx[i] + EPS) - col0;
    const rn = Math.floor(sy[i] + EPS) - row0;
    if (cn < 0 || rn < 0 || cn >= width || rn >= height) continue;
    const cx = Math.floor(x);
    const cy = Math.floor(y);
    let any = false;
    for (let b = 0; b < src.bands.length; b++) {
      const band = src.bands[b];
      const bv = bandValid?.[b] ?? null;
      let acc = 0;
      let wsum = 0;
      for (let r = cy - radius + 1; r <= cy + radius; r++) {
        if (r < 0 || r >= height) continue;
        const wy = kernelWeight(method, y - r);
        if (wy === 0) continue;
        for (let c = cx - radius + 1; c <= cx + radius; c++) {
          if (c < 0 || c >= width) continue;
          const k = r * width + c;
          if ((valid !== null && valid[k] === 0) || (bv !== null && bv[k] === 0)) continue;
          const v = band[k];
          if (v !== v) continue;
          const w = wy * kernelWeight(method, x - c);
          acc += w * v;
          wsum += w;
        }
      }
      if (Math.abs(wsum) < 1e-5) continue;
      store(dst, b, i, acc / wsum, integer, lo, hi);
      any = true;
    }
    if (any) dst.written[i] = 255;
  }
}

function footprintStatistic(
  method: WarpResampling,
  src: SourceRegion,
  sx: Float64Array,
  sy: Float64Array,
  scaleX: number,
  scaleY: number,
  dst: WarpTarget,
): void {
  const n = sx.length;
  const integer = !isFloat(dst.dtype);
  const [lo, hi] = dtypeRange(dst.dtype);
  const { width, height, col0, row0, valid, bandValid } = src;
  const hx = scaleX / 2;
  const hy = scaleY / 2;
  const values: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = sx[i] - col0;
    const y = sy[i] - row0;
    if (!(x === x) || !(y === y)) continue;
    const c0 = Math.max(0, Math.floor(x - hx));
    const c1 = Math.min(width, Math.ceil(x + hx));
    const r0 = Math.max(0, Math.floor(y - hy));
    const r1 = Math.min(height, Math.ceil(y + hy));
    if (c0 >= c1 || r0 >= r1) continue;
    let any = false;
    for (let b = 0; b < src.bands.length; b++) {
      const band = src.bands[b];
      const bv = bandValid?.[b] ?? null;
      values.length = 0;
      weights.length = 0;
      for (let r = r0; r < r1; r++) {
        const wy = Math.min(r + 1, y + hy) - Math.max(r, y - hy);
        if (wy <= 0) continue;
        for (let c = c0; c < c1; c++) {
          const wx = Math.min(c + 1, x + hx) - Math.max(c, x - hx);
          if (wx <= 0) continue;
          const k = r * width + c;
          if ((valid !== null && valid[k] === 0) || (bv !== null && bv[k] === 0)) continue;
          const v = band[k];
          if (v !== v) continue;
          values.push(v);
          weights.push(wx * wy);
        }
      }
      if (values.length === 0) continue;
      store(dst, b, i, reduce(method, values, weights), integer, lo, hi);
      any = true;
    }
    if (any) dst.written[i] = 255;
  }
}

function reduce(method: WarpResampling, values: number[], weights: number[]): number {
  switch (method) {
    case 'min': return Math.min(...values);
    case 'max': return Math.max(...values);
    case 'sum': return values.reduce((a, v) => a + v, 0);
    case 'rms': {
      let acc = 0;
      let w = 0;
      for (let k = 0; k < values.length; k++) {
        acc += values[k] * values[k] * weights[k];
        w += weights[k];
      }
      return Math.sqrt(acc / w);
    }
    case 'mode': {
      const counts = new Map<number, number>();
      let best = values[0];
      let bestCount = 0;
      for (const v of values) {
        const c = (counts.get(v) ?? 0) + 1;
        counts.set(v, c);
        if (c > bestCount) [best, bestCount] = [v, c];
      }
      return best;
    }
    case 'med':
    case 'q1':
    case 'q3': {
      const sorted = [...values].sort((a, b) => a - b);
      const q = method === 'med' ? 0.5 : method === 'q1' ? 0.25 : 0.75;
      return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }
    default: {
      // average: area-weighted mean
      let acc = 0;
      let w = 0;
      for (let k = 0; k < values.length; k++) {
        acc += values[k] * weights[k];
        w += weights[k];
      }
      return acc / w;
    }
  }
}
