/**
 * Reading the image under a GeoJSON geometry (rio-tiler `feature`): the geometry's bounds are
 * read (through the reader's own `feature` when it has one, e.g. a mosaic that stops once the
 * inside is filled), then pixels the geometry does not touch are masked.
 */
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs.ts';
import { geometryBounds, type Geometry } from '../../geo/geometry.ts';
import type { ImageData } from '../../raster/image-data.ts';
import type { PixelGeometry } from '../../raster/rasterize.ts';
import { cutToGeometry } from '../../readers/cutline.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import type { PartRequest } from '../../readers/reader.ts';

export interface FeatureImage {
  /** The image with pixels outside the geometry masked. */
  cut: ImageData;
  /** The geometry in the image's pixel space (for coverage fractions). */
  pixels: PixelGeometry;
  /** Inputs the reader used (granules of a mosaic), when it reports them. */
  used?: string[];
}

export async function readFeature(
  reader: ImageReader,
  request: Omit<PartRequest, 'indexes' | 'bounds' | 'boundsCrs'>,
  geometry: Geometry,
  geometryCrs: Crs,
  signal: AbortSignal,
): Promise<FeatureImage> {
  const bounds = geometryBounds(geometry);
  if (!(Number.isFinite(bounds[2] - bounds[0]) && Number.isFinite(bounds[3] - bounds[1]))) {
    throw Errors.badRequest('The geometry is too large to be mapped onto the dataset (its bounds overflow)');
  }
  if (!hasArea(bounds)) {
    throw Errors.badRequest('The geometry has no area (a point, or a line or polygon whose bounds are flat): there are no pixels to read under it');
  }
  const req = { ...request, bounds, boundsCrs: geometryCrs };
  const { image, used } = reader.feature
    ? await reader.feature(req, { geometry, crs: geometryCrs }, signal)
    : { image: await reader.part(req, signal), used: undefined };
  // Coordinates near the float limits (±1e308) give an image whose bounds overflow or collapse.
  if (!hasArea(image.bounds)) throw Errors.badRequest('The geometry is too large to be mapped onto the dataset (its bounds overflow)');
  return { ...cutToGeometry(image, geometry, geometryCrs), used };
}

/** Finite bounds with a positive width and height. */
function hasArea(b: Bounds): boolean {
  const w = b[2] - b[0];
  const h = b[3] - b[1];
  return Number.isFinite(w) && Number.isFinite(h) && w > 0 && h > 0;
}
