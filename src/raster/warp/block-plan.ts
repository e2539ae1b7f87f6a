/**
 * Destination-block plan of a warp, after the idea of GDAL's warper (GDALWarpOperation's
 * CollectChunkList / ComputeSourceWindow): the output is cut into blocks, and a cheap probe —
 * a 5×5 lattice of exactly transformed points spanning the block, edges included — gives each
 * block the source window it can reach, or proves that it reaches none ("empty": filled with
 * nodata, no per-pixel work). A block the probe finds mostly off the source is halved (along its
 * longer side) until it is small (8×8), so the per-pixel work grows with the output pixels
 * that can hold data, not with the output size.
 *
 * Conservative by construction: a block is empty only when every probe point transformed and the
 * points' bounding box, widened by the largest step between neighbouring probe points (the room a
 * smooth mapping has to bulge between samples), one pixel, and the resampling kernel's reach,
 * misses the source. A probe point that fails to transform never proves anything: such blocks
 * are halved down to the small size and then warped pixel by pixel.
 */
import type { PixelTransform } from './approx-row.ts';

/** Output columns [j0, j1) × rows [i0, i1), and the source window [c0, r0, c1, r1) it may read. */
export interface WarpBlock {
  j0: number;
  j1: number;
  i0: number;
  i1: number;
  /** From the probe, clamped to the source; null when a probe point failed (the block reads its own window). */
  window: [number, number, number, number] | null;
}

export interface BlockPlanInput {
  /** Grid pixel coordinates → source pixel coordinates, in place (failures: NaN). */
  exact: PixelTransform;
  /** Grid column / row sampled by each output column / row (−1: none). */
  cols: Int32Array;
  rows: Int32Array;
  /** Source raster size (pixels of the level read). */
  sourceWidth: number;
  sourceHeight: number;
  /** Source pixels a sample reaches beyond its own (resampling kernel), ≥ 0. */
  margin: number;
}

/** Largest block side (output pixels): bounds the per-block coordinate scratch. */
export const MAX_BLOCK_SIDE = 256;
/** Blocks of at most this many output pixels are not halved further. */
const MIN_BLOCK_PIXELS = 8 * 8;
const LATTICE = 5;
/** Source pixels read beyond the probes' box for the mapping's curvature between probe points. */
const READ_SLACK = 2;

type Probe = { kind: 'empty' } | { kind: 'full' | 'partial'; window: [number, number, number, number] | null } | { kind: 'unknown' };

const PX = new Float64Array(LATTICE * LATTICE);
const PY = new Float64Array(LATTICE * LATTICE);

/** The non-empty blocks covering the output, in row-major order of their first pixel. */
export function planBlocks(input: BlockPlanInput): WarpBlock[] {
  const tw = input.cols.length;
  const th = input.rows.length;
  const out: WarpBlock[] = [];
  for (let i0 = 0; i0 < th; i0 += MAX_BLOCK_SIDE) {
    for (let j0 = 0; j0 < tw; j0 += MAX_BLOCK_SIDE) {
      visit(input, j0, Math.min(tw, j0 + MAX_BLOCK_SIDE), i0, Math.min(th, i0 + MAX_BLOCK_SIDE), out);
    }
  }
  return out;
}

function visit(input: BlockPlanInput, j0: number, j1: number, i0: number, i1: number, out: WarpBlock[]): void {
  const probe = probeBlock(input, j0, j1, i0, i1);
  if (probe.kind === 'empty') return;
  const w = j1 - j0;
  const h = i1 - i0;
  if (probe.kind === 'full' || w * h <= MIN_BLOCK_PIXELS) {
    out.push({ j0, j1, i0, i1, window: probe.kind === 'unknown' ? null : probe.window });
    return;
  }
  if (w >= h) {
    const jm = j0 + (w >> 1);
    visit(input, j0, jm, i0, i1, out);
    visit(input, jm, j1, i0, i1, out);
  } else {
    const im = i0 + (h >> 1);
    visit(input, j0, j1, i0, im, out);
    visit(input, j0, j1, im, i1, out);
  }
}

/** First and last index of [a, b) whose entry is ≥ 0, or null. */
function validSpan(idx: Int32Array, a: number, b: number): [number, number] | null {
  let lo = a;
  while (lo < b && idx[lo] < 0) lo++;
  if (lo === b) return null;
  let hi = b - 1;
  while (idx[hi] < 0) hi--;
  return [lo, hi];
}

/** The probe of one block. */
function probeBlock(input: BlockPlanInput, j0: number, j1: number, i0: number, i1: number): Probe {
  const { cols, rows, sourceWidth: W, sourceHeight: H } = input;
  const cs = validSpan(cols, j0, j1);
  const rs = validSpan(rows, i0, i1);
  if (!cs || !rs) return { kind: 'empty' };
  // Lattice positions: grid pixel centres of evenly spread valid output columns / rows.
  // (Indexes between two valid ones may be −1 only at the grid's ends, where they sample nothing.)
  const nx = Math.min(LATTICE, cs[1] - cs[0] + 1);
  const ny = Math.min(LATTICE, rs[1] - rs[0] + 1);
  let n = 0;
  for (let b = 0; b < ny; b++) {
    const i = ny === 1 ? rs[0] : rs[0] + Math.round((b * (rs[1] - rs[0])) / (ny - 1));
    const y = rows[i] < 0 ? rows[rs[0]] + 0.5 : rows[i] + 0.5;
    for (let a = 0; a < nx; a++) {
      const j = nx === 1 ? cs[0] : cs[0] + Math.round((a * (cs[1] - cs[0])) / (nx - 1));
      PX[n] = cols[j] < 0 ? cols[cs[0]] + 0.5 : cols[j] + 0.5;
      PY[n] = y;
      n++;
    }
  }
  const xs = PX.subarray(0, n);
  const ys = PY.subarray(0, n);
  input.exact(xs, ys);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let step = 0;
  for (let k = 0; k < n; k++) {
    const x = xs[k];
    const y = ys[k];
    if (!Number.isFinite(x) || !Number.isFinite(y)) return { kind: 'unknown' };
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    const a = k % nx;
    if (a > 0) step = Math.max(step, Math.abs(x - xs[k - 1]), Math.abs(y - ys[k - 1]));
    if (k >= nx) step = Math.max(step, Math.abs(x - xs[k - nx]), Math.abs(y - ys[k - nx]));
  }
  const slack = step + 1 + input.margin;
  const lx = x0 - slack;
  const ly = y0 - slack;
  const hx = x1 + slack;
  const hy = y1 + slack;
  if (hx < 0 || hy < 0 || lx >= W || ly >= H) return { kind: 'empty' };
  // Mostly over the source (at least half of the widened box): halving would gain little.
  const reach = (hx - lx) * (hy - ly);
  const over = (Math.min(W, Math.floor(hx) + 1) - Math.max(0, Math.floor(lx))) * (Math.min(H, Math.floor(hy) + 1) - Math.max(0, Math.floor(ly)));
  // The window to read is the probes' box with only the kernel's reach and a little room for the
  // mapping's curvature between probes: the whole-step slack above proves emptiness, but reading
  // that far costs ~30 % more block decodes on ordinary tiles. A block whose coordinates bulge
  // beyond it reads its own window (raster/warp/warp-blocks.ts), so pixels do not depend on this.
  const r = READ_SLACK + input.margin;
  const window: [number, number, number, number] = [
    Math.max(0, Math.floor(x0 - r)),
    Math.max(0, Math.floor(y0 - r)),
    Math.min(W, Math.floor(x1 + r) + 1),
    Math.min(H, Math.floor(y1 + r) + 1),
  ];
  if (window[2] <= window[0] || window[3] <= window[1]) return { kind: 'partial', window: null };
  // Every probe point inside the source: no part of the block is far from it, so halving finds
  // nothing to leave out. (The area test alone halves a block whose box is thin — a polar row of
  // a Mercator grid maps onto a sliver of source rows — down to 8×8 for nothing.)
  const inside = x0 >= 0 && y0 >= 0 && x1 <= W && y1 <= H;
  return { kind: inside || over >= 0.5 * reach ? 'full' : 'partial', window };
}
