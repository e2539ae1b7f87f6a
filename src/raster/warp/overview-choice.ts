/**
 * GDAL's choice of overview for a RasterIO request (GDALBandGetBestOverviewLevel2, GDAL 3.6):
 * the desired decimation is taken on the least reduced axis; the coarsest overview whose
 * decimation is below desired × 1.2 wins (an exact match within 0.1 stops the search).
 * Verified against rasterio 1.3 / GDAL 3.6.2 reads of a raster with labelled overviews.
 */
export interface LevelSize {
  width: number;
  height: number;
}

const OVERSAMPLING_THRESHOLD = 1.2;

/** Returns the index into `levels` (0 = full resolution) to read from. */
export function chooseLevel(levels: readonly LevelSize[], windowWidth: number, windowHeight: number, outWidth: number, outHeight: number): number {
  if (levels.length <= 1) return 0;
  if (!(outWidth < windowWidth || outHeight < windowHeight)) return 0;
  const rx = windowWidth / outWidth;
  const ry = windowHeight / outHeight;
  const desired = rx < ry || outHeight === 1 ? rx : ry;
  const base = levels[0];
  let best = 0;
  let bestRes = 0;
  for (let i = 1; i < levels.length; i++) {
    const ov = levels[i];
    if (ov.width > base.width || ov.height > base.height) continue;
    const res = Math.min(base.width / ov.width, base.height / ov.height);
    if (res >= desired * OVERSAMPLING_THRESHOLD || res <= bestRes) continue;
    best = i;
    bestRes = res;
    if (Math.abs(desired - res) < 0.1) break;
  }
  return best;
}

/** Scale factors (full-res pixels per level pixel) along x and y. */
export function levelFactors(levels: readonly LevelSize[], level: number): [number, number] {
  const base = levels[0];
  const l = levels[level];
  return [base.width / l.width, base.height / l.height];
}

/**
 * The implicit overviews GDAL gives a warped VRT of `width × height`: one per source overview,
 * sized VRT size / (source width / overview width), rounded; [0] is the VRT itself.
 */
export function warpedOverviews(levels: readonly LevelSize[], width: number, height: number): LevelSize[] {
  const out: LevelSize[] = [{ width, height }];
  for (let i = 1; i < levels.length; i++) {
    const ratio = levels[0].width / levels[i].width;
    const w = Math.floor(width / ratio + 0.5);
    const h = Math.floor(height / ratio + 0.5);
    if (w < 1 || h < 1) break;
    out.push({ width: w, height: h });
  }
  return out;
}
