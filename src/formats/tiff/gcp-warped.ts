/**
 * A GCP-georeferenced raster seen the way rio-tiler reads it: through a WarpedVRT, which GDAL
 * builds on the GCPs' polynomial (gcp-polynomial.ts; rio-tiler's `src_transform=from_gcps(…)` is
 * not what GDAL warps with), in the GCPs' CRS, on the north-up grid GDALSuggestedWarpOutput2
 * gives. Each grid pixel takes the source pixel its centre falls in through the reverse
 * polynomial (nearest), as the VRT does; pixels off the source are nodata, or masked when the
 * file has no nodata (rio-tiler's `add_alpha`).
 */
import { boundsFromGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import type { Bounds, Window } from '../../geo/bounds.ts';
import { suggestedWarpOutput } from '../../geo/suggested-warp.ts';
import { bytesPerSample, type TypedArray } from '../../dtype.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';
import type { GridDataset, GridLevel, GridWindowRead, NodataType } from '../grid-dataset.ts';
import type { GcpPolynomial } from './gcp-polynomial.ts';

/** `inner` stays reachable so that the dataset cache can let go of its sources. */
export function gcpWarped(inner: GridDataset, poly: GcpPolynomial): GridDataset & { inner: GridDataset } {
  const grid = suggestedWarpOutput(inner.crs, inner.crs, inner.width, inner.height, poly);
  const masked = inner.nodata === null;
  // the VRT's implicit overviews (GDAL VRTWarpedDataset::CreateImplicitOverviews): one per source
  // overview, sized by the source's ratio, warped from that overview with the GCPs rescaled
  const levels: GridLevel[] = inner.levels.map((l) => {
    const ratio = inner.width / l.width;
    const width = Math.trunc(grid.width / ratio + 0.5);
    const height = Math.trunc(grid.height / ratio + 0.5);
    return { width, height, blockWidth: 256, blockHeight: 256, hasMask: masked || l.hasMask };
  });
  const geoTransform: GeoTransform = grid.geoTransform;
  const bounds: Bounds = boundsFromGeoTransform(geoTransform, grid.width, grid.height);
  const nodataType: NodataType = masked && inner.nodataType === 'None' ? 'Mask' : inner.nodataType;

  async function readWindow(lv: number, w: Window, bands: readonly number[], signal?: AbortSignal): Promise<GridWindowRead> {
    const src0 = inner.levels[lv];
    const dl = levels[lv];
    const [dx, dy] = [grid.width / dl.width, grid.height / dl.height];
    const [sx, sy] = [inner.width / src0.width, inner.height / src0.height];
    const sw = src0.width;
    const sh = src0.height;
    const n = w.width * w.height;
    // the window's bands and mask stay with the request; the pixel index is given back below
    chargeRequest((bands.length * bytesPerSample(inner.dtype) + 1 + 4) * n, `Warping a ${w.width}×${w.height} window of '${inner.location}' through its GCPs`);
    const src = new Int32Array(n).fill(-1);
    let c0 = Infinity;
    let r0 = Infinity;
    let c1 = -Infinity;
    let r1 = -Infinity;
    const g = geoTransform;
    for (let j = 0; j < w.height; j++) {
      for (let i = 0; i < w.width; i++) {
        const px = (w.col + i + 0.5) * dx;
        const py = (w.row + j + 0.5) * dy;
        const [sc, sr] = poly.reverse(g[0] + px * g[1] + py * g[2], g[3] + px * g[4] + py * g[5]);
        const c = Math.floor(sc / sx);
        const r = Math.floor(sr / sy);
        if (!(c >= 0 && r >= 0 && c < sw && r < sh)) continue;
        src[j * w.width + i] = r * sw + c;
        if (c < c0) c0 = c;
        if (c > c1) c1 = c;
        if (r < r0) r0 = r;
        if (r > r1) r1 = r;
      }
    }
    const fill = inner.nodata ?? 0;
    const read = c0 <= c1 ? await inner.readWindow(lv, { col: c0, row: r0, width: c1 - c0 + 1, height: r1 - r0 + 1 }, bands, signal) : null;
    const rw = c1 - c0 + 1;
    const out: TypedArray[] = bands.map((_, k) => {
      const proto = read ? read.bands[k] : null;
      const Ctor = (proto ? proto.constructor : Float64Array) as new (n: number) => TypedArray;
      const arr = new Ctor(n);
      if (fill !== 0) arr.fill(fill as never);
      return arr;
    });
    const mask = dl.hasMask ? new Uint8Array(n) : null;
    for (let i = 0; i < n; i++) {
      const s = src[i];
      if (s < 0 || !read) continue;
      const at = (Math.floor(s / sw) - r0) * rw + ((s % sw) - c0);
      for (let k = 0; k < out.length; k++) out[k][i] = read.bands[k][at];
      if (mask) mask[i] = read.mask ? read.mask[at] : 255;
    }
    releaseRequest(4 * n);
    return { bands: out, mask };
  }

  return {
    inner,
    location: inner.location,
    version: inner.version,
    driver: inner.driver,
    width: grid.width,
    height: grid.height,
    count: inner.count,
    dtype: inner.dtype,
    crs: inner.crs,
    geoTransform,
    bounds,
    levels,
    bands: inner.bands,
    nodata: inner.nodata,
    nodataType,
    alphaBand: inner.alphaBand,
    dataBands: inner.dataBands,
    colormap: inner.colormap,
    readWindow,
  };
}
