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

import { grow, PolygonFill, RunList, walkLine } from './rasterize-burn.ts';

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
  if (n <= 32) {
    // a row crosses a few edges: insertion sort (TypedArray#sort costs a call and a copy per row, of 10× finer rows)
    insertionSort(starts, n);
    insertionSort(ends, n);
  } else {
    starts.subarray(0, n).sort();
    ends.subarray(0, n).sort();
  }
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

function insertionSort(a: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
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
  let n = 0;
  // one closure for all rows (a row of a 10× finer coverage grid is cheap; an allocation per row is not)
  const push = (a: number, b: number): void => {
    if (n === starts.length) {
      starts = grow(starts);
      ends = grow(ends);
    }
    starts[n] = a;
    ends[n++] = b + 1;
  };
  for (let row = rowMin; row <= rowMax; row++) {
    n = 0;
    for (const f of fills) f.spans(row, push);
    for (let k = byRow.offsets[row]; k < byRow.offsets[row + 1]; k++) {
      const r = byRow.order[k];
      push(runs.x0[r], runs.x1[r]);
    }
    if (n > 0) onRow(row, starts, ends, n);
  }
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
