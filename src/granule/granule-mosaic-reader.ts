/**
 * The /raster backend's reader: an ImageReader over the granules a CMR search finds for each
 * request's area (titiler-cmr §4.4–4.6). Every read searches first (the tile's, bbox's or
 * feature's bounds in EPSG:4326, or the point), opens each granule as a multi-asset item
 * (StacReader over `granuleAssets`), reads the same tile/part from each, and mosaics them in CMR
 * order with the pixel-selection method (src/mosaic). Points are read per granule, not mosaicked.
 *
 * Metadata is the search's, not the data's: bounds = `granule_ur`'s footprint envelope, else the
 * `bounding_box` parameter, else the world (resolved by the backend before construction); CRS
 * EPSG:4326; zooms 0–18; every tile "exists" (an empty search answers 204 instead of 404).
 */
import { Errors, isRastileError } from '../errors.ts';
import type { Bounds } from '../geo/bounds.ts';
import { sameCrs, WGS84, type Crs } from '../geo/crs.ts';
import type { Geometry } from '../geo/geometry.ts';
import type { TileMatrixSet } from '../geo/tms.ts';
import { datasetGeographicBounds, transformPoint } from '../geo/transform.ts';
import { mosaicRead, type MosaicResult } from '../mosaic/mosaic-read.ts';
import { createPixelSelection, type PixelSelectionName } from '../mosaic/pixel-selection.ts';
import { readEach } from '../mosaic/read-each.ts';
import type { CompiledExpression } from '../raster/expression/index.ts';
import type { ImageData } from '../raster/image-data.ts';
import type { Granule, GranuleAsset, SearchArea } from '../search/types.ts';
import { cutlineMask } from '../readers/cutline.ts';
import { pointValues, type ImageReader } from '../readers/image-reader.ts';
import { LinkedAbortController } from '../sources/linked-controller.ts';
import type { ReadOptions } from '../readers/read-options.ts';
import type { PartRequest, PointValues, PreviewRequest, TileRequest } from '../readers/reader.ts';
import type { AssetRequest } from '../readers/stac/asset-request.ts';
import { selectAssets } from '../readers/stac/select-assets.ts';
import { StacReader, type AssetOpener } from '../readers/stac/stac-reader.ts';
import { granuleItem } from './granule-item.ts';

export interface GranuleLayer {
  /** Assets to read, in output-band order (per-asset bidx/expression notation allowed). */
  assets: AssetRequest[];
  /** Global expression over the concatenated bands b1..bN. */
  expression?: CompiledExpression;
  assetAsBand: boolean;
  /** Band descriptions as the asset's reader gives them, without the `<asset>_` prefix (/array). */
  plainDescriptions?: boolean;
}

export interface GranuleMosaicOptions {
  /** The CMR search bound to the request's filters: granules for an area, in CMR order. */
  search: (area: SearchArea, signal: AbortSignal) => AsyncIterable<Granule>;
  /** A granule's assets (`granuleAssets(granule, assets_regex)`). */
  assets: (granule: Granule) => GranuleAsset[];
  openAsset: AssetOpener;
  layer: GranuleLayer;
  pixelSelection: PixelSelectionName;
  /** Which assets the backend can read (default: GeoTIFF files, `isReadableAsset`). */
  readableAsset?: (asset: GranuleAsset) => boolean;
  /** Granules read in parallel per chunk. */
  concurrency: number;
  /** Search bounds in EPSG:4326 (info, tilejson, tilesets). */
  bounds: Bounds;
  minzoom?: number;
  maxzoom?: number;
}

/** What a granule contributed at a point (`/raster/point`). */
export interface GranulePointValues extends PointValues {
  granule: Granule;
}

/** A feature read: the mosaic plus the granules used (`used_assets` of POST /statistics). */
export type GranuleMosaic = MosaicResult<Granule>;

export class GranuleMosaicReader implements ImageReader {
  readonly crs: Crs = WGS84;

  constructor(private readonly o: GranuleMosaicOptions) {}

  get bounds(): Bounds {
    return this.o.bounds;
  }

  boundsIn(crs: Crs): Bounds {
    return datasetGeographicBounds(WGS84, this.o.bounds, crs);
  }

  zoomRange(): { minzoom: number; maxzoom: number } {
    return { minzoom: this.o.minzoom ?? 0, maxzoom: this.o.maxzoom ?? 18 };
  }

  tileExists(): boolean {
    return true;
  }

  async tile(tms: TileMatrixSet, x: number, y: number, z: number, req: Omit<TileRequest, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    const area = datasetGeographicBounds(tms.crs, tms.tileBounds(x, y, z), WGS84);
    const r = await this.mosaic({ kind: 'bbox', bounds: area }, `tile ${z}-${x}-${y}`, (g, s) => g.tile(tms, x, y, z, req, s), signal);
    return r.image;
  }

  async part(req: Omit<PartRequest, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    return (await this.partMosaic(req, undefined, signal)).image;
  }

  /**
   * A part read, optionally for a feature: with `cutline`, `first` stops once every pixel inside
   * the geometry is filled (the caller still masks the pixels outside it).
   */
  partMosaic(req: Omit<PartRequest, 'indexes'>, cutline: { geometry: Geometry; crs: Crs } | undefined, signal?: AbortSignal): Promise<GranuleMosaic> {
    const boundsCrs = req.boundsCrs ?? req.dstCrs ?? WGS84;
    const area = datasetGeographicBounds(boundsCrs, req.bounds, WGS84);
    const mask = cutline ? (img: ImageData) => cutlineMask(img, cutline.geometry, cutline.crs) : undefined;
    return this.mosaic({ kind: 'bbox', bounds: area }, cutline ? 'the feature' : 'the bbox', (g, s) => g.part(req, s), signal, mask);
  }

  /** ImageReader.feature: the mosaic under a geometry and the granules it used (`used_assets`). */
  async feature(
    req: Omit<PartRequest, 'indexes'>,
    shape: { geometry: Geometry; crs: Crs },
    signal?: AbortSignal,
  ): Promise<{ image: ImageData; used: string[] }> {
    const { image, used } = await this.partMosaic(req, shape, signal);
    return { image, used: used.map((g) => g.granuleUr) };
  }

  preview(_req: Omit<PreviewRequest, 'indexes'>): Promise<ImageData> {
    return Promise.reject(Errors.badRequest('A granule mosaic has no preview: use a tile, bbox or feature'));
  }

  /** The first granule's 1×1 image at the point (ImageReader contract); `/raster/point` uses pointEach. */
  async point(x: number, y: number, coordCrs: Crs, options: Omit<ReadOptions, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    const [first] = await this.pointImages(x, y, coordCrs, options, signal);
    return first.image;
  }

  /** Values of every found granule that contains the point, in CMR order. */
  async pointEach(x: number, y: number, coordCrs: Crs, options: Omit<ReadOptions, 'indexes'>, signal?: AbortSignal): Promise<GranulePointValues[]> {
    const found = await this.pointImages(x, y, coordCrs, options, signal);
    return found.map(({ granule, image }) => ({ ...pointValues(image, [x, y]), granule }));
  }

  /** The 1×1 image of every found granule that contains the point, in CMR order. */
  private async pointImages(
    x: number,
    y: number,
    coordCrs: Crs,
    options: Omit<ReadOptions, 'indexes'>,
    signal?: AbortSignal,
  ): Promise<Array<{ granule: Granule; image: ImageData }>> {
    const [lon, lat] = sameCrs(coordCrs, WGS84) ? [x, y] : transformPoint(coordCrs, WGS84, x, y);
    const controller = new LinkedAbortController(signal);
    try {
      const found = await readEach(
        this.o.search({ kind: 'point', lon, lat }, controller.signal),
        (g, s) => this.granuleRead(g, (r) => r.point(x, y, coordCrs, options, s)),
        { concurrency: this.o.concurrency, signal: controller.signal, what: `point (${x}, ${y})` },
      );
      return found.map(({ item, value }) => ({ granule: item, image: value }));
    } finally {
      controller.abort();
      controller.dispose();
    }
  }

  private async mosaic(
    area: SearchArea,
    what: string,
    read: (reader: StacReader, signal: AbortSignal) => Promise<ImageData>,
    signal: AbortSignal | undefined,
    cutline?: (first: ImageData) => Uint8Array,
  ): Promise<GranuleMosaic> {
    const controller = new LinkedAbortController(signal);
    try {
      return await mosaicRead(this.o.search(area, controller.signal), (g, s) => this.granuleRead(g, (r) => read(r, s)), {
        method: createPixelSelection(this.o.pixelSelection),
        concurrency: this.o.concurrency,
        signal: controller.signal,
        cutline,
        what,
      });
    } finally {
      controller.abort(); // ends a search still paging (first filled the area early)
      controller.dispose();
    }
  }

  /** Opens one granule as a multi-asset reader and runs `read`; errors name the granule. */
  private async granuleRead<T>(granule: Granule, read: (reader: StacReader) => Promise<T>): Promise<T> {
    try {
      const item = granuleItem(granule, this.o.assets(granule), this.o.readableAsset);
      const selected = selectAssets(item, this.o.layer.assets, { allowAll: false });
      const reader = new StacReader(item, selected, this.o.openAsset, {
        expression: this.o.layer.expression,
        assetAsBand: this.o.layer.assetAsBand,
        plainDescriptions: this.o.layer.plainDescriptions ?? false,
      });
      return await read(reader);
    } catch (err) {
      throw withGranuleName(err, granule.granuleUr);
    }
  }
}

const QUIET_KINDS = new Set(['TileOutsideBounds', 'PointOutsideBounds', 'NoData']);

function withGranuleName(err: unknown, ur: string): unknown {
  if (!isRastileError(err) || QUIET_KINDS.has(err.kind) || err.message.startsWith('Granule ')) return err;
  return Errors.wrap(err, `Granule '${ur}': `, { granule: ur });
}
