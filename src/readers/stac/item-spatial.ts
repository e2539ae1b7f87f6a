/**
 * Where a STAC item lies: bounds, CRS and (when known) a pixel grid for zoom levels.
 *
 * From the projection extension when it is complete: each raster asset's `proj:transform` +
 * `proj:shape` + CRS (`proj:code`, `proj:epsg`, `proj:wkt2` or `proj:projjson`), asset-level
 * fields taking precedence over the item's `properties`. All such assets must share one CRS;
 * the bounds are the union of their grids and the zooms come from the finest grid. Otherwise
 * the item `bbox` (or the bounds of its geometry) in EPSG:4326, without a grid: zooms are then
 * the TileMatrixSet's own range (titiler spec §12.4).
 */
import { boundsFromGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { crsFromEpsg, parseCrs, sameCrs, WGS84, type Crs } from '../../geo/crs.ts';

export interface PixelGrid {
  geoTransform: GeoTransform;
  width: number;
  height: number;
}

export interface ItemSpatial {
  crs: Crs;
  bounds: Bounds;
  /** The finest asset grid (projection extension), when the item has one. */
  grid?: PixelGrid;
}

type Fields = Record<string, unknown>;

/** The CRS named by projection-extension fields, or undefined when absent or unreadable. */
export function projCrs(fields: Fields): Crs | undefined {
  try {
    const code = fields['proj:code'];
    if (typeof code === 'string' && code !== '') return parseCrs(code);
    const epsg = fields['proj:epsg'];
    if (typeof epsg === 'number' && Number.isInteger(epsg)) return crsFromEpsg(epsg);
    const wkt = fields['proj:wkt2'];
    if (typeof wkt === 'string' && wkt !== '') return parseCrs(wkt);
    const projjson = fields['proj:projjson'];
    if (projjson && typeof projjson === 'object') return parseCrs(JSON.stringify(projjson));
  } catch {
    return undefined;
  }
  return undefined;
}

/** `proj:transform` (rasterio Affine order, 6 or 9 numbers) + `proj:shape` ([height, width]). */
function projGrid(transform: unknown, shape: unknown): PixelGrid | undefined {
  if (!Array.isArray(transform) || (transform.length !== 6 && transform.length !== 9)) return undefined;
  if (!transform.every((v) => typeof v === 'number' && Number.isFinite(v))) return undefined;
  if (!Array.isArray(shape) || shape.length !== 2 || !shape.every((v) => Number.isInteger(v) && (v as number) > 0)) return undefined;
  const [a, b, c, d, e, f] = transform as number[];
  if (a * e - b * d === 0) return undefined;
  return { geoTransform: [c, a, b, f, d, e], width: shape[1] as number, height: shape[0] as number };
}

const pick = (asset: Fields, properties: Fields, key: string): unknown => (asset[key] !== undefined ? asset[key] : properties[key]);

function hasProjFields(f: Fields): boolean {
  return ['proj:code', 'proj:epsg', 'proj:wkt2', 'proj:projjson'].some((k) => f[k] !== undefined && f[k] !== null);
}

export function itemSpatial(rasterAssets: Fields[], properties: Fields, bbox: Bounds): ItemSpatial {
  const grids: Array<{ crs: Crs; grid: PixelGrid }> = [];
  for (const asset of rasterAssets) {
    const grid = projGrid(pick(asset, properties, 'proj:transform'), pick(asset, properties, 'proj:shape'));
    const crs = hasProjFields(asset) ? projCrs(asset) : projCrs(properties);
    if (grid && crs) grids.push({ crs, grid });
  }
  if (grids.length > 0 && grids.every((g) => sameCrs(g.crs, grids[0].crs))) {
    const bounds: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
    let finest = grids[0].grid;
    for (const { grid } of grids) {
      const b = boundsFromGeoTransform(grid.geoTransform, grid.width, grid.height);
      bounds[0] = Math.min(bounds[0], b[0]);
      bounds[1] = Math.min(bounds[1], b[1]);
      bounds[2] = Math.max(bounds[2], b[2]);
      bounds[3] = Math.max(bounds[3], b[3]);
      if (resolution(grid) < resolution(finest)) finest = grid;
    }
    return { crs: grids[0].crs, bounds, grid: finest };
  }
  return { crs: WGS84, bounds: bbox };
}

const resolution = (g: PixelGrid): number => Math.max(Math.hypot(g.geoTransform[1], g.geoTransform[4]), Math.hypot(g.geoTransform[2], g.geoTransform[5]));
