/**
 * The multi-asset reader (rio-tiler's MultiBaseReader/STACReader semantics): every request is
 * run on each selected asset concurrently with that asset's own band selection, the images are
 * concatenated (bands b1..bN in asset order, see concat.ts) and the global expression, which
 * refers to those b1..bN, is applied last. Bounds, CRS, zooms and tile existence come from the
 * item (projection extension or bbox), not from the assets.
 */
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { boundsAreFinite, boundsIntersect } from '../../geo/bounds.ts';
import { sameCrs, type Crs } from '../../geo/crs.ts';
import type { TileMatrixSet } from '../../geo/tms.ts';
import { datasetGeographicBounds, transformBounds } from '../../geo/transform.ts';
import { applyExpression } from '../../raster/apply-expression.ts';
import type { CompiledExpression } from '../../raster/expression/index.ts';
import type { ImageData } from '../../raster/image-data.ts';
import type { ImageReader } from '../image-reader.ts';
import { readLayer } from '../layer.ts';
import type { ReadOptions } from '../read-options.ts';
import { tilePartRequest, type DatasetReader, type PartRequest, type PreviewRequest, type TileRequest } from '../reader.ts';
import { concatAssetImages } from './concat.ts';
import type { StacItem } from './item.ts';
import { readAssetsConcurrently } from './read-assets.ts';
import type { SelectedAsset } from './select-assets.ts';

/** Opens the dataset of an asset href (services.openCog). */
export type AssetOpener = (href: string, signal?: AbortSignal) => Promise<DatasetReader>;

export interface StacReadOptions {
  /** Global expression over the concatenated bands b1..bN. */
  expression?: CompiledExpression;
  /** Describe each (1-band) asset's band by the asset name. */
  assetAsBand?: boolean;
  /** Keep each asset's band descriptions as its reader gives them (no `<asset>_` prefix: titiler-cmr's xarray backend, one asset). */
  plainDescriptions?: boolean;
}

type Read = (reader: DatasetReader, indexes: number[] | undefined, signal: AbortSignal) => Promise<ImageData>;

export class StacReader implements ImageReader {
  constructor(
    readonly item: StacItem,
    readonly selected: readonly SelectedAsset[],
    private readonly openAsset: AssetOpener,
    private readonly options: StacReadOptions = {},
  ) {}

  get crs(): Crs {
    return this.item.spatial.crs;
  }

  get bounds(): Bounds {
    return this.item.spatial.bounds;
  }

  boundsIn(crs: Crs): Bounds {
    return datasetGeographicBounds(this.crs, this.bounds, crs);
  }

  zoomRange(tms: TileMatrixSet): { minzoom: number; maxzoom: number } {
    const grid = this.item.spatial.grid;
    if (!grid) return { minzoom: tms.minzoom, maxzoom: tms.maxzoom };
    return tms.zoomRange(this.crs, grid.geoTransform, grid.width, grid.height);
  }

  tileExists(tms: TileMatrixSet, x: number, y: number, z: number): boolean {
    let tb = tms.tileBounds(x, y, z);
    if (!sameCrs(tms.crs, this.crs)) {
      try {
        tb = transformBounds(tms.crs, this.crs, tb, 21);
      } catch {
        return true;
      }
      if (!boundsAreFinite(tb)) return true;
    }
    const b = this.bounds;
    if (this.crs.isGeographic && b[0] > b[2]) {
      // bbox across the antimeridian: two boxes
      return boundsIntersect(tb, [b[0], b[1], 180, b[3]]) || boundsIntersect(tb, [-180, b[1], b[2], b[3]]);
    }
    return boundsIntersect(tb, b);
  }

  part(req: Omit<PartRequest, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    return this.read(signal, (r, indexes, s) => r.part({ ...req, indexes }, s));
  }

  preview(req: Omit<PreviewRequest, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    return this.read(signal, (r, indexes, s) => r.preview({ ...req, indexes }, s));
  }

  tile(tms: TileMatrixSet, x: number, y: number, z: number, req: Omit<TileRequest, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    if (!this.tileExists(tms, x, y, z)) return Promise.reject(Errors.tileOutsideBounds(x, y, z));
    // The item decided the tile exists (once, above): each asset reads the tile's part, without
    // a second densified bounds test per asset.
    const part = tilePartRequest(tms, x, y, z, req);
    return this.read(signal, (r, indexes, s) => r.part({ ...part, indexes }, s));
  }

  point(x: number, y: number, coordCrs: Crs, options: Omit<ReadOptions, 'indexes'>, signal?: AbortSignal): Promise<ImageData> {
    return this.read(signal, (r, indexes, s) => r.point(x, y, coordCrs, { ...options, indexes }, s));
  }

  private async read(signal: AbortSignal | undefined, read: Read): Promise<ImageData> {
    if (this.selected.length === 0) {
      throw Errors.missingAssets('assets must be given (`assets=<name>`, repeatable)', { context: { parameter: 'assets' } });
    }
    const images = await readAssetsConcurrently(this.selected, signal, async (sel, s) => {
      const reader = await this.openAsset(sel.asset.href, s);
      const img = await readLayer(sel.layer, (indexes) => read(reader, indexes, s));
      return { asset: sel.asset.name, img: withStacStatistics(img, sel) };
    });
    const img = concatAssetImages(images, this.options.assetAsBand ?? false, this.options.plainDescriptions ?? false);
    const expr = this.options.expression;
    return expr
      ? applyExpression(
          img,
          img.bands.map((_, i) => i + 1),
          expr,
        )
      : img;
  }
}

/**
 * The asset's STAC band statistics become the image's dataset statistics (auto-rescale), for the
 * bands read, unless the asset has its own expression (rio-tiler's `_update_statistics`).
 */
function withStacStatistics(img: ImageData, sel: SelectedAsset): ImageData {
  const stats = sel.asset.statistics;
  if (!stats || sel.layer.expression) return img;
  const indexes = sel.layer.indexes;
  if (indexes) {
    if (!indexes.every((i) => i >= 1 && i <= stats.length)) return img;
    return { ...img, datasetStatistics: indexes.map((i) => stats[i - 1]) };
  }
  return stats.length === img.bands.length ? { ...img, datasetStatistics: stats } : img;
}
