/**
 * An opened GeoTIFF plus what the readers derive from it once: CRS, geotransform, bounds,
 * band roles (alpha), mask kind. Opened datasets are cached per location (headers are read
 * once), as promises so concurrent requests share one open.
 */
import { Errors } from '../../errors.ts';
import { boundsFromGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { crsFromGeoKeys, type Crs } from '../../geo/crs.ts';
import type { BlockCache } from '../../formats/tiff/block-cache.ts';
import { TiffDataset } from '../../formats/tiff/tiff-dataset.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import { LruCache, SharedPromiseCache } from '../../util/lru-cache.ts';
import { dtypeRange, isFloat, type DType } from '../../raster/dtype.ts';

export type NodataType = 'Nodata' | 'Alpha' | 'Mask' | 'None';

export interface CogDataset {
  location: string;
  tiff: TiffDataset;
  crs: Crs;
  geoTransform: GeoTransform;
  /** Native bounds, normalised (minY < maxY). */
  bounds: Bounds;
  nodataType: NodataType;
  /** The dataset nodata value GDAL would use (null when absent or not representable in the dtype). */
  nodata: number | null;
  /** 1-based indexes of the bands that are not alpha. */
  dataBands: number[];
}

export interface DatasetContext {
  sources: SourceOpener;
  blockCache: BlockCache;
  maxBlockBytes: number;
  /** Probe `<file>.ovr` / `<file>.msk` sidecars (local files only: remote probes cost requests). */
  sidecars: boolean;
}

export async function openCogDataset(location: string, ctx: DatasetContext, signal?: AbortSignal): Promise<CogDataset> {
  const source = await ctx.sources.open(location, signal);
  const local = ctx.sidecars && !/^[a-z][a-z0-9+.-]*:\/\//i.test(location.replace(/^file:\/\//i, ''));
  const [overviewSource, maskSource, maskOverviewSource] = local
    ? await Promise.all(['.ovr', '.msk', '.msk.ovr'].map((suffix) => ctx.sources.openIfExists(`${location}${suffix}`, signal)))
    : [null, null, null];
  const tiff = await TiffDataset.open(source, {
    blockCache: ctx.blockCache,
    overviewSource: overviewSource ?? undefined,
    maskSource: maskSource ?? undefined,
    maskOverviewSource: maskOverviewSource ?? undefined,
    maxBlockBytes: ctx.maxBlockBytes,
    signal,
  });
  if (tiff.geoTransform === null) throw Errors.badRequest(`'${location}' is not georeferenced (no geotransform)`);
  const crs = crsFromGeoKeys(tiff.geoKeys);
  if (crs === null) throw Errors.invalidCrs(`'${location}' has no coordinate reference system`);
  const nodata = representableNodata(tiff.nodata, tiff.dtype);
  const nodataType: NodataType =
    nodata !== null ? 'Nodata' : tiff.alphaBand !== null ? 'Alpha' : tiff.hasDatasetMask ? 'Mask' : 'None';
  const dataBands: number[] = [];
  for (let b = 1; b <= tiff.count; b++) if (b !== tiff.alphaBand) dataBands.push(b);
  return {
    location,
    tiff,
    crs,
    geoTransform: tiff.geoTransform,
    bounds: boundsFromGeoTransform(tiff.geoTransform, tiff.width, tiff.height),
    nodataType,
    nodata,
    dataBands,
  };
}

/**
 * GDAL ignores a nodata value an integer band cannot hold (e.g. -10000 on a Byte band), so the
 * dataset then has no nodata at all.
 */
export function representableNodata(nodata: number | null, dtype: DType): number | null {
  if (nodata === null || isFloat(dtype)) return nodata;
  const [lo, hi] = dtypeRange(dtype);
  return Number.isInteger(nodata) && nodata >= lo && nodata <= hi ? nodata : null;
}

/** The requested 1-based band indexes (default: every non-alpha band), validated. */
export function bandIndexes(ds: CogDataset, requested: number[] | undefined): number[] {
  if (requested === undefined || requested.length === 0) return ds.dataBands;
  for (const i of requested) {
    if (!Number.isInteger(i) || i < 1 || i > ds.tiff.count) {
      throw Errors.invalidBandIndex(`Band index ${i} is out of range: the dataset has ${ds.tiff.count} band(s)`);
    }
  }
  return requested;
}

/** Cache of opened datasets keyed by location; failures are not cached. */
export class DatasetCache {
  private readonly cache: SharedPromiseCache<string, CogDataset>;

  constructor(
    private readonly ctx: DatasetContext,
    maxDatasets: number,
  ) {
    this.cache = new SharedPromiseCache(new LruCache<string, CogDataset>(maxDatasets, () => 1));
  }

  open(location: string, signal?: AbortSignal): Promise<CogDataset> {
    return this.cache.getOrCreate(location, () => openCogDataset(location, this.ctx, signal));
  }
}
