/**
 * GDAL's burn primitives behind rasterize.ts (alg/llrasterize.cpp rules, described there): the
 * pixel-centre scanline fill of one polygon and the all-touched walk of a line or ring, both
 * producing per-row runs of burnt cells.
 */

export function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Per-row runs [x0, x1] (inclusive) of burnt cells, stored flat. */
export class RunList {
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
export class PolygonFill {
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
          ya = y1;
          xa = x1;
          yb = y2;
          xb = x2;
        } else if (y1 > y2) {
          ya = y2;
          xa = x2;
          yb = y1;
          xb = x1;
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
export function walkLine(c: Float64Array, W: number, H: number, runs: RunList, ringEdges: boolean): void {
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
      let t = x;
      x = xEnd;
      xEnd = t;
      t = y;
      y = yEnd;
      yEnd = t;
    }
    // near-vertical: one column, every row between the two ends
    if (Math.floor(x) === Math.floor(xEnd) || Math.abs(x - xEnd) < 0.01) {
      if (ringEdges && onGridLine(x) && onGridLine(xEnd)) continue;
      if (yEnd < y) {
        const t = y;
        y = yEnd;
        yEnd = t;
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
