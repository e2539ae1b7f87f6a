/**
 * Burning vector geometries into a pixel grid with GDAL's ALL_TOUCHED=TRUE rules
 * (gdal_rasterize / rasterio.features.rasterize(all_touched=True), GDAL 3.6), and rio-tiler's
 * coverage fractions (rasterize on an s-times finer grid, block-sum, divide by s², spec §8.4).
 *
 * Our own implementation of GDAL's rules (alg/llrasterize.cpp, alg/gdalrasterize.cpp):
 * - polygons: pixel-centre scanline fill over all rings of one polygon (even-odd, so holes are
 *   holes): on row y the scanline is y+0.5; an edge crosses it when y1 <= y+0.5 < y2 and its
 *   crossing x is rounded with floor(x+0.5); pixels [x_in, x_out - 1] are burnt. Horizontal edges
 *   lying exactly on a scanline are burnt only when traversed right-to-left, after GDAL's ring
 *   re-orientation (rings made clockwise in georeferenced, north-up space).
 * - all touched: every ring of a polygon and every line is additionally walked cell by cell
 *   (GDALdllImageLineAllTouched, including its near-vertical / near-horizontal shortcuts for
 *   segments spanning less than 0.01 pixel).
 * - points: the cell containing the point (floor), if inside the grid.
 *
 * Memory stays bounded for large cover scales: the fine grid is never materialised. Rows are
 * produced one fine row at a time as pixel spans (polygon fill via an active edge list, edge
 * walks pre-computed as per-row runs), and coverage is accumulated per output row from the
 * union of spans. Memory is O(width) plus O(rows crossed by geometry edges).
 */
import { Errors } from '../errors.ts';

/** x0,y0,x1,y1,… in pixel coordinates of the target image (column, row as floats); closed or open. */
export type PixelRing = Float64Array;

export interface PixelGeometry {
  /** Each polygon is [outer ring, ...holes]. */
  polygons: PixelRing[][];
  /** Line strings: x0,y0,x1,y1,… */
  lines: Float64Array[];
  /** Points: x0,y0,x1,y1,… */
  points: Float64Array;
}

/** 255 where the geometry touches the cell (GDAL ALL_TOUCHED=TRUE), else 0. Row-major width×height. */
export function rasterizeAllTouched(geom: PixelGeometry, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  scanGeometry(geom, width, height, 1, (row, starts, ends, n) => {
    const base = row * width;
    for (let i = 0; i < n; i++) out.fill(255, base + starts[i], base + ends[i]);
  });
  return out;
}

/**
 * Fraction of each cell covered by the geometry (float32 in [0,1]), computed like rio-tiler's
 * get_coverage_array: all-touched rasterization on a grid `coverScale` times finer in each
 * direction, each coverScale×coverScale block summed and divided by coverScale².
 */
export function coverageFractions(geom: PixelGeometry, width: number, height: number, coverScale: number): Float32Array {
  const s = coverScale;
  if (!Number.isInteger(s) || s < 1) throw Errors.internal(`coverScale must be a positive integer, got ${s}`);
  if (width * s > 2 ** 31 - 1 || height * s > 2 ** 31 - 1) throw Errors.internal('coverScale too large for the image size');
  const out = new Float32Array(width * height);
  const cnt = new Float64Array(width);
  const s2 = s * s;
  let curRow = -1;
  let touched = false;
  const flush = (): void => {
    if (curRow >= 0 && touched) {
      const base = curRow * width;
      for (let c = 0; c < width; c++) {
        if (cnt[c] !== 0) out[base + c] = cnt[c] / s2;
      }
      cnt.fill(0);
    }
    touched = false;
  };
  scanGeometry(geom, width * s, height * s, s, (fineRow, starts, ends, n) => {
    const row = Math.floor(fineRow / s);
    if (row !== curRow) {
      flush();
      curRow = row;
    }
    touched = true;
    unionSpans(starts, ends, n, (a, e) => {
      // add the half-open fine span [a, e) to the coarse cells it overlaps
      const ca = Math.floor(a / s);
      const cb = Math.floor((e - 1) / s);
      if (ca === cb) {
        cnt[ca] += e - a;
        return;
      }
      cnt[ca] += (ca + 1) * s - a;
      for (let c = ca + 1; c < cb; c++) cnt[c] += s;
      cnt[cb] += e - cb * s;
    });
  });
  flush();
  return out;
}

/** Union of half-open spans [starts[i], ends[i]) (sorted in place), reported in increasing order. */
function unionSpans(starts: Int32Array, ends: Int32Array, n: number, emit: (a: number, e: number) => void): void {
  if (n === 1) {
    emit(starts[0], ends[0]);
    return;
  }
  starts.subarray(0, n).sort();
  ends.subarray(0, n).sort();
  let i = 0;
  let j = 0;
  let depth = 0;
  let segStart = 0;
  while (j < n) {
    if (i < n && starts[i] < ends[j]) {
      if (depth++ === 0) segStart = starts[i];
      i++;
    } else {
      if (--depth === 0) emit(segStart, ends[j]);
      j++;
    }
  }
}

type RowCallback = (row: number, starts: Int32Array, ends: Int32Array, n: number) => void;

/**
 * Produce, row by row from top to bottom, the burnt half-open spans [start, end) of a W×H grid
 * (spans may overlap). Geometry coordinates are multiplied by `scale` first.
 */
function scanGeometry(geom: PixelGeometry, W: number, H: number, scale: number, onRow: RowCallback): void {
  if (W <= 0 || H <= 0) return;
  const runs = new RunList();
  const fills: PolygonFill[] = [];
  for (const poly of geom.polygons) {
    const rings = poly.map((r) => orientRing(closeRing(r, scale)));
    const fill = new PolygonFill(rings, W, H, runs);
    if (fill.rowMin <= fill.rowMax) fills.push(fill);
    for (const ring of rings) walkLine(ring, W, H, runs, true);
  }
  for (const line of geom.lines) walkLine(scaleCoords(line, scale), W, H, runs, false);
  const pts = geom.points;
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const x = Math.floor(pts[i] * scale);
    const y = Math.floor(pts[i + 1] * scale);
    if (x >= 0 && x < W && y >= 0 && y < H) runs.push(y, x, x);
  }

  let rowMin = H;
  let rowMax = -1;
  for (const f of fills) {
    rowMin = Math.min(rowMin, f.rowMin);
    rowMax = Math.max(rowMax, f.rowMax);
  }
  const byRow = runs.bucketByRow(H);
  if (runs.length > 0) {
    rowMin = Math.min(rowMin, byRow.firstRow);
    rowMax = Math.max(rowMax, byRow.lastRow);
  }
  let starts = new Int32Array(64);
  let ends = new Int32Array(64);
  for (let row = rowMin; row <= rowMax; row++) {
    let n = 0;
    const push = (a: number, b: number): void => {
      if (n === starts.length) {
        starts = grow(starts);
        ends = grow(ends);
      }
      starts[n] = a;
      ends[n++] = b + 1;
    };
    for (const f of fills) f.spans(row, push);
    for (let k = byRow.offsets[row]; k < byRow.offsets[row + 1]; k++) {
      const r = byRow.order[k];
      push(runs.x0[r], runs.x1[r]);
    }
    if (n > 0) onRow(row, starts, ends, n);
  }
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function scaleCoords(c: Float64Array, scale: number): Float64Array {
  if (scale === 1) return c;
  const out = new Float64Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = c[i] * scale;
  return out;
}

/** Scaled copy of the ring, closed (first point repeated) like an OGR ring. */
function closeRing(r: Float64Array, scale: number): Float64Array {
  const n = r.length - (r.length % 2);
  const closed = n >= 4 && r[0] === r[n - 2] && r[1] === r[n - 1];
  const out = new Float64Array(closed || n === 0 ? n : n + 2);
  for (let i = 0; i < n; i++) out[i] = r[i] * scale;
  if (!closed && n > 0) {
    out[n] = out[0];
    out[n + 1] = out[1];
  }
  return out;
}

/**
 * GDAL collects each ring clockwise in georeferenced coordinates. Our rows grow downwards (a
 * north-up image), which mirrors the orientation: keep rings whose pixel-space shoelace sum is
 * positive, reverse the others. (Only matters for horizontal edges lying exactly on a scanline.)
 */
function orientRing(r: Float64Array): Float64Array {
  const n = r.length / 2;
  let sum = 0;
  for (let i = 0; i + 1 < n; i++) sum += r[2 * i] * r[2 * i + 3] - r[2 * i + 2] * r[2 * i + 1];
  if (sum > 0) return r;
  const out = new Float64Array(r.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = r[2 * (n - 1 - i)];
    out[2 * i + 1] = r[2 * (n - 1 - i) + 1];
  }
  return out;
}

/** Per-row runs [x0, x1] (inclusive) of burnt cells, stored flat. */
class RunList {
  row = new Int32Array(256);
  x0 = new Int32Array(256);
  x1 = new Int32Array(256);
  length = 0;

  push(row: number, x0: number, x1: number): void {
    if (this.length === this.row.length) {
      this.row = grow(this.row);
      this.x0 = grow(this.x0);
      this.x1 = grow(this.x1);
    }
    this.row[this.length] = row;
    this.x0[this.length] = x0;
    this.x1[this.length++] = x1;
  }

  /** Counting sort by row: runs of row r are order[offsets[r] .. offsets[r+1]). */
  bucketByRow(H: number): { offsets: Int32Array; order: Int32Array; firstRow: number; lastRow: number } {
    const offsets = new Int32Array(H + 1);
    let firstRow = H;
    let lastRow = -1;
    for (let i = 0; i < this.length; i++) {
      const r = this.row[i];
      offsets[r + 1]++;
      if (r < firstRow) firstRow = r;
      if (r > lastRow) lastRow = r;
    }
    for (let r = 0; r < H; r++) offsets[r + 1] += offsets[r];
    const fillPos = offsets.slice(0, H);
    const order = new Int32Array(this.length);
    for (let i = 0; i < this.length; i++) order[fillPos[this.row[i]]++] = i;
    return { offsets, order, firstRow, lastRow };
  }
}

/** Pixel-centre scanline fill of one polygon (all rings together), one row at a time. */
class PolygonFill {
  rowMin: number;
  rowMax: number;
  private readonly W: number;
  /** Non-horizontal edges, low end (ya, xa) and high end (yb, xb) as GDAL orders them. */
  private readonly ya: Float64Array;
  private readonly xa: Float64Array;
  private readonly yb: Float64Array;
  private readonly xb: Float64Array;
  private readonly r0: Int32Array;
  private readonly r1: Int32Array;
  /** Edge indices sorted by first row. */
  private readonly byStart: Int32Array;
  private next = 0;
  private active: Int32Array;
  private nActive = 0;
  private ints: Float64Array;

  constructor(rings: Float64Array[], W: number, H: number, runs: RunList) {
    this.W = W;
    let nPts = 0;
    for (const r of rings) nPts += r.length / 2;
    this.ya = new Float64Array(nPts);
    this.xa = new Float64Array(nPts);
    this.yb = new Float64Array(nPts);
    this.xb = new Float64Array(nPts);
    this.r0 = new Int32Array(nPts);
    this.r1 = new Int32Array(nPts);
    let ne = 0;
    this.rowMin = H;
    this.rowMax = -1;
    for (const r of rings) {
      const n = r.length / 2;
      for (let i = 0; i < n; i++) {
        // GDAL visits (last -> first) for i = 0, then (i-1 -> i)
        const i1 = i === 0 ? n - 1 : i - 1;
        const x1 = r[2 * i1];
        const y1 = r[2 * i1 + 1];
        const x2 = r[2 * i];
        const y2 = r[2 * i + 1];
        if (y1 === y2) {
          // horizontal: burnt only when lying on a scanline and traversed right-to-left
          if (x1 > x2) {
            const row = y1 - 0.5;
            if (Number.isInteger(row) && row >= 0 && row < H) {
              const hx1 = Math.floor(x2 + 0.5);
              const hx2 = Math.floor(x1 + 0.5);
              if (!(hx1 > W - 1 || hx2 <= 0)) {
                const a = Math.max(hx1, 0);
                const b = Math.min(hx2 - 1, W - 1);
                if (a <= b) runs.push(row, a, b);
              }
            }
          }
          continue;
        }
        let ya: number, xa: number, yb: number, xb: number;
        if (y1 < y2) {
          ya = y1; xa = x1; yb = y2; xb = x2;
        } else if (y1 > y2) {
          ya = y2; xa = x2; yb = y1; xb = x1;
        } else continue; // NaN
        if (!Number.isFinite(ya) || !Number.isFinite(yb) || !Number.isFinite(xa) || !Number.isFinite(xb)) continue;
        if (ya >= H || yb <= 0) continue;
        // rows y with ya <= y + 0.5 < yb (exactly GDAL's test, clamped to the grid)
        let r0 = 0;
        if (ya > 0) {
          r0 = Math.ceil(ya - 0.5);
          while (r0 + 0.5 < ya) r0++;
          while (r0 > 0 && r0 - 0.5 >= ya) r0--;
        }
        let r1 = H - 1;
        if (yb < H) {
          r1 = Math.ceil(yb - 0.5) - 1;
          while (r1 >= 0 && r1 + 0.5 >= yb) r1--;
          while (r1 + 1.5 < yb) r1++;
        }
        if (r0 > r1) continue;
        this.ya[ne] = ya;
        this.xa[ne] = xa;
        this.yb[ne] = yb;
        this.xb[ne] = xb;
        this.r0[ne] = r0;
        this.r1[ne] = r1;
        ne++;
        if (r0 < this.rowMin) this.rowMin = r0;
        if (r1 > this.rowMax) this.rowMax = r1;
      }
    }
    const order = new Int32Array(ne);
    for (let i = 0; i < ne; i++) order[i] = i;
    const r0s = this.r0;
    order.sort((a, b) => r0s[a] - r0s[b]);
    this.byStart = order;
    this.active = new Int32Array(Math.max(ne, 1));
    this.ints = new Float64Array(Math.max(ne, 1));
  }

  /** Emit the burnt spans [a, b] (inclusive, clipped) of `row`. Rows must be visited in increasing order. */
  spans(row: number, push: (a: number, b: number) => void): void {
    if (row < this.rowMin || row > this.rowMax) return;
    // drop finished edges, add starting ones
    let k = 0;
    for (let i = 0; i < this.nActive; i++) {
      const e = this.active[i];
      if (this.r1[e] >= row) this.active[k++] = e;
    }
    this.nActive = k;
    while (this.next < this.byStart.length && this.r0[this.byStart[this.next]] <= row) {
      const e = this.byStart[this.next++];
      if (this.r1[e] >= row) this.active[this.nActive++] = e;
    }
    if (this.nActive < 2) return;
    const dy = row + 0.5;
    const ints = this.ints;
    for (let i = 0; i < this.nActive; i++) {
      const e = this.active[i];
      const dy1 = this.ya[e];
      const dx1 = this.xa[e];
      const intersect = ((dy - dy1) * (this.xb[e] - dx1)) / (this.yb[e] - dy1) + dx1;
      ints[i] = Math.floor(intersect + 0.5);
    }
    const sorted = ints.subarray(0, this.nActive).sort();
    const maxx = this.W - 1;
    for (let i = 0; i + 1 < this.nActive; i += 2) {
      const a = sorted[i];
      const b = sorted[i + 1] - 1;
      if (a <= maxx && sorted[i + 1] > 0 && a <= b) push(Math.max(a, 0), Math.min(b, maxx));
    }
  }
}

/** Distance (pixels) within which a polygon edge is taken to lie on a grid line. */
const ON_GRID_LINE = 0.01;

const onGridLine = (v: number): boolean => Math.abs(v - Math.round(v)) < ON_GRID_LINE;

/**
 * Walk every segment of a line (x0,y0,x1,y1,…) and record each touched cell, like GDAL's
 * GDALdllImageLineAllTouched (replace mode), as per-row runs. For polygon rings
 * (`ringEdges`), GDAL 3.6 skips near-vertical / near-horizontal edges that lie on a grid line
 * (both ends within 0.01 pixel of it): the cells beside such an edge only share a boundary with
 * the polygon, and the fill already burns the inner ones. (Measured against GDAL 3.6.2.)
 */
function walkLine(c: Float64Array, W: number, H: number, runs: RunList, ringEdges: boolean): void {
  const n = c.length >> 1;
  let curRow = -1;
  let curA = 0;
  let curB = -1;
  const flush = (): void => {
    if (curB >= curA && curRow >= 0) runs.push(curRow, curA, curB);
    curB = curA - 1;
  };
  const cell = (row: number, col: number): void => {
    if (row === curRow && col >= curA - 1 && col <= curB + 1) {
      if (col < curA) curA = col;
      if (col > curB) curB = col;
      return;
    }
    flush();
    curRow = row;
    curA = col;
    curB = col;
  };
  for (let j = 1; j < n; j++) {
    let x = c[2 * j - 2];
    let y = c[2 * j - 1];
    let xEnd = c[2 * j];
    let yEnd = c[2 * j + 1];
    if ((y < 0 && yEnd < 0) || (y > H && yEnd > H) || (x < 0 && xEnd < 0) || (x > W && xEnd > W)) continue;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(xEnd) && Number.isFinite(yEnd))) continue;
    if (x > xEnd) {
      let t = x; x = xEnd; xEnd = t;
      t = y; y = yEnd; yEnd = t;
    }
    // near-vertical: one column, every row between the two ends
    if (Math.floor(x) === Math.floor(xEnd) || Math.abs(x - xEnd) < 0.01) {
      if (ringEdges && onGridLine(x) && onGridLine(xEnd)) continue;
      if (yEnd < y) {
        const t = y; y = yEnd; yEnd = t;
      }
      const iX = Math.floor(xEnd);
      if (iX < 0 || iX >= W) continue;
      const iY0 = Math.max(Math.floor(y), 0);
      const iY1 = Math.min(Math.floor(yEnd), H - 1);
      for (let iY = iY0; iY <= iY1; iY++) cell(iY, iX);
      continue;
    }
    // near-horizontal: the row of the left end, every column between the two ends
    if (Math.floor(y) === Math.floor(yEnd) || Math.abs(y - yEnd) < 0.01) {
      if (ringEdges && onGridLine(y) && onGridLine(yEnd)) continue;
      const iY = Math.floor(y);
      if (iY < 0 || iY >= H) continue;
      const iX0 = Math.max(Math.floor(x), 0);
      const iX1 = Math.min(Math.floor(xEnd), W - 1);
      for (let iX = iX0; iX <= iX1; iX++) cell(iY, iX);
      continue;
    }
    // general case: step from cell boundary to cell boundary, left to right
    const slope = (yEnd - y) / (xEnd - x);
    if (xEnd > W) {
      yEnd -= (xEnd - W) * slope;
      xEnd = W;
    }
    if (x < 0) {
      y += (0 - x) * slope;
      x = 0;
    }
    if (yEnd > y) {
      if (y < 0) {
        x += (0 - y) / slope;
        y = 0;
      }
      if (yEnd >= H) xEnd += (yEnd - H) / slope;
    } else {
      if (y >= H) {
        x += (H - y) / slope;
        y = H;
      }
      if (yEnd < 0) xEnd -= (yEnd - 0) / slope;
    }
    while (x >= 0 && x < xEnd) {
      const iX = Math.floor(x);
      const iY = Math.floor(y);
      if (iY >= 0 && iY < H) {
        if (iX < W) cell(iY, iX);
      } else if ((slope > 0 && iY >= H) || (slope < 0 && iY < 0)) {
        break; // left the grid for good (y is monotonic along the walk)
      }
      let stepX = Math.floor(x + 1) - x;
      let stepY = stepX * slope;
      if (Math.floor(y + stepY) === iY) {
        x += stepX;
        y += stepY;
      } else if (slope < 0) {
        stepY = iY - y;
        if (stepY > -0.000000001) stepY = -0.000000001;
        stepX = stepY / slope;
        x += stepX;
        y += stepY;
      } else {
        stepY = iY + 1 - y;
        if (stepY < 0.000000001) stepY = 0.000000001;
        stepX = stepY / slope;
        x += stepX;
        y += stepY;
      }
    }
  }
  flush();
}
