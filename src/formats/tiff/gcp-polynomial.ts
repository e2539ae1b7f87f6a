/**
 * GDAL's GCP transformer (gdal_crs.cpp as GDALCreateGenImgProjTransformer2 uses it, and so what
 * a rasterio WarpedVRT on a GCP raster warps with — rio-tiler's `src_transform=from_gcps(…)` is
 * not used by GDAL when the source has GCPs): a polynomial of the requested order fitted by least
 * squares, forward (pixel/line → x/y) and reverse (x/y → pixel/line) fitted independently, both
 * on coordinates centred on the GCPs' means. Order 0 picks like GDAL: 2 from 6 GCPs, else 1
 * (never 3, "unstable"). Hand-written normal equations; at most 10 unknowns.
 */
import type { Gcp } from './gcp-fit.ts';

export interface GcpPolynomial {
  order: 1 | 2 | 3;
  /** Pixel/line (pixel-corner convention) → georeferenced x/y. */
  forward(pixel: number, line: number): [number, number];
  /** Georeferenced x/y → pixel/line. */
  reverse(x: number, y: number): [number, number];
}

const TERMS = { 1: 3, 2: 6, 3: 10 } as const;

function terms(u: number, v: number, order: 1 | 2 | 3): number[] {
  const t = [1, u, v];
  if (order >= 2) t.push(u * u, u * v, v * v);
  if (order === 3) t.push(u * u * u, u * u * v, u * v * v, v * v * v);
  return t;
}

/** Least squares of a(u, v) ≈ w over the points, or null when singular. */
function fit(us: number[], vs: number[], ws: number[], order: 1 | 2 | 3): number[] | null {
  const n = TERMS[order];
  const m = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  for (let i = 0; i < us.length; i++) {
    const t = terms(us[i], vs[i], order);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) m[r][c] += t[r] * t[c];
      m[r][n] += t[r] * ws[i];
    }
  }
  // Gaussian elimination, partial pivoting
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (!(Math.abs(m[p][c]) > 1e-300)) return null;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      if (f !== 0) for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  const out = m.map((row, i) => row[n] / row[i]);
  return out.every(Number.isFinite) ? out : null;
}

const evaluate = (a: number[], u: number, v: number, order: 1 | 2 | 3): number => {
  const t = terms(u, v, order);
  let s = 0;
  for (let i = 0; i < t.length; i++) s += a[i] * t[i];
  return s;
};

/** GDAL's polynomial GCP transformer of `requestedOrder` (0: by GCP count), or null when the GCPs cannot determine it. */
export function gcpPolynomial(gcps: readonly Gcp[], requestedOrder: 0 | 1 | 2 | 3 = 0): GcpPolynomial | null {
  const order: 1 | 2 | 3 = requestedOrder === 0 ? (gcps.length >= 6 ? 2 : 1) : requestedOrder;
  if (gcps.length < TERMS[order]) return null;
  const mean = (k: keyof Gcp) => gcps.reduce((s, g) => s + g[k], 0) / gcps.length;
  const [mp, ml, mx, my] = [mean('pixel'), mean('line'), mean('x'), mean('y')];
  const p = gcps.map((g) => g.pixel - mp);
  const l = gcps.map((g) => g.line - ml);
  const x = gcps.map((g) => g.x - mx);
  const y = gcps.map((g) => g.y - my);
  const toX = fit(p, l, x, order);
  const toY = fit(p, l, y, order);
  const toP = fit(x, y, p, order);
  const toL = fit(x, y, l, order);
  if (!toX || !toY || !toP || !toL) return null;
  return {
    order,
    forward: (pixel, line) => [mx + evaluate(toX, pixel - mp, line - ml, order), my + evaluate(toY, pixel - mp, line - ml, order)],
    reverse: (gx, gy) => [mp + evaluate(toP, gx - mx, gy - my, order), ml + evaluate(toL, gx - mx, gy - my, order)],
  };
}
