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
import type { Source } from '../../sources/source.ts';
import { sourceCacheKey } from '../../sources/version.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import { LruCache } from '../../util/lru-cache.ts';
import { representableNodata } from '../../raster/dtype.ts';
import type { Rgba } from '../../raster/image-data.ts';

export type NodataType = 'Nodata' | 'Alpha' | 'Mask' | 'None';

export interface CogDataset {
  location: string;
  /**
   * The version of the bytes this dataset was read from (its file's and sidecars' source
   * versions, src/sources/version.ts): a different version is a different dataset.
   */
  version: string;
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

/** The current sources of a dataset: the file and, for local files, its `.ovr`/`.msk`/`.msk.ovr` sidecars. */
interface DatasetSources {
  source: Source;
  sidecars: [Source | null, Source | null, Source | null];
}

async function currentSources(location: string, ctx: DatasetContext, signal?: AbortSignal): Promise<DatasetSources> {
  const local = ctx.sidecars && parseLocation(location).kind === 'file';
  const [source, ...sidecars] = await Promise.all([
    ctx.sources.open(location, signal),
    ...['.ovr', '.msk', '.msk.ovr'].map((suffix) => (local ? ctx.sources.openIfExists(`${location}${suffix}`, signal) : null)),
  ]);
  return { source, sidecars: sidecars as DatasetSources['sidecars'] };
}

/** The sources each opened dataset reads (the DatasetCache drops their blocks when replaced). */
const SOURCES = new WeakMap<CogDataset, Source[]>();

/** The dataset version: its file's, plus those of the sidecars present (a sidecar appearing is a change too). */
function datasetVersion({ source, sidecars }: DatasetSources): string {
  const parts = [source.version ?? ''];
  sidecars.forEach((s, i) => {
    if (s !== null) parts.push(`${['ovr', 'msk', 'msk.ovr'][i]}=${s.version ?? ''}`);
  });
  return parts.join('|');
}

export async function openCogDataset(
  location: string,
  ctx: DatasetContext,
  signal?: AbortSignal,
  opened?: DatasetSources,
): Promise<CogDataset> {
  const current = opened ?? (await currentSources(location, ctx, signal));
  const { source } = current;
  const [overviewSource, maskSource, maskOverviewSource] = current.sidecars;
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
  const ds: CogDataset = {
    location,
    version: datasetVersion(current),
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
  SOURCES.set(ds, [source, ...current.sidecars.filter((s) => s !== null)]);
  return ds;
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
 * Cache of opened datasets keyed by location; failures are not cached. Each use asks the source
 * opener for the current sources (for a local file one `stat` each; a remote source stays
 * current until a response showed another version) and serves the cached dataset only when
 * they are the version it was read from; otherwise the dataset is read again and the old
 * version's decoded blocks are dropped. Concurrent opens of one version share one attempt that
 * no single caller's AbortSignal can cancel: a caller that aborts stops waiting at once, and the
 * open itself is abandoned only when every caller has.
 */
export class DatasetCache {
  private readonly datasets: LruCache<string, CogDataset>;
  /** Keyed by location and version: an open of an old version is never joined by a newer request. */
  private readonly opening = new Map<string, SharedWork<CogDataset>>();

  constructor(
    private readonly ctx: DatasetContext,
    maxDatasets: number,
  ) {
    this.datasets = new LruCache<string, CogDataset>(maxDatasets, () => 1);
  }

  async open(location: string, signal?: AbortSignal): Promise<CogDataset> {
    const current = await currentSources(location, this.ctx, signal);
    const version = datasetVersion(current);
    const hit = this.datasets.get(location);
    if (hit !== undefined) {
      if (hit.version === version) return hit;
      this.datasets.delete(location);
      this.forgetBlocks(hit, current);
    }
    const key = `${location}\u0000${version}`;
    let work = this.opening.get(key);
    if (work === undefined || !work.alive) {
      const created = new SharedWork((s) => openCogDataset(location, this.ctx, s, current));
      work = created;
      this.opening.set(key, created);
      created.promise
        .then(
          (ds) => {
            const cached = this.datasets.get(location);
            if (cached !== undefined && cached !== ds) this.forgetBlocks(cached, current);
            this.datasets.set(location, ds);
          },
          () => {},
        )
        .finally(() => {
          if (this.opening.get(key) === created) this.opening.delete(key);
        });
    }
    return work.join(signal, 'the dataset');
  }

  /** Drops the decoded blocks of a replaced dataset's source versions that `current` does not read. */
  private forgetBlocks(old: CogDataset, current: DatasetSources): void {
    const keep = new Set([current.source, ...current.sidecars].map((s) => (s === null ? '' : sourceCacheKey(s))));
    for (const source of SOURCES.get(old) ?? []) {
      const key = sourceCacheKey(source);
      if (!keep.has(key)) this.ctx.blockCache.forgetSource(key);
    }
  }
}
