/**
 * An opened GeoTIFF plus what the readers derive from it once: CRS, geotransform, bounds,
 * band roles (alpha), mask kind, palette, statistics tags, and the dataset grid in the CRSs it
 * is read in. Opened datasets are cached per location (headers are read once); concurrent
 * requests share one open, each waiting under its own AbortSignal.
 */
import { Errors } from '../../errors.ts';
import { boundsFromGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { crsFromGeoKeys, type Crs } from '../../geo/crs.ts';
import type { BlockCache } from '../../formats/tiff/block-cache.ts';
import { TiffDataset } from '../../formats/tiff/tiff-dataset.ts';
import { SharedWork } from '../../sources/abort.ts';
import { parseLocation } from '../../sources/location.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import { LruCache } from '../../util/lru-cache.ts';
import { representableNodata } from '../../dtype.ts';
import type { Rgba } from '../../raster/image-data.ts';

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
  /** The palette (band 1 colour table) as a colormap, built once and shared by every read: never mutate. */
  palette: Map<number, Rgba> | undefined;
  /** Per band (0-based), its `STATISTICS_MINIMUM`/`MAXIMUM` tags as numbers, or null without both. */
  bandStatistics: ReadonlyArray<Readonly<[number, number]> | null>;
  /**
   * The dataset grid expressed in other CRSs (keyed by CRS id; see CogReader), a few CRSs at
   * most. Values are frozen: shared by every reader of this dataset.
   */
  nativeGrids: LruCache<string, Readonly<GeoTransform>>;
}

/** How many CRSs' native grids a dataset keeps (a server sees a handful of TMS CRSs). */
const NATIVE_GRIDS_PER_DATASET = 8;

export interface DatasetContext {
  sources: SourceOpener;
  blockCache: BlockCache;
  maxBlockBytes: number;
  /** Probe `<file>.ovr` / `<file>.msk` sidecars (local files only: remote probes cost requests). */
  sidecars: boolean;
}

export async function openCogDataset(location: string, ctx: DatasetContext, signal?: AbortSignal): Promise<CogDataset> {
  const source = await ctx.sources.open(location, signal);
  const local = ctx.sidecars && parseLocation(location).kind === 'file';
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
    palette: tiff.palette ? new Map(tiff.palette.map((c, i) => [i, c])) : undefined,
    bandStatistics: tiff.bands.map((b) => statisticsTags(b.metadata)),
    nativeGrids: new LruCache(NATIVE_GRIDS_PER_DATASET, () => 1),
  };
}

function statisticsTags(metadata: Record<string, string>): Readonly<[number, number]> | null {
  const lo = metadata['STATISTICS_MINIMUM'];
  const hi = metadata['STATISTICS_MAXIMUM'];
  return lo === undefined || hi === undefined ? null : Object.freeze([Number(lo), Number(hi)] as [number, number]);
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

/**
 * Cache of opened datasets keyed by location; failures are not cached. Concurrent opens of one
 * location share one attempt that no single caller's AbortSignal can cancel: a caller that
 * aborts stops waiting at once, and the open itself is abandoned only when every caller has.
 */
export class DatasetCache {
  private readonly datasets: LruCache<string, CogDataset>;
  private readonly opening = new Map<string, SharedWork<CogDataset>>();

  constructor(
    private readonly ctx: DatasetContext,
    maxDatasets: number,
  ) {
    this.datasets = new LruCache<string, CogDataset>(maxDatasets, () => 1);
  }

  open(location: string, signal?: AbortSignal): Promise<CogDataset> {
    const hit = this.datasets.get(location);
    if (hit !== undefined) return Promise.resolve(hit);
    let work = this.opening.get(location);
    if (work === undefined || !work.alive) {
      const created = new SharedWork((s) => openCogDataset(location, this.ctx, s));
      work = created;
      this.opening.set(location, created);
      created.promise
        .then(
          (ds) => this.datasets.set(location, ds),
          () => {},
        )
        .finally(() => {
          if (this.opening.get(location) === created) this.opening.delete(location);
        });
    }
    return work.join(signal, 'the dataset');
  }
}
