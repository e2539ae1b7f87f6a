/**
 * The seam between file formats and readers: a georeferenced grid of bands with reduced-resolution
 * levels, read by pixel windows. A GeoTIFF implements it (formats/tiff/tiff-grid.ts); an array
 * variable of an HDF5/NetCDF/Zarr file is meant to implement it the same way. Readers
 * (readers/grid/) only see this interface: nothing of a format's internals (IFDs, tags, chunks)
 * may appear here. Plain data plus one read method, so any format can stand behind it.
 */
import type { Rgba } from '../color.ts';
import type { DType, TypedArray } from '../dtype.ts';
import type { GeoTransform } from '../geo/affine.ts';
import type { Bounds, Window } from '../geo/bounds.ts';
import type { Crs } from '../geo/crs-type.ts';

/** How validity is decided, as rasterio names it (`nodata_type` of /info). */
export type NodataType = 'Nodata' | 'Alpha' | 'Mask' | 'None';

/** One resolution level of the grid: [0] is full resolution, then overviews, largest first. */
export interface GridLevel {
  width: number;
  height: number;
  /** Storage block (tile, strip or chunk) size: reads are cheapest in whole blocks. */
  blockWidth: number;
  blockHeight: number;
  /** A per-dataset validity mask exists for this level (readWindow then returns it). */
  hasMask: boolean;
}

/** What is known about one band. */
export interface GridBand {
  /** '' when none. */
  description: string;
  /** GDAL-style lower-case colour interpretation: gray, red, green, blue, alpha, palette, undefined, … */
  colorInterp: string;
  /** Value = raw × scale + offset (1 / 0 when none). */
  scale: number;
  offset: number;
  /** The band's nodata value as stored (NaN allowed), null when none. */
  nodata: number | null;
  /** Band metadata items (e.g. STATISTICS_MINIMUM), as /info `band_metadata` shows them. */
  metadata: Readonly<Record<string, string>>;
  /** [min, max] from the band's statistics metadata, or null without both. Frozen: shared by every read. */
  statistics: Readonly<[number, number]> | null;
}

/** A raw read of a pixel window of one level. */
export interface GridWindowRead {
  /** One array per requested band, `width*height` samples of `dtype`, row-major. */
  bands: TypedArray[];
  /** The per-dataset mask of the window (255 valid, 0 masked) when the level has one, else null. */
  mask: Uint8Array | null;
}

export interface GridDataset {
  /** Where the dataset was opened from (cache key, error messages). */
  readonly location: string;
  /**
   * The version of the bytes the dataset was read from (its files' source versions,
   * sources/version.ts): another version of the same location is another dataset. A plain string,
   * fit for cache keys.
   */
  readonly version: string;
  /** Format name as GDAL would report it (`driver` of /info): 'GTiff', 'netCDF', 'HDF5', 'Zarr', … */
  readonly driver: string;
  /** Full-resolution size (= levels[0]). */
  readonly width: number;
  readonly height: number;
  /** Number of bands, alpha included. */
  readonly count: number;
  readonly dtype: DType;
  readonly crs: Crs;
  /** Full-resolution pixel → CRS affine (GDAL order). */
  readonly geoTransform: GeoTransform;
  /** Native bounds, normalised (minY < maxY). */
  readonly bounds: Bounds;
  readonly levels: readonly GridLevel[];
  readonly bands: readonly GridBand[];
  /** The dataset nodata value readers mask with (null when absent or not representable in `dtype`). */
  readonly nodata: number | null;
  readonly nodataType: NodataType;
  /** 1-based index of the (first) alpha band, or null. */
  readonly alphaBand: number | null;
  /** 1-based indexes of the bands that are not alpha (the default band selection). */
  readonly dataBands: readonly number[];
  /** The palette of band 1 as a colormap, shared by every read: never mutate. */
  readonly colormap: Map<number, Rgba> | undefined;
  /**
   * True for datasets read like rio-tiler's XarrayReader (arrays): a part is always read on exactly
   * the requested bounds (XarrayReader has no `align_bounds_with_dataset`), so readers ignore
   * `alignBoundsWithDataset` for it.
   */
  readonly exactBoundsParts?: boolean;
  /**
   * Reads an integer pixel window of a level; the window must lie inside the level. `bands` are
   * 1-based (duplicates allowed, returned as separate arrays). Arrays may sit on BUFFER_POOL
   * buffers: a caller done with them may give them back. An aborted read rejects with the
   * signal's reason.
   */
  readWindow(level: number, window: Window, bands: readonly number[], signal?: AbortSignal): Promise<GridWindowRead>;
}

/**
 * How a dataset cache tells whether a cached dataset is still what its location holds. Each
 * format provides it with its opener (formats/tiff/tiff-grid.ts `tiffGridVersions`).
 */
export interface DatasetVersions {
  /** The version `location` holds now (as `GridDataset.version` would be), cheaply: a stat per local file. */
  current(location: string, signal?: AbortSignal): Promise<string>;
  /** Lets go of what `old` keeps in shared caches once `current` (when it opened) replaced it. */
  forget(old: GridDataset, current: GridDataset | undefined): void;
  /**
   * The version `current` would give, from synchronous stats of local files alone (the response
   * cache's per-hit check: no root resolution, no handles, no promises); undefined when that
   * cannot tell (remote, missing, changed within the racy window): then `current` decides.
   */
  peek?(location: string): string | undefined;
}
