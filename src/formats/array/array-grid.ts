/**
 * Variables of an array file (HDF5/NetCDF/Zarr) as a GridDataset: the bands are the selected
 * variables (each one band, or one per value of the single non-spatial dimension `sel` left),
 * the grid is their common x/y axes made north-up and west-to-east (array-grid-plan.ts builds
 * the plan), and `readWindow` reads the hyperslabs a window needs from the shared chunk cache
 * and CF-decodes them into the output bands. One level: arrays have no overviews here.
 */
import { bytesPerSample, type DType, type TypedArray } from '../../dtype.ts';
import { Errors } from '../../errors.ts';
import type { GeoTransform } from '../../geo/affine.ts';
import { boundsFromGeoTransform } from '../../geo/affine.ts';
import type { Bounds, Window } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs-type.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';
import type { GridBand, GridDataset, GridLevel, GridWindowRead, NodataType } from '../grid-dataset.ts';
import type { ArrayFile } from './array-model.ts';
import type { ChunkCache } from './chunk-cache.ts';
import { copyRun, decodeRun, decodeRunMany } from './decode-run.ts';
import { readHyperslab } from './hyperslab.ts';
import { axisRuns, type AxisRun, type OutputAxis } from './spatial-axes.ts';
import type { VariablePlan } from './variable-plan.ts';

export interface ArrayGridPlan {
  file: ArrayFile;
  crs: Crs;
  x: OutputAxis;
  y: OutputAxis;
  variables: VariablePlan[];
  dtype: DType;
  /** Identity of the selection (variables, group, sel, decode_times), part of `version`. */
  selectionKey: string;
  /** The file version the grid was opened at (default: the file's). */
  fileVersion?: string;
}

/** Which variable and which index along its band axis a band reads. */
interface BandSource {
  plan: VariablePlan;
  index: number;
}

export class ArrayGrid implements GridDataset {
  readonly location: string;
  readonly version: string;
  readonly driver: string;
  /** Parts on exactly the requested bounds, as rio-tiler's XarrayReader reads them (GridDataset.exactBoundsParts). */
  readonly exactBoundsParts = true;
  readonly width: number;
  readonly height: number;
  readonly count: number;
  readonly dtype: DType;
  readonly crs: Crs;
  readonly geoTransform: GeoTransform;
  readonly bounds: Bounds;
  readonly levels: readonly GridLevel[];
  readonly bands: readonly GridBand[];
  readonly nodata: number | null;
  readonly nodataType: NodataType;
  readonly alphaBand = null;
  readonly dataBands: readonly number[];
  readonly colormap = undefined;
  private readonly sources: BandSource[] = [];

  constructor(
    readonly plan: ArrayGridPlan,
    private readonly cache: ChunkCache,
  ) {
    const { file, x, y } = plan;
    this.location = file.location;
    this.version = `${plan.fileVersion ?? file.version}|${plan.selectionKey}`;
    this.driver = file.driver;
    this.width = x.size;
    this.height = y.size;
    this.dtype = plan.dtype;
    this.crs = plan.crs;
    this.geoTransform = [x.origin, x.step, 0, y.origin, 0, y.step];
    this.bounds = boundsFromGeoTransform(this.geoTransform, x.size, y.size);
    const first = plan.variables[0];
    this.levels = [
      {
        width: x.size,
        height: y.size,
        blockWidth: Math.min(x.size, first.v.chunkShape[first.xAxis]),
        blockHeight: Math.min(y.size, first.v.chunkShape[first.yAxis]),
        hasMask: false,
      },
    ];
    const bands: GridBand[] = [];
    const float = plan.dtype === 'float32' || plan.dtype === 'float64';
    for (const p of plan.variables) {
      for (let i = 0; i < p.bandLabels.length; i++) {
        this.sources.push({ plan: p, index: i });
        bands.push({
          description: p.bandLabels[i],
          colorInterp: 'gray',
          scale: 1,
          offset: 0,
          nodata: float ? NaN : null,
          metadata: p.metadata,
          statistics: p.decoding.validRange ? Object.freeze([p.decoding.validRange[0], p.decoding.validRange[1]] as [number, number]) : null,
        });
      }
    }
    this.bands = bands;
    this.count = bands.length;
    this.dataBands = bands.map((_, i) => i + 1);
    // Decoded float values mark missing data as NaN (rio-tiler masks NaN for xarray data).
    this.nodata = float ? NaN : null;
    this.nodataType = float ? 'Nodata' : 'None';
  }

  async readWindow(level: number, window: Window, bands: readonly number[], signal?: AbortSignal): Promise<GridWindowRead> {
    if (level !== 0) throw Errors.internal(`array grids have one level, not ${level}`);
    const { width, height } = window;
    const n = width * height;
    chargeRequest(n * bands.length * bytesPerSample(this.dtype), `A ${width}×${height} read of ${bands.length} band(s) of '${this.location}'`);
    // Pooled (the warp gives window bands back to BUFFER_POOL); every pixel is written below, as
    // the row and column runs cover the window.
    const out: TypedArray[] = bands.map(() => BUFFER_POOL.array(this.dtype, n));
    const rowRuns = axisRuns(this.plan.y.map, window.row, height);
    const colRuns = axisRuns(this.plan.x.map, window.col, width);
    const jobs: Promise<void>[] = [];
    for (const p of this.plan.variables) {
      const wanted: Array<{ out: number; index: number }> = [];
      bands.forEach((b, i) => {
        const s = this.sources[b - 1];
        if (s === undefined) throw Errors.invalidBandIndex(`Band ${b} does not exist (the selection has ${this.count} band(s))`);
        if (s.plan === p) wanted.push({ out: i, index: s.index });
      });
      if (wanted.length === 0) continue;
      for (const rr of rowRuns) for (const cr of colRuns) jobs.push(this.readBlock(p, wanted, window, rr, cr, out, signal));
    }
    await Promise.all(jobs);
    return { bands: out, mask: null };
  }

  /** Reads one (row run × column run) hyperslab of a variable and decodes it into the output bands. */
  private async readBlock(
    p: VariablePlan,
    wanted: ReadonlyArray<{ out: number; index: number }>,
    window: Window,
    rr: AxisRun,
    cr: AxisRun,
    out: TypedArray[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const dims = p.v.shape.length;
    const start = new Array<number>(dims);
    const count = new Array<number>(dims);
    let bMin = Infinity;
    let bMax = -Infinity;
    for (const w of wanted) {
      bMin = Math.min(bMin, w.index);
      bMax = Math.max(bMax, w.index);
    }
    for (let a = 0; a < dims; a++) {
      if (a === p.yAxis) [start[a], count[a]] = [rr.srcMin, rr.length];
      else if (a === p.xAxis) [start[a], count[a]] = [cr.srcMin, cr.length];
      else if (a === p.bandAxis) [start[a], count[a]] = [bMin, bMax - bMin + 1];
      else [start[a], count[a]] = [p.fixed[a], 1];
    }
    const slab = await readHyperslab(this.plan.file, p.v, { start, count }, this.cache, signal, true);
    const stride = new Array<number>(dims).fill(1);
    for (let a = dims - 2; a >= 0; a--) stride[a] = stride[a + 1] * count[a + 1];
    const yStride = stride[p.yAxis];
    const xStride = stride[p.xAxis];
    const bStride = p.bandAxis !== null ? stride[p.bandAxis] : 0;
    const rowMap = this.plan.y.map;
    const colMap = this.plan.x.map;
    const { decoded, scale, offset, missing } = p.decoding;
    const m0 = missing.length > 0 ? missing[0] : NaN;
    const m1 = missing.length > 1 ? missing[1] : m0;
    const manyMissing = missing.length > 2;
    const w = window.width;
    for (const want of wanted) {
      const dst = out[want.out];
      const base = (want.index - (p.bandAxis !== null ? bMin : 0)) * bStride;
      // A column run reads consecutive source columns (axisRuns): an affine source index, no lookups.
      const first = colMap[window.col + cr.out];
      const c0 = (first - cr.srcMin) * xStride;
      const cStep = (cr.length > 1 ? colMap[window.col + cr.out + 1] - first : 1) * xStride;
      const n = cr.length;
      for (let r = 0; r < rr.length; r++) {
        const srcRow = base + (rowMap[window.row + rr.out + r] - rr.srcMin) * yStride + c0;
        const dstRow = (rr.out + r) * w + cr.out;
        if (!decoded) copyRun(dst, dstRow, slab, srcRow, cStep, n);
        else if (!manyMissing) decodeRun(dst, dstRow, slab, srcRow, cStep, n, m0, m1, scale, offset);
        else decodeRunMany(dst, dstRow, slab, srcRow, cStep, n, m0, m1, missing, scale, offset);
      }
    }
    releaseRequest(slab.byteLength);
    BUFFER_POOL.release(slab.buffer);
  }
}
