/**
 * A GeoTIFF as a GridDataset (formats/grid-dataset.ts): the TiffDataset's levels, bands and
 * georeferencing in format-neutral terms, derived once when the file is opened — CRS from the
 * GeoKeys, the nodata GDAL would use, band roles (alpha), mask kind, palette, statistics tags.
 * Opening probes `<file>.ovr` / `<file>.msk` / `<file>.msk.ovr` / `<file>.aux.xml` sidecars for local files.
 */
import { gcpPolynomial } from './gcp-polynomial.ts';
import { gcpWarped } from './gcp-warped.ts';
import type { Rgba } from '../../color.ts';
import { representableNodata, type DType } from '../../dtype.ts';
import { Errors } from '../../errors.ts';
import { boundsFromGeoTransform, type GeoTransform } from '../../geo/affine.ts';
import type { Bounds, Window } from '../../geo/bounds.ts';
import { parseCrs } from '../../geo/crs-parse.ts';
import { crsFromGeoKeys } from '../../geo/crs-geokeys.ts';
import type { Crs } from '../../geo/crs-type.ts';
import { parseLocation } from '../../sources/location.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import type { Source } from '../../sources/source.ts';
import { LocalVersionPeek } from '../../sources/local-version-peek.ts';
import { SidecarProbe } from '../../sources/sidecar-probe.ts';
import { sourceCacheKey } from '../../sources/version.ts';
import type { DatasetVersions } from '../grid-dataset.ts';
import type { GridBand, GridDataset, GridLevel, GridWindowRead, NodataType } from '../grid-dataset.ts';
import type { BlockCache } from './block-cache.ts';
import { TiffDataset } from './tiff-dataset.ts';

export interface TiffGridContext {
  sources: SourceOpener;
  blockCache: BlockCache;
  maxBlockBytes: number;
  /** Probe `<file>.ovr` / `<file>.msk` / `<file>.aux.xml` sidecars (local files only: remote probes cost requests). */
  sidecars: boolean;
}

const SIDECARS = ['.ovr', '.msk', '.msk.ovr', '.aux.xml'] as const;

/** The current sources of a GeoTIFF: the file and, for local files, its sidecars (null when absent). */
async function currentSources(location: string, ctx: TiffGridContext, signal?: AbortSignal): Promise<[Source, ...(Source | null)[]]> {
  const local = ctx.sidecars && parseLocation(location).kind === 'file';
  const [source, sidecars] = await Promise.all([
    ctx.sources.open(location, signal),
    local ? sidecarProbe(ctx.sources).open(location, SIDECARS, signal) : SIDECARS.map(() => null),
  ]);
  return [source, ...sidecars];
}

/** One sidecar probe per opener: absent sidecars are not looked for again while their directory is unchanged. */
const PROBES = new WeakMap<SourceOpener, SidecarProbe>();

function sidecarProbe(opener: SourceOpener): SidecarProbe {
  let probe = PROBES.get(opener);
  if (!probe) PROBES.set(opener, (probe = new SidecarProbe(opener)));
  return probe;
}

/** The version of a GeoTIFF: its file's, plus the sidecars present (a sidecar appearing is a change too). */
function versionOf([source, ...sidecars]: readonly (Source | null)[]): string {
  const parts = [source?.version ?? ''];
  sidecars.forEach((s, i) => {
    if (s !== null) parts.push(`${SIDECARS[i]}=${s.version ?? ''}`);
  });
  return parts.join('|');
}

/**
 * The DatasetCache's version check for GeoTIFFs: the current version of a location (for a local
 * file one stat per file; remote sources know theirs), and dropping a replaced dataset's decoded
 * blocks (those of its source versions the new dataset does not read).
 */
export function tiffGridVersions(ctx: TiffGridContext): DatasetVersions {
  return {
    current: async (location, signal) => versionOf(await currentSources(location, ctx, signal)),
    peek: (location) => (ctx.sidecars ? peekLocalVersion(location) : undefined),
    forget(oldDs, currentDs) {
      const unwrap = (d: GridDataset | undefined) => (d !== undefined && 'inner' in d ? (d as { inner: GridDataset }).inner : d);
      const old = unwrap(oldDs);
      const current = unwrap(currentDs);
      if (!(old instanceof TiffGrid)) return;
      const keep = new Set(current instanceof TiffGrid ? current.sources.map(sourceCacheKey) : []);
      for (const source of old.sources) {
        const key = sourceCacheKey(source);
        if (!keep.has(key)) ctx.blockCache.forgetSource(key);
      }
    },
  };
}

/** `versionOf(currentSources(location))` for a local file from synchronous stats (src/sources/local-version-peek.ts). */
const LOCAL_VERSIONS = new LocalVersionPeek(SIDECARS);
const peekLocalVersion = (location: string): string | undefined => LOCAL_VERSIONS.peek(location);

/** Opens a GeoTIFF (and its sidecars) as a GridDataset; not georeferenced → BadRequest / InvalidCrs. */
export async function openTiffGrid(location: string, ctx: TiffGridContext, signal?: AbortSignal): Promise<GridDataset> {
  const sources = await currentSources(location, ctx, signal);
  const [source, overviewSource, maskSource, maskOverviewSource, pamSource] = sources;
  const tiff = await TiffDataset.open(source, {
    blockCache: ctx.blockCache,
    overviewSource: overviewSource ?? undefined,
    maskSource: maskSource ?? undefined,
    maskOverviewSource: maskOverviewSource ?? undefined,
    pamSource: pamSource ?? undefined,
    maxBlockBytes: ctx.maxBlockBytes,
    signal,
  });
  const grid = new TiffGrid(
    location,
    tiff,
    versionOf(sources),
    sources.filter((s) => s !== null),
  );
  // GCPs: read through GDAL's polynomial warp, as rio-tiler's WarpedVRT does
  const poly = tiff.gcps !== null ? gcpPolynomial(tiff.gcps) : null;
  return poly !== null ? gcpWarped(grid, poly) : grid;
}

export class TiffGrid implements GridDataset {
  readonly driver = 'GTiff';
  readonly width: number;
  readonly height: number;
  readonly count: number;
  readonly dtype: DType;
  readonly crs: Crs;
  readonly geoTransform: GeoTransform;
  readonly bounds: Bounds;
  readonly levels: readonly GridLevel[];
  readonly bands: readonly GridBand[];
  readonly nodata: number | null;
  readonly nodataType: NodataType;
  readonly alphaBand: number | null;
  readonly dataBands: readonly number[];
  readonly colormap: Map<number, Rgba> | undefined;

  constructor(
    readonly location: string,
    private readonly tiff: TiffDataset,
    readonly version = '',
    /** The files read (the file and its sidecars), whose decoded blocks go when a new version replaces this one. */
    readonly sources: readonly Source[] = [tiff.source],
  ) {
    if (tiff.geoTransform === null) throw Errors.badRequest(`'${location}' is not georeferenced (no geotransform)`);
    const crs = (tiff.pamSrs !== null ? crsOrNull(tiff.pamSrs) : null) ?? crsFromGeoKeys(tiff.geoKeys);
    if (crs === null) throw Errors.invalidCrs(`'${location}' has no coordinate reference system`);
    this.width = tiff.width;
    this.height = tiff.height;
    this.count = tiff.count;
    this.dtype = tiff.dtype;
    this.crs = crs;
    this.geoTransform = tiff.geoTransform;
    this.bounds = boundsFromGeoTransform(tiff.geoTransform, tiff.width, tiff.height);
    this.levels = tiff.levels;
    this.bands = tiff.bands.map((b) => ({
      description: b.description,
      colorInterp: b.colorInterp,
      scale: b.scale,
      offset: b.offset,
      nodata: tiff.nodata,
      metadata: b.metadata,
      statistics: statisticsTags(b.metadata),
    }));
    this.nodata = representableNodata(tiff.nodata, tiff.dtype);
    this.alphaBand = tiff.alphaBand;
    this.nodataType = this.nodata !== null ? 'Nodata' : tiff.alphaBand !== null ? 'Alpha' : tiff.hasDatasetMask ? 'Mask' : 'None';
    const dataBands: number[] = [];
    for (let b = 1; b <= tiff.count; b++) if (b !== tiff.alphaBand) dataBands.push(b);
    this.dataBands = dataBands;
    this.colormap = tiff.palette ? new Map(tiff.palette.map((c, i) => [i, c])) : undefined;
  }

  readWindow(level: number, window: Window, bands: readonly number[], signal?: AbortSignal): Promise<GridWindowRead> {
    return this.tiff.readWindow(level, window.col, window.row, window.width, window.height, bands, signal);
  }
}

/** A PAM sidecar's SRS, or null when we cannot interpret it (the GeoKeys are used instead). */
function crsOrNull(text: string): Crs | null {
  try {
    return parseCrs(text);
  } catch {
    return null;
  }
}

function statisticsTags(metadata: Record<string, string>): Readonly<[number, number]> | null {
  const lo = metadata['STATISTICS_MINIMUM'];
  const hi = metadata['STATISTICS_MAXIMUM'];
  return lo === undefined || hi === undefined ? null : Object.freeze([Number(lo), Number(hi)] as [number, number]);
}
