/**
 * A reader with its band selection bound (bidx or expression for one dataset, assets for STAC,
 * granule assets for mosaics): what every image and statistics endpoint talks to.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { Crs } from '../geo/crs.ts';
import type { Geometry } from '../geo/geometry.ts';
import type { TileMatrixSet } from '../geo/tms.ts';
import type { ImageData } from '../raster/image-data.ts';
import { readLayer, type Layer } from './layer.ts';
import type { ReadOptions } from './read-options.ts';
import type { DatasetReader, PartRequest, PointValues, PreviewRequest, TileRequest } from './reader.ts';

type WithoutIndexes<T> = Omit<T, 'indexes'>;

export interface ImageReader {
  readonly crs: Crs;
  readonly bounds: Bounds;
  boundsIn(crs: Crs): Bounds;
  zoomRange(tms: TileMatrixSet): { minzoom: number; maxzoom: number };
  tileExists(tms: TileMatrixSet, x: number, y: number, z: number): boolean;
  part(request: WithoutIndexes<PartRequest>, signal?: AbortSignal): Promise<ImageData>;
  preview(request: WithoutIndexes<PreviewRequest>, signal?: AbortSignal): Promise<ImageData>;
  tile(tms: TileMatrixSet, x: number, y: number, z: number, request: WithoutIndexes<TileRequest>, signal?: AbortSignal): Promise<ImageData>;
  /** The 1×1 image at the point, as DatasetReader.point (one type on both interfaces; `pointValues` makes the /point JSON). */
  point(x: number, y: number, coordCrs: Crs, options: WithoutIndexes<ReadOptions>, signal?: AbortSignal): Promise<ImageData>;
  /**
   * Optional: read the bounds of a shape knowing the shape itself (a mosaic can stop reading once
   * the inside of the geometry is filled) and say which inputs were used. Without it, callers use
   * `part` over the shape's bounds.
   */
  feature?(request: WithoutIndexes<PartRequest>, shape: { geometry: Geometry; crs: Crs }, signal?: AbortSignal): Promise<{ image: ImageData; used?: string[] }>;
}

/** The /point values of a 1×1 image: null where masked. */
export function pointValues(img: ImageData, coordinates: [number, number]): PointValues {
  return {
    coordinates,
    values: img.bands.map((b, i) => (img.masks[i][0] ? b[0] : null)),
    bandNames: img.bandNames,
    bandDescriptions: img.bandDescriptions,
  };
}

/** Binds a single-dataset reader to a bidx/expression layer. */
export function bindLayer(reader: DatasetReader, layer: Layer): ImageReader {
  return {
    crs: reader.crs,
    bounds: reader.bounds,
    boundsIn: (crs) => reader.boundsIn(crs),
    zoomRange: (tms) => reader.zoomRange(tms),
    tileExists: (tms, x, y, z) => reader.tileExists(tms, x, y, z),
    part: (req, signal) => readLayer(layer, (indexes) => reader.part({ ...req, indexes }, signal)),
    preview: (req, signal) => readLayer(layer, (indexes) => reader.preview({ ...req, indexes }, signal)),
    tile: (tms, x, y, z, req, signal) => readLayer(layer, (indexes) => reader.tile(tms, x, y, z, { ...req, indexes }, signal)),
    point: (x, y, crs, opts, signal) => readLayer(layer, (indexes) => reader.point(x, y, crs, { ...opts, indexes }, signal)),
  };
}
