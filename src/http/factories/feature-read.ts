/**
 * Reading the image under a GeoJSON geometry (rio-tiler `feature`): the geometry's bounds are
 * read (through the reader's own `feature` when it has one, e.g. a mosaic that stops once the
 * inside is filled), then pixels the geometry does not touch are masked.
 */
import { geoTransformFromBounds } from '../../geo/affine.ts';
import type { Crs } from '../../geo/crs.ts';
import { geometryBounds, toPixelSpace, transformGeometry, type Geometry } from '../../geo/geometry.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { toPixelGeometry } from '../../raster/pixel-geometry.ts';
import { rasterizeAllTouched } from '../../raster/rasterize.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import type { PartRequest } from '../../readers/reader.ts';

export interface FeatureImage {
  /** The image with pixels outside the geometry masked. */
  cut: ImageData;
  /** The geometry in the image's pixel space (for coverage fractions). */
  pixels: ReturnType<typeof toPixelGeometry>;
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

/** Masks the pixels the geometry does not touch (rasterize all_touched, like rio-tiler's feature()). */
function cutToGeometry(img: ImageData, geometry: Geometry, geometryCrs: Crs): { cut: ImageData; pixels: ReturnType<typeof toPixelGeometry> } {
  const gt = geoTransformFromBounds(img.bounds, img.width, img.height);
  const pixels = toPixelGeometry(toPixelSpace(transformGeometry(geometry, geometryCrs, img.crs), gt));
  const cutline = rasterizeAllTouched(pixels, img.width, img.height);
  const shared = new Map<Uint8Array, Uint8Array>();
  const masks = img.masks.map((m) => {
    let out = shared.get(m);
    if (!out) {
      out = new Uint8Array(m.length);
      for (let i = 0; i < m.length; i++) out[i] = m[i] & cutline[i];
      shared.set(m, out);
    }
    return out;
  });
  return { cut: { ...img, masks }, pixels };
}

