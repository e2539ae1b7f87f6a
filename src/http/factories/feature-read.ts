/**
 * Reading the image under a GeoJSON geometry (rio-tiler `feature`): the geometry's bounds are
 * read (through the reader's own `feature` when it has one, e.g. a mosaic that stops once the
 * inside is filled), then pixels the geometry does not touch are masked.
 */
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
  const req = { ...request, bounds: geometryBounds(geometry), boundsCrs: geometryCrs };
  const { image, used } = reader.feature
    ? await reader.feature(req, { geometry, crs: geometryCrs }, signal)
    : { image: await reader.part(req, signal), used: undefined };
  return { ...cutToGeometry(image, geometry, geometryCrs), used };
}
