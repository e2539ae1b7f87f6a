/**
 * A warp onto a sampled grid, block by block (see block-plan.ts): only the blocks whose probe can
 * reach the source get coordinates — one block's worth at a time — and samples.
 *
 * The coordinates of every output pixel are bit for bit those of the whole-output scheme this
 * replaces: each comes from GDAL's approximate transformer run over its 512-pixel VRT block row
 * (approxRowAt gives a wanted point the same value whichever other points are wanted), and the
 * source window each block samples contains every source pixel its coordinates (and kernels)
 * touch, so the kernels see what a window around all coordinates would show them.
 */
import type { WarpResampling } from '../resampling.ts';
import { isInterpolationKernel } from '../kernels.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';
import { currentSharedWork } from '../../util/shared-work.ts';
import { approxRowAt, type PixelTransform } from './approx-row.ts';
import { MAX_BLOCK_SIDE, planBlocks, type WarpBlock } from './block-plan.ts';
import { warpSample, type NearestMemo, type SourceRegion, type WarpTarget } from './warp-sample.ts';

/** Source window [c0, r0, c1, r1) in pixels of the source raster read. */
export type SourceWindow = [number, number, number, number];

export interface BlockWarp {
  /** Grid pixel coordinates → source pixel coordinates, in place (failures: NaN). */
  exact: PixelTransform;
  /** Grid column / row sampled by each output column / row (−1: none). */
  cols: Int32Array;
  rows: Int32Array;
  gridWidth: number;
  /** Width of the VRT blocks the approximate transformer runs over, and its error budget (px). */
  vrtBlockWidth: number;
  maxError: number;
  sourceWidth: number;
  sourceHeight: number;
  method: WarpResampling;
  /** Source pixels read around the coordinates' span (resampling kernels). */
  margin: number;
  /**
   * Names every input of the coordinates (grid, source transform, CRSs, sizes) exactly: inside a
   * time series' shared-work scope (util/shared-work.ts) the steps then compute them once.
   */
  key?: string;
}

export interface BlockWarpSource {
  /** Reads a source window (bands, validity); the caller checks its size. */
  read(window: SourceWindow): Promise<SourceRegion>;
  /** Hands a region's buffers back once its samples are copied. */
  release(region: SourceRegion): void;
}

/** The VRT block columns an output column range samples, with the wanted positions in each. */
interface RowGroup {
  c0: number;
  n: number;
  /** Output columns [ja, jb) relative to the block's first column. */
  ja: number;
  jb: number;
  at: Int32Array;
}

/**
 * Warps into `target` (bands of cols.length × rows.length samples, already filled with nodata;
 * `written` zeroed). Blocks that cannot reach the source are left as they are.
 */
export async function warpBlocks(job: BlockWarp, source: BlockWarpSource, target: WarpTarget): Promise<void> {
  const statistic = job.method !== 'nearest' && !isInterpolationKernel(job.method);
  const [scaleX, scaleY] = statistic ? footprintScale(job) : [1, 1];
  // A footprint reaches half its size around the coordinate: read that far, so no window edge
  // (only the raster's) ever clips it.
  const margin = statistic ? Math.max(job.margin, Math.ceil(Math.max(scaleX, scaleY) / 2) + 1) : job.margin;
  const work = job.key === undefined ? undefined : currentSharedWork();
  if (work !== undefined) {
    // a time series: every step over this grid and source transform has these coordinates
    const kept = await work.get(`warp ${job.key} ${job.method} ${margin}`, 16 * job.cols.length * job.rows.length, () => keptCoordinates(job, margin));
    await sampleBlocks(job, kept.blocks, (k) => kept.coordinates[k]!, source, target, scaleX, scaleY);
    return;
  }
  const blocks = planBlocks({ exact: job.exact, cols: job.cols, rows: job.rows, sourceWidth: job.sourceWidth, sourceHeight: job.sourceHeight, margin });
  if (blocks.length === 0) return;
  const side = MAX_BLOCK_SIDE * MAX_BLOCK_SIDE;
  const sx = BUFFER_POOL.array('float64', side) as Float64Array;
  const sy = BUFFER_POOL.array('float64', side) as Float64Array;
  try {
    await sampleBlocks(job, blocks, (k) => scratchCoordinates(job, blocks[k]!, sx, sy, margin), source, target, scaleX, scaleY);
  } finally {
    BUFFER_POOL.release(sx.buffer, sy.buffer);
  }
}

/** A block's source coordinates (row-major, block width) and the source window they span. */
interface Coordinates {
  x: Float64Array;
  y: Float64Array;
  span: SourceWindow | null;
  /** Kept coordinates (a series): their nearest source indices, reused by the next steps. */
  memo?: NearestMemo;
}

/** The planned blocks of a warp with every block's coordinates, computed once (shared-work scope). */
interface KeptCoordinates {
  blocks: WarpBlock[];
  coordinates: Coordinates[];
}

function scratchCoordinates(job: BlockWarp, b: WarpBlock, sx: Float64Array, sy: Float64Array, margin: number): Coordinates {
  const n = (b.j1 - b.j0) * (b.i1 - b.i0);
  const x = sx.subarray(0, n);
  const y = sy.subarray(0, n);
  blockCoordinates(job, b, x, y);
  return { x, y, span: coordSpan(x, y, job.sourceWidth, job.sourceHeight, margin) };
}

async function keptCoordinates(job: BlockWarp, margin: number): Promise<KeptCoordinates> {
  const blocks = planBlocks({ exact: job.exact, cols: job.cols, rows: job.rows, sourceWidth: job.sourceWidth, sourceHeight: job.sourceHeight, margin });
  const coordinates: Coordinates[] = [];
  for (const b of blocks) {
    if (mustYield()) await yieldToLoop();
    const n = (b.j1 - b.j0) * (b.i1 - b.i0);
    coordinates.push({ ...scratchCoordinates(job, b, new Float64Array(n), new Float64Array(n), margin), memo: {} });
  }
  return { blocks, coordinates };
}

/**
 * Samples every block whose coordinates reach the source: one read for the windows the probes
 * found; a block whose coordinates reach beyond it (a probe point failed, or the mapping bulged
 * more than the probe allowed for) reads its own.
 */
async function sampleBlocks(
  job: BlockWarp,
  blocks: readonly WarpBlock[],
  coordinatesOf: (k: number) => Coordinates,
  source: BlockWarpSource,
  target: WarpTarget,
  scaleX: number,
  scaleY: number,
): Promise<void> {
  if (blocks.length === 0) return;
  const union = unionWindow(blocks);
  const shared = union ? await source.read(union) : null;
  try {
    const tw = job.cols.length;
    for (let k = 0; k < blocks.length; k++) {
      // a block is at most 256² samples: yield between blocks, so a big warp never holds the loop
      if (mustYield()) await yieldToLoop();
      const b = blocks[k]!;
      const { x, y, span, memo } = coordinatesOf(k);
      if (!span) continue;
      const layout = { offset: b.i0 * tw + b.j0, stride: tw, width: b.j1 - b.j0 };
      if (shared && contains(shared, span)) {
        warpSample(job.method, shared, x, y, scaleX, scaleY, target, layout, memo);
        continue;
      }
      const own = await source.read(span);
      try {
        warpSample(job.method, own, x, y, scaleX, scaleY, target, layout, memo);
      } finally {
        source.release(own);
      }
    }
  } finally {
    if (shared) source.release(shared);
  }
}

function unionWindow(blocks: readonly WarpBlock[]): SourceWindow | null {
  let u: SourceWindow | null = null;
  for (const b of blocks) {
    const w = b.window;
    if (!w) continue;
    if (!u) u = [w[0], w[1], w[2], w[3]];
    else u = [Math.min(u[0], w[0]), Math.min(u[1], w[1]), Math.max(u[2], w[2]), Math.max(u[3], w[3])];
  }
  return u;
}

function contains(r: SourceRegion, w: SourceWindow): boolean {
  return w[0] >= r.col0 && w[1] >= r.row0 && w[2] <= r.col0 + r.width && w[3] <= r.row0 + r.height;
}

/** Groups of the block's output columns by VRT block column (columns are non-decreasing). */
function rowGroups(job: BlockWarp, j0: number, j1: number): RowGroup[] {
  const { cols, vrtBlockWidth: vb, gridWidth } = job;
  const groups: RowGroup[] = [];
  let j = j0;
  while (j < j1) {
    if (cols[j] < 0) {
      j++;
      continue;
    }
    const c0 = Math.floor(cols[j] / vb) * vb;
    const n = Math.min(vb, gridWidth - c0);
    let k = j;
    while (k < j1 && cols[k] >= c0 && cols[k] < c0 + n) k++;
    const at = new Int32Array(k - j);
    for (let m = j; m < k; m++) at[m - j] = cols[m] - c0;
    groups.push({ c0, n, ja: j - j0, jb: k - j0, at });
    j = k;
  }
  return groups;
}

/**
 * Source coordinates of the block's pixels (row-major, block width), NaN where none. Every
 * sample is written (the scratch holds the previous block's): NaN is filled only where no
 * group's row writes, not over the whole block first.
 */
function blockCoordinates(job: BlockWarp, b: WarpBlock, sx: Float64Array, sy: Float64Array): void {
  const groups = rowGroups(job, b.j0, b.j1);
  const bw = b.j1 - b.j0;
  for (let i = b.i0; i < b.i1; i++) {
    const r = job.rows[i];
    const o = (i - b.i0) * bw;
    if (r < 0) {
      sx.fill(NaN, o, o + bw);
      sy.fill(NaN, o, o + bw);
      continue;
    }
    let j = 0; // groups are in column order: fill the gaps between them
    for (const g of groups) {
      if (g.ja > j) {
        sx.fill(NaN, o + j, o + g.ja);
        sy.fill(NaN, o + j, o + g.ja);
      }
      approxRowAt(job.exact, g.c0, r + 0.5, g.n, job.maxError, g.at, sx, sy, o + g.ja);
      j = g.jb;
    }
    if (j < bw) {
      sx.fill(NaN, o + j, o + bw);
      sy.fill(NaN, o + j, o + bw);
    }
  }
}

/** Source coordinates of output pixel (i, j), as the whole-output scheme computes them. */
function coordinateAt(job: BlockWarp, i: number, j: number): [number, number] {
  const r = job.rows[i];
  const c = job.cols[j];
  if (r < 0 || c < 0) return [NaN, NaN];
  const x = new Float64Array(1);
  const y = new Float64Array(1);
  const c0 = Math.floor(c / job.vrtBlockWidth) * job.vrtBlockWidth;
  approxRowAt(job.exact, c0, r + 0.5, Math.min(job.vrtBlockWidth, job.gridWidth - c0), job.maxError, Int32Array.of(c - c0), x, y);
  return [x[0], y[0]];
}

/**
 * Source pixels per grid pixel along x and y (the footprint of the statistical methods), measured
 * across the middle output row and down the middle output column.
 */
function footprintScale(job: BlockWarp): [number, number] {
  const { cols, rows } = job;
  const tw = cols.length;
  const th = rows.length;
  const mi = th >> 1;
  const mj = tw >> 1;
  const [ax, ay] = coordinateAt(job, mi, 0);
  const [bx, by] = coordinateAt(job, mi, tw - 1);
  const [cx, cy] = coordinateAt(job, 0, mj);
  const [dx_, dy_] = coordinateAt(job, th - 1, mj);
  const dx = Math.hypot(bx - ax, by - ay) / Math.max(1, cols[tw - 1] - cols[0]);
  const dy = Math.hypot(dx_ - cx, dy_ - cy) / Math.max(1, rows[th - 1] - rows[0]);
  return [Number.isFinite(dx) && dx > 0 ? dx : 1, Number.isFinite(dy) && dy > 0 ? dy : 1];
}

/** The bounds of the last `scanSpan`: module variables, not a returned object (see scanSpan). */
let spanX0 = Infinity;
let spanY0 = Infinity;
let spanX1 = -Infinity;
let spanY1 = -Infinity;

/**
 * The min/max of the finite coordinates into span*, a loop with nothing after it that needs type
 * feedback: V8 compiles a long loop while its first call is still inside it (on-stack replacement),
 * before the compares after the loop ever ran, and the compiled code then bailed out at the first of
 * them on every call ("Insufficient type feedback for compare operation": coordSpan was deoptimised
 * on each warm-up and first-tile call and compiled again). Stores to module variables need none.
 */
function scanSpan(sx: Float64Array, sy: Float64Array): void {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < sx.length; i++) {
    const x = sx[i];
    const y = sy[i];
    if (!(x === x) || !(y === y)) continue;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  spanX0 = x0;
  spanY0 = y0;
  spanX1 = x1;
  spanY1 = y1;
}

/** Integer source window [c0, r0, c1, r1) covering the finite coordinates (clamped), or null. */
function coordSpan(sx: Float64Array, sy: Float64Array, width: number, height: number, margin: number): SourceWindow | null {
  scanSpan(sx, sy);
  if (spanX0 === Infinity) return null;
  const c0 = Math.max(0, Math.floor(spanX0) - margin);
  const r0 = Math.max(0, Math.floor(spanY0) - margin);
  const c1 = Math.min(width, Math.floor(spanX1) + 1 + margin);
  const r1 = Math.min(height, Math.floor(spanY1) + 1 + margin);
  return c1 > c0 && r1 > r0 ? [c0, r0, c1, r1] : null;
}
