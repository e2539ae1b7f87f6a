/**
 * The reader interface every endpoint works against (rio-tiler's BaseReader): one read
 * primitive (`part`) plus `preview`, `tile`, `point` as thin wrappers, and metadata.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { Crs } from '../geo/crs.ts';
import type { TileMatrixSet } from '../geo/tms.ts';
import type { ImageData } from '../raster/image-data.ts';
import type { Info } from './info.ts';
import type { ReadOptions } from './read-options.ts';

export interface PartRequest extends ReadOptions {
  bounds: Bounds;
  /** CRS of `bounds` (default: dstCrs). */
  boundsCrs?: Crs;
  /** Output CRS (default: the dataset CRS). */
  dstCrs?: Crs;
  width?: number;
  height?: number;
  maxSize?: number;
  buffer?: number;
  padding?: number;
  /** Snap the bounds outward to the dataset pixel grid (POST statistics). */
  alignBoundsWithDataset?: boolean;
}

export interface PreviewRequest extends ReadOptions {
  maxSize?: number;
  width?: number;
  height?: number;
  dstCrs?: Crs;
}

export interface TileRequest extends ReadOptions {
  tilesize?: number;
  buffer?: number;
  padding?: number;
}

export interface PointValues {
  /** Coordinates as given by the client. */
  coordinates: [number, number];
  values: Array<number | null>;
  bandNames: string[];
  bandDescriptions: string[];
}

export interface DatasetReader {
  readonly crs: Crs;
  /** The dataset's /info record (rio-tiler `info()`). */
  info(): Info;
  /** Native bounds in `crs`. */
  readonly bounds: Bounds;
  /** Bounds in another CRS (21-point densified), (-180,-90,180,90) when the transform fails. */
  boundsIn(crs: Crs): Bounds;
  zoomRange(tms: TileMatrixSet): { minzoom: number; maxzoom: number };
  tileExists(tms: TileMatrixSet, x: number, y: number, z: number): boolean;
  part(request: PartRequest, signal?: AbortSignal): Promise<ImageData>;
  preview(request: PreviewRequest, signal?: AbortSignal): Promise<ImageData>;
  tile(tms: TileMatrixSet, x: number, y: number, z: number, request: TileRequest, signal?: AbortSignal): Promise<ImageData>;
  /** The 1×1 image of the pixel containing the point (rio-tiler `point`); outside → PointOutsideBounds. `pointValues` turns it into /point JSON. */
  point(x: number, y: number, coordCrs: Crs, options: ReadOptions, signal?: AbortSignal): Promise<ImageData>;
}

/**
 * The part read a tile is (rio-tiler `tile` → `part`): the tile's bounds in the TMS CRS, read
 * in that CRS at the tile size. Whoever calls it has checked `tileExists` once for the tile.
 */
export function tilePartRequest<R extends TileRequest>(tms: TileMatrixSet, x: number, y: number, z: number, req: R): Omit<R, 'tilesize'> & PartRequest {
  const m = tms.matrix(z);
  const { tilesize, ...rest } = req;
  return { ...rest, bounds: tms.tileBounds(x, y, z), dstCrs: tms.crs, width: tilesize ?? m.tileWidth, height: tilesize ?? m.tileHeight };
}
