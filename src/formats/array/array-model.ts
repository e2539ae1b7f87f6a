/**
 * The multidimensional-array model every array format produces (HDF5/NetCDF-4 in formats/hdf5,
 * NetCDF-3 in formats/netcdf3, Zarr v2/v3 in formats/zarr). Plain metadata plus one chunk-read
 * method, like GridDataset is for grids: nothing of a format's internals (object headers, B-trees,
 * codecs) appears here. formats/array/ turns a variable of such a file into a GridDataset, so the
 * one grid reader serves arrays too.
 */
import type { DType, TypedArray } from '../../dtype.ts';

/**
 * Element type of a variable. 64-bit integers are read as Float64Array (exact to 2^53; CF time
 * axes and counters fit). 'string' and 'other' (compound, opaque, references…) are listed so a
 * listing can show them, but their chunks cannot be read as numbers.
 */
export type ArrayDType = DType | 'int64' | 'uint64' | 'string' | 'other';

/** An attribute value, decoded: numbers (64-bit integers as number), strings, or 1-D lists of them. */
export type AttrValue = string | number | boolean | null | readonly number[] | readonly string[];

export interface ArrayVariable {
  /** Name inside its group ('analysed_sst'). */
  readonly name: string;
  /** Full path from the root, '/'-separated, starting with '/' ('/analysed_sst', '/science/grids/sst'). */
  readonly path: string;
  /**
   * Dimension names, one per axis: NetCDF dimensions, HDF5 dimension scales (DIMENSION_LIST) or
   * Zarr `_ARRAY_DIMENSIONS`/`dimension_names`; 'phony_dim_<i>' (netCDF4-python's rule) when a
   * format names none.
   */
  readonly dims: readonly string[];
  readonly shape: readonly number[];
  /**
   * The chunk grid the variable is read by. Stored chunks for chunked layouts; for contiguous or
   * compact storage the format picks a convenient virtual chunking (e.g. rows of ~1 MB) so that a
   * window never reads a whole large variable. Same length as `shape`, every entry ≥ 1.
   */
  readonly chunkShape: readonly number[];
  readonly dtype: ArrayDType;
  /**
   * The stored element type as numpy names it, when `dtype` does not say it: 'float16' (read as
   * float32), 'complex64', 'compound (12 bytes)'… For listings and messages.
   */
  readonly storedType?: string;
  /** Attributes as stored (no CF decoding here: `_FillValue`, `scale_factor`… stay raw). */
  readonly attrs: Readonly<Record<string, AttrValue>>;
  /** Value of chunks that are not stored (HDF5 fill value message, Zarr `fill_value`, NetCDF default fill), or null. */
  readonly fillValue: number | null;
  /** Compression/filters as names, for listings and validate ('deflate', 'shuffle', 'zstd'…). */
  readonly filters: readonly string[];
  /**
   * Decodes the chunk at chunk-grid coordinates `coords` (same length as `shape`): a row-major
   * array of the full `chunkShape` (edge chunks are full size, their overhang unspecified), or
   * null when the chunk is not stored (the caller fills it with `fillValue`). Reads its bytes
   * through the file's Source (only this chunk's bytes, plus index nodes not yet seen). Throws
   * RastileError: a filter we cannot decode names it (BadRequest-class), corrupt data → a
   * format error naming the variable. Rejects with the signal's reason when aborted.
   */
  readChunk(coords: readonly number[], signal?: AbortSignal): Promise<TypedArray | null>;
}

export interface ArrayGroup {
  /** '' for the root. */
  readonly name: string;
  /** '/' for the root, else '/a/b'. */
  readonly path: string;
  readonly attrs: Readonly<Record<string, AttrValue>>;
  /** Variables (arrays) directly in this group, in the file's order. */
  readonly variables: ReadonlyMap<string, ArrayVariable>;
  /** Sub-groups, in the file's order. */
  readonly groups: ReadonlyMap<string, ArrayGroup>;
}

export interface ArrayFile {
  /** Where it was opened from (cache keys, messages). */
  readonly location: string;
  /** The version of the bytes (the Source's version; for a Zarr store, of its metadata document). */
  readonly version: string;
  /** GDAL-style driver name: 'netCDF' (NetCDF-3 and NetCDF-4), 'HDF5' (HDF5 without netCDF markers), 'Zarr'. */
  readonly driver: 'netCDF' | 'HDF5' | 'Zarr';
  readonly root: ArrayGroup;
  /**
   * Set when the file's tree could not be listed (a Zarr store without consolidated metadata
   * over HTTP/S3): the variable paths it was opened for; the tree holds only what they found.
   */
  readonly probed?: readonly string[];
}
