/**
 * OGC TileMatrixSets (the 13 documents morecantile ships, in tms-data/): tile bounds, point → tile,
 * zoom for a resolution, a dataset's zoom range and tileMatrixSetLimits, with morecantile's
 * semantics (titiler spec §7.1–7.6, §11).
 */
import { readFileSync } from 'node:fs';
import { Errors } from '../errors.ts';
import type { GeoTransform } from './affine.ts';
import type { Bounds } from './bounds.ts';
import type { Crs } from './crs-type.ts';
import { geographicCrsOf, sameCrs } from './crs-registry.ts';
import { parseCrs } from './crs-parse.ts';
import { suggestedWarpOutput } from './suggested-warp.ts';
import { transformPoint } from './transformer.ts';

export interface VariableMatrixWidth {
  coalesce: number;
  minTileRow: number;
  maxTileRow: number;
}

export interface TileMatrix {
  id: string;
  scaleDenominator: number;
  cellSize: number;
  cornerOfOrigin: 'topLeft' | 'bottomLeft';
  pointOfOrigin: [number, number];
  tileWidth: number;
  tileHeight: number;
  matrixWidth: number;
  matrixHeight: number;
  variableMatrixWidths?: VariableMatrixWidth[];
}

export interface TileMatrixLimits {
  tileMatrix: string;
  minTileRow: number;
  maxTileRow: number;
  minTileCol: number;
  maxTileCol: number;
}

interface TmsDocument {
  id: string;
  title?: string;
  description?: string;
  keywords?: string[];
  uri?: string;
  orderedAxes?: [string, string];
  crs: string;
  wellKnownScaleSet?: string;
  boundingBox?: unknown;
  tileMatrices: Array<
    Omit<TileMatrix, 'cornerOfOrigin'> & { cornerOfOrigin?: 'topLeft' | 'bottomLeft'; title?: string; description?: string; keywords?: string[] }
  >;
}

/** The 13 default TMS ids in sorted byte order (titiler §11.1 list order). */
export const TMS_IDS: readonly string[] = Object.freeze([
  'CDB1GlobalGrid',
  'CanadianNAD83_LCC',
  'EuropeanETRS89_LAEAQuad',
  'GNOSISGlobalGrid',
  'LINZAntarticaMapTilegrid',
  'NZTM2000Quad',
  'UPSAntarcticWGS84Quad',
  'UPSArcticWGS84Quad',
  'UTM31WGS84Quad',
  'WGS1984Quad',
  'WebMercatorQuad',
  'WorldCRS84Quad',
  'WorldMercatorWGS84Quad',
]);

/** How far beyond the last defined zoom we extrapolate matrices (WebMercatorQuad 24 → 30 is typical). */
const MAX_EXTRAPOLATED_LEVELS = 40;

/** Floor that maps non-finite input to 0, as morecantile does for infinite coordinates. */
const tileIndex = (v: number): number => (Number.isFinite(v) ? Math.floor(v) : 0);

export class TileMatrixSet {
  readonly id: string;
  readonly title: string;
  readonly crs: Crs;
  /** The CRS string as written in the document. */
  readonly crsString: string;
  /** Geodetic CRS of `crs` (pyproj `geodetic_crs`): the CRS of tilejson/tileset bounds. */
  readonly geographicCrs: Crs;
  /** True when the document's axis order is northing/latitude first (its pointOfOrigin is y, x). */
  readonly axisInverted: boolean;
  readonly minzoom: number;
  readonly maxzoom: number;
  /** True when any matrix has variable widths (then no extrapolation beyond the document). */
  readonly isVariable: boolean;
  private readonly doc: TmsDocument;
  private readonly matrices: TileMatrix[];
  private readonly byZoom = new Map<number, TileMatrix>();

  constructor(doc: TmsDocument) {
    this.doc = doc;
    this.id = doc.id;
    this.title = doc.title ?? doc.id;
    this.crsString = doc.crs;
    this.crs = parseCrs(doc.crs);
    this.geographicCrs = geographicCrsOf(this.crs);
    const first = (doc.orderedAxes?.[0] ?? (this.crs.isGeographic && this.crs.epsg !== null ? 'Lat' : 'X')).toUpperCase();
    this.axisInverted = first === 'Y' || first === 'LAT' || first === 'N';
    this.matrices = doc.tileMatrices
      .map((m) => {
        const out: TileMatrix = {
          id: m.id,
          scaleDenominator: m.scaleDenominator,
          cellSize: m.cellSize,
          cornerOfOrigin: m.cornerOfOrigin ?? 'topLeft',
          pointOfOrigin: [m.pointOfOrigin[0], m.pointOfOrigin[1]],
          tileWidth: m.tileWidth,
          tileHeight: m.tileHeight,
          matrixWidth: m.matrixWidth,
          matrixHeight: m.matrixHeight,
        };
        if (m.variableMatrixWidths) out.variableMatrixWidths = m.variableMatrixWidths.map((v) => ({ ...v }));
        return out;
      })
      .sort((a, b) => Number(a.id) - Number(b.id));
    for (const m of this.matrices) this.byZoom.set(Number(m.id), m);
    this.minzoom = Number(this.matrices[0]!.id);
    this.maxzoom = Number(this.matrices[this.matrices.length - 1]!.id);
    this.isVariable = this.matrices.some((m) => m.variableMatrixWidths !== undefined);
  }

  /**
   * The TileMatrix for zoom `z`. Zooms beyond the document are extrapolated from the last matrix
   * when the TMS has a constant scale ratio and no variable widths (§11.3); zooms that cannot be
   * built (below the first matrix, variable-width TMSs, non-integers) are a BadRequest.
   */
  matrix(z: number): TileMatrix {
    const hit = this.byZoom.get(z);
    if (hit) return hit;
    if (!Number.isInteger(z)) throw Errors.badRequest(`Invalid zoom level: ${z}`);
    if (this.isVariable) {
      throw Errors.badRequest(`TileMatrix not found for level: ${z} - Unable to construct tileMatrix for TMS with variable width`);
    }
    if (z < this.minzoom) throw Errors.badRequest(`TileMatrix not found for level: ${z} - below the TileMatrixSet minimum zoom (${this.minzoom})`);
    if (z > this.maxzoom + MAX_EXTRAPOLATED_LEVELS) throw Errors.badRequest(`TileMatrix not found for level: ${z} - zoom level too high`);
    // morecantile: the set of scale ratios between consecutive matrices, rounded to 2 decimals.
    const ratios = new Set<number>();
    for (let i = 1; i < this.matrices.length; i++) {
      ratios.add(Math.round((this.matrices[i]!.scaleDenominator / this.matrices[i - 1]!.scaleDenominator) * 100) / 100);
    }
    if (ratios.size !== 1) {
      throw Errors.badRequest(`TileMatrix not found for level: ${z} - Unable to construct tileMatrix for TMS with variable scale`);
    }
    const factor = 1 / [...ratios][0]!;
    let m = this.matrices[this.matrices.length - 1]!;
    while (Number(m.id) !== z) {
      const next: TileMatrix = {
        id: String(Number(m.id) + 1),
        scaleDenominator: m.scaleDenominator / factor,
        cellSize: m.cellSize / factor,
        cornerOfOrigin: m.cornerOfOrigin,
        pointOfOrigin: m.pointOfOrigin,
        tileWidth: m.tileWidth,
        tileHeight: m.tileHeight,
        matrixWidth: Math.trunc(m.matrixWidth * factor),
        matrixHeight: Math.trunc(m.matrixHeight * factor),
      };
      if (!this.byZoom.has(Number(next.id))) this.byZoom.set(Number(next.id), next);
      m = next;
    }
    return m;
  }

  /** Origin of a matrix in x/y (east/north) order. */
  private origin(m: TileMatrix): [number, number] {
    return this.axisInverted ? [m.pointOfOrigin[1], m.pointOfOrigin[0]] : [m.pointOfOrigin[0], m.pointOfOrigin[1]];
  }

  /** Coalescence factor of row `y` (1 outside the variable-width rows, and for rows outside the matrix). */
  private coalesce(m: TileMatrix, y: number): number {
    if (!m.variableMatrixWidths || y < 0 || y > m.matrixHeight - 1) return 1;
    for (const v of m.variableMatrixWidths) if (v.maxTileRow >= y && y >= v.minTileRow) return v.coalesce;
    return 1;
  }

  /** Tile bounds in the TMS CRS, x/y order (§7.1). */
  tileBounds(x: number, y: number, z: number): Bounds {
    const m = this.matrix(z);
    const [ox, oy] = this.origin(m);
    const cf = this.coalesce(m, y);
    // Same operation order as morecantile, so results are bit-identical.
    const left = ox + Math.floor(x / cf) * m.cellSize * cf * m.tileWidth;
    const right = ox + (Math.floor(x / cf) + 1) * m.cellSize * cf * m.tileWidth;
    if (m.cornerOfOrigin === 'bottomLeft') {
      const bottom = oy + y * m.cellSize * m.tileHeight;
      const top = oy + (y + 1) * m.cellSize * m.tileHeight;
      return [left, bottom, right, top];
    }
    const top = oy - y * m.cellSize * m.tileHeight;
    const bottom = oy - (y + 1) * m.cellSize * m.tileHeight;
    return [left, bottom, right, top];
  }

  /**
   * The tile containing a point (§7.2), clamped to the matrix, snapped to the coalesced tile in
   * variable-width rows. `geographic`: the point is in `geographicCrs` (default: the TMS CRS).
   */
  tileAt(x: number, y: number, z: number, geographic = false): { x: number; y: number; z: number } {
    if (!geographic) return this.tileAtProjected(x, y, z);
    const [px, py] = transformPoint(this.geographicCrs, this.crs, x, y);
    return this.tileAtProjected(px, py, z);
  }

  /** `tileAt` for a point already in the TMS CRS. */
  private tileAtProjected(px: number, py: number, z: number): { x: number; y: number; z: number } {
    const m = this.matrix(z);
    const [ox, oy] = this.origin(m);
    let xtile = tileIndex((px - ox) / (m.cellSize * m.tileWidth));
    let ytile = m.cornerOfOrigin === 'bottomLeft' ? tileIndex((py - oy) / (m.cellSize * m.tileHeight)) : tileIndex((oy - py) / (m.cellSize * m.tileHeight));
    if (ytile < 0) ytile = 0;
    if (ytile >= m.matrixHeight) ytile = m.matrixHeight - 1;
    if (xtile < 0) xtile = 0;
    if (xtile >= m.matrixWidth) xtile = m.matrixWidth - 1;
    const cf = this.coalesce(m, ytile);
    if (cf !== 1 && xtile % cf) xtile -= xtile % cf;
    return { x: xtile, y: ytile, z };
  }

  /** morecantile `zoom_for_res` with the "auto" strategy (GDAL COG driver), §7.5. */
  zoomForResolution(res: number): number {
    const minZ = this.minzoom;
    const maxZ = this.maxzoom;
    let z = minZ;
    let matrixRes = this.matrix(z).cellSize;
    for (z = minZ; z <= maxZ; z++) {
      matrixRes = this.matrix(z).cellSize;
      if (res > matrixRes || Math.abs(res - matrixRes) / matrixRes <= 1e-8) break;
    }
    if (z > maxZ) z = maxZ; // Python's loop variable keeps the last value when nothing breaks.
    if (z > 0 && Math.abs(res - matrixRes) / matrixRes > 1e-8) {
      if (this.matrix(Math.max(z - 1, minZ)).cellSize / res < res / matrixRes) z = Math.max(z - 1, minZ);
    }
    return z;
  }

  /**
   * Dataset min/max zoom in this TMS (rio-tiler `get_minzoom`/`get_maxzoom`, §7.5): the dataset
   * grid in the TMS CRS (native when the CRSs are the same, else GDAL's suggested warp output),
   * maxzoom for its resolution, minzoom for the resolution of its deepest theoretical overview.
   * Falls back to the TMS min/max zoom when the geometry cannot be computed (non-Earth CRS…).
   */
  zoomRange(crs: Crs, geoTransform: GeoTransform, width: number, height: number): { minzoom: number; maxzoom: number } {
    let gt: GeoTransform;
    let w = width;
    let h = height;
    try {
      if (sameCrs(crs, this.crs)) gt = geoTransform;
      else {
        const warp = suggestedWarpOutput(crs, this.crs, width, height, geoTransform);
        gt = warp.geoTransform;
        w = warp.width;
        h = warp.height;
      }
    } catch {
      return { minzoom: this.minzoom, maxzoom: this.maxzoom };
    }
    const res = Math.max(Math.abs(gt[1]), Math.abs(gt[5]));
    if (!Number.isFinite(res) || res <= 0) return { minzoom: this.minzoom, maxzoom: this.maxzoom };
    const maxzoom = this.zoomForResolution(res);
    const tilesize = this.matrices[0]!.tileWidth;
    let level = 0;
    let factor = 1;
    while (Math.min(Math.floor(w / factor), Math.floor(h / factor)) > tilesize) {
      factor *= 2;
      level++;
    }
    const minzoom = this.zoomForResolution(res * 2 ** level);
    return { minzoom, maxzoom };
  }

  /**
   * tileMatrixSetLimits for geographic bounds (in `geographicCrs`; west > east across the
   * antimeridian) over zooms `max(minzoom, tms.minzoom)..maxzoom` (§7.6).
   */
  limits(geographicBounds: Bounds, minzoom: number, maxzoom: number): TileMatrixLimits[] {
    const [w, s, e, n] = geographicBounds;
    // The corners are the same at every zoom: transform them once.
    const [ulx, uly] = transformPoint(this.geographicCrs, this.crs, w, n);
    const [lrx, lry] = transformPoint(this.geographicCrs, this.crs, e, s);
    const out: TileMatrixLimits[] = [];
    for (let z = Math.max(minzoom, this.minzoom); z <= maxzoom; z++) {
      // tileAt clamps to the matrix, so the limits need no clamping of their own.
      const ul = this.tileAtProjected(ulx, uly, z);
      const lr = this.tileAtProjected(lrx, lry, z);
      out.push({
        tileMatrix: this.matrix(z).id,
        minTileRow: Math.min(ul.y, lr.y),
        maxTileRow: Math.max(ul.y, lr.y),
        minTileCol: Math.min(ul.x, lr.x),
        maxTileCol: Math.max(ul.x, lr.x),
      });
    }
    return out;
  }

  /** The document as /tileMatrixSets/{id} serves it (morecantile field order, matrices sorted, cornerOfOrigin explicit). */
  toJSON(): object {
    const d = this.doc;
    const out: Record<string, unknown> = {};
    if (d.title !== undefined) out['title'] = d.title;
    if (d.description !== undefined) out['description'] = d.description;
    if (d.keywords !== undefined) out['keywords'] = d.keywords;
    out['id'] = d.id;
    if (d.uri !== undefined) out['uri'] = d.uri;
    if (d.orderedAxes !== undefined) out['orderedAxes'] = d.orderedAxes;
    out['crs'] = d.crs;
    if (d.wellKnownScaleSet !== undefined) out['wellKnownScaleSet'] = d.wellKnownScaleSet;
    if (d.boundingBox !== undefined) out['boundingBox'] = d.boundingBox;
    const byId = new Map(d.tileMatrices.map((m) => [m.id, m]));
    out['tileMatrices'] = this.matrices.map((m) => {
      const src = byId.get(m.id)!;
      const tm: Record<string, unknown> = {};
      if (src.title !== undefined) tm['title'] = src.title;
      if (src.description !== undefined) tm['description'] = src.description;
      if (src.keywords !== undefined) tm['keywords'] = src.keywords;
      Object.assign(tm, {
        id: m.id,
        scaleDenominator: m.scaleDenominator,
        cellSize: m.cellSize,
        cornerOfOrigin: m.cornerOfOrigin,
        pointOfOrigin: m.pointOfOrigin,
        tileWidth: m.tileWidth,
        tileHeight: m.tileHeight,
        matrixWidth: m.matrixWidth,
        matrixHeight: m.matrixHeight,
      });
      if (m.variableMatrixWidths) tm['variableMatrixWidths'] = m.variableMatrixWidths;
      return tm;
    });
    return out;
  }
}

const loaded = new Map<string, TileMatrixSet>();

/** The TileMatrixSet with this id (case-sensitive); throws BadRequest for unknown ids. */
export function getTileMatrixSet(id: string): TileMatrixSet {
  const hit = loaded.get(id);
  if (hit) return hit;
  if (!TMS_IDS.includes(id)) throw Errors.badRequest(`Unknown TileMatrixSet: ${id}`);
  const doc = JSON.parse(readFileSync(new URL(`./tms-data/${id}.json`, import.meta.url), 'utf8')) as TmsDocument;
  const tms = new TileMatrixSet(doc);
  loaded.set(id, tms);
  return tms;
}
