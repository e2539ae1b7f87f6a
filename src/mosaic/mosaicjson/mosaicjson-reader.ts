/**
 * An ImageReader over a MosaicJSON document (cogeo-mosaic's MosaicBackend): the quadkey index
 * names the assets (COGs) of a tile, point or bbox; a tile reads the same tile from each asset
 * and combines them with the pixel-selection method (mosaicRead, as the granule mosaics do);
 * a point reads each asset separately (readEach). Assets without data there (TileOutsideBounds,
 * PointOutsideBounds) are skipped; no asset at all → NoData (204).
 *
 * Metadata is the document's: bounds in EPSG:4326, min/max zoom for WebMercatorQuad (the index's
 * TMS; another TMS gets that TMS's full zoom range and finds assets through the tile's
 * geographic bounds, as cogeo-mosaic does). Asset paths get the document's `asset_prefix` and are
 * resolved against the document's location when relative.
 */
import { Errors, isRastileError } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { sameCrs, WGS84, type Crs } from '../../geo/crs.ts';
import { datasetGeographicBounds } from '../../geo/geographic-bounds.ts';
import { getTileMatrixSet, type TileMatrixSet } from '../../geo/tms.ts';
import { transformPoint } from '../../geo/transformer.ts';
import type { ImageData } from '../../raster/image-data.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import { pointValues } from '../../readers/image-reader.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import type { PartRequest, PointValues, PreviewRequest, TileRequest } from '../../readers/reader.ts';
import { resolveHref } from '../../readers/stac/href.ts';
import { mosaicRead } from '../mosaic-read.ts';
import { createPixelSelection, type PixelSelectionName } from '../pixel-selection.ts';
import { readEach } from '../read-each.ts';
import { quadkeyZoomOf, type MosaicJson } from './document.ts';
import { quadkeyOf, quadkeysForTile, tileOfQuadkey } from './quadkey.ts';

export const MOSAIC_TMS_ID = 'WebMercatorQuad';

export interface MosaicJsonReaderOptions {
  doc: MosaicJson;
  /** Where the document was read from (relative asset paths resolve against it). */
  location: string;
  /** Opens an asset as a reader with the request's band selection bound. */
  openAsset: (href: string, signal: AbortSignal) => Promise<ImageReader>;
  pixelSelection: PixelSelectionName;
  /** Assets read in parallel per chunk. */
  concurrency: number;
}

/** What one asset holds at a point (`/mosaicjson/point`). */
export interface AssetPointValues extends PointValues {
  asset: string;
}

export class MosaicJsonReader implements ImageReader {
  readonly crs: Crs = WGS84;
  private readonly keys: string[];
  private readonly quadkeyZoom: number;

  constructor(private readonly o: MosaicJsonReaderOptions) {
    this.keys = Object.keys(o.doc.tiles);
    this.quadkeyZoom = quadkeyZoomOf(o.doc);
  }

  get doc(): MosaicJson {
    return this.o.doc;
  }

  get bounds(): Bounds {
    return this.o.doc.bounds;
  }

  boundsIn(crs: Crs): Bounds {
    return datasetGeographicBounds(WGS84, this.o.doc.bounds, crs);
  }

  zoomRange(tms: TileMatrixSet): { minzoom: number; maxzoom: number } {
    if (tms.id === MOSAIC_TMS_ID) return { minzoom: this.o.doc.minzoom, maxzoom: this.o.doc.maxzoom };
    return { minzoom: tms.minzoom, maxzoom: tms.maxzoom };
  }

  tileExists(): boolean {
    return true; // decided per asset (TileOutsideBounds is skipped); no asset → 204
  }

  /** The assets of one index tile at the quadkey zoom (prefix added, in document order). */
  private entry(qk: string): string[] {
    const list = this.o.doc.tiles[qk] ?? [];
    const prefix = this.o.doc.asset_prefix;
    return prefix ? list.map((a) => prefix + a) : list;
  }

  private unique(qks: readonly string[]): string[] {
    return [...new Set(qks.flatMap((qk) => this.entry(qk)))];
  }

  /** Assets for a tile of `tms` (cogeo-mosaic `assets_for_tile`), as written in the document. */
  assetsForTile(tms: TileMatrixSet, x: number, y: number, z: number): string[] {
    if (tms.id === MOSAIC_TMS_ID) {
      const has = (qk: string): boolean => Object.hasOwn(this.o.doc.tiles, qk);
      return this.unique(quadkeysForTile({ x, y, z }, this.quadkeyZoom, this.keys, has));
    }
    return this.assetsForBbox(datasetGeographicBounds(tms.crs, tms.tileBounds(x, y, z), WGS84));
  }

  /** Assets for a bbox in EPSG:4326 (cogeo-mosaic `assets_for_bbox`: index tiles column by column). */
  assetsForBbox(b: Bounds): string[] {
    const tms = getTileMatrixSet(MOSAIC_TMS_ID);
    const qz = this.quadkeyZoom;
    const tl = tms.tileAt(b[0], b[3], qz, true);
    const br = tms.tileAt(b[2], b[1], qz, true);
    const nx = br.x - tl.x + 1;
    const ny = br.y - tl.y + 1;
    if (nx * ny <= this.keys.length) {
      const qks: string[] = [];
      for (let x = tl.x; x <= br.x; x++) for (let y = tl.y; y <= br.y; y++) qks.push(quadkeyOf(x, y, qz));
      return this.unique(qks);
    }
    // A large box over a small index: scan the index, keep the same column-major order.
    const inside = this.keys
      .filter((k) => k.length === qz)
      .map((k) => ({ k, t: tileOfQuadkey(k) }))
      .filter(({ t }) => t.x >= tl.x && t.x <= br.x && t.y >= tl.y && t.y <= br.y)
      .sort((a, b2) => a.t.x - b2.t.x || a.t.y - b2.t.y);
    return this.unique(inside.map((e) => e.k));
  }

  /** Assets for a point (cogeo-mosaic `assets_for_point`). */
  assetsForPoint(x: number, y: number, coordCrs: Crs): string[] {
    const [lon, lat] = sameCrs(coordCrs, WGS84) ? [x, y] : transformPoint(coordCrs, WGS84, x, y);
    const t = getTileMatrixSet(MOSAIC_TMS_ID).tileAt(lon, lat, this.quadkeyZoom, true);
    return this.entry(quadkeyOf(t.x, t.y, t.z));
  }

  async tile(tms: TileMatrixSet, x: number, y: number, z: number, req: Omit<TileRequest, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    const assets = this.assetsForTile(tms, x, y, z);
    if (assets.length === 0) throw Errors.noData(`No assets found for tile ${z}-${x}-${y}`);
    const r = await mosaicRead(assets, (a, s) => this.assetRead(a, s, (reader) => reader.tile(tms, x, y, z, req, s)), {
      method: createPixelSelection(this.o.pixelSelection),
      concurrency: this.o.concurrency,
      ...(signal ? { signal } : {}),
      what: `tile ${z}-${x}-${y}`,
    });
    return r.image;
  }

  part(_req: Omit<PartRequest, 'indexes'>): Promise<ImageData> {
    return Promise.reject(Errors.badRequest('A MosaicJSON is read by tiles and points only'));
  }

  preview(_req: Omit<PreviewRequest, 'indexes'>): Promise<ImageData> {
    return Promise.reject(Errors.badRequest('A MosaicJSON has no preview: use its tiles'));
  }

  /** The first asset's 1×1 image at the point (ImageReader contract); the point route uses pointEach. */
  async point(x: number, y: number, coordCrs: Crs, options: Omit<ReadOptions, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    const assets = this.assetsForPoint(x, y, coordCrs);
    if (assets.length === 0) throw Errors.noData(`No assets found for point (${x}, ${y})`);
    const found = await readEach(assets, (a, s) => this.assetRead(a, s, (r) => r.point(x, y, coordCrs, options, s)), {
      concurrency: this.o.concurrency,
      ...(signal ? { signal } : {}),
      what: `point (${x}, ${y})`,
    });
    return found[0].value;
  }

  /** Values of every asset of the point's index tile that holds data there, in document order ([] when none does). */
  async pointEach(x: number, y: number, coordCrs: Crs, options: Omit<ReadOptions, 'indexes'>, signal?: AbortSignal): Promise<AssetPointValues[]> {
    const assets = this.assetsForPoint(x, y, coordCrs);
    if (assets.length === 0) throw Errors.noData(`No assets found for point (${x}, ${y})`);
    try {
      const found = await readEach(assets, (a, s) => this.assetRead(a, s, (r) => r.point(x, y, coordCrs, options, s)), {
        concurrency: this.o.concurrency,
        ...(signal ? { signal } : {}),
        what: `point (${x}, ${y})`,
      });
      return found.map(({ item, value }) => ({ ...pointValues(value, [x, y]), asset: item }));
    } catch (err) {
      if (isRastileError(err, 'NoData')) return [];
      throw err;
    }
  }

  /** Opens one asset (resolved against the document) and reads it; errors name the asset. */
  private async assetRead<T>(asset: string, signal: AbortSignal, read: (reader: ImageReader) => Promise<T>): Promise<T> {
    try {
      return await read(await this.o.openAsset(resolveHref(asset, this.o.location), signal));
    } catch (err) {
      if (!isRastileError(err) || QUIET_KINDS.has(err.kind)) throw err;
      throw Errors.wrap(err, `Mosaic asset '${asset}': `, { asset });
    }
  }
}

const QUIET_KINDS = new Set(['TileOutsideBounds', 'PointOutsideBounds', 'NoData']);
