/**
 * Cutting an image to a GeoJSON geometry (rio-tiler's `feature()`): pixels the geometry does not
 * touch (rasterised all_touched) become invalid. One implementation for every caller: the HTTP
 * feature endpoints (after the read) and the granule mosaic (to know when `first` has filled the
 * inside).
 */
import { geoTransformFromBounds } from '../geo/affine.ts';
import type { Crs } from '../geo/crs.ts';
import { toPixelSpace, transformGeometry, type Geometry } from '../geo/geometry.ts';
import type { ImageData } from '../raster/image-data.ts';
import { pixelGeometryKey, toPixelGeometry } from '../raster/pixel-geometry.ts';
import { rasterizeAllTouched, type PixelGeometry } from '../raster/rasterize.ts';
import { currentSharedWork } from '../util/shared-work.ts';

/** The geometry (in `geometryCrs`) in the image's pixel space. */
export function geometryInPixels(img: ImageData, geometry: Geometry, geometryCrs: Crs): PixelGeometry {
  const gt = geoTransformFromBounds(img.bounds, img.width, img.height);
  return toPixelGeometry(toPixelSpace(transformGeometry(geometry, geometryCrs, img.crs), gt));
}

/**
 * rasterizeAllTouched, done once per time series for the steps that see the geometry in the same
 * pixel space (util/shared-work.ts); the mask is only read.
 */
function touched(pixels: PixelGeometry, width: number, height: number): Uint8Array {
  const work = currentSharedWork();
  if (work === undefined) return rasterizeAllTouched(pixels, width, height);
  return work.get(`cutline ${width} ${height} ${pixelGeometryKey(pixels)}`, width * height, () => rasterizeAllTouched(pixels, width, height));
}

/** 255 where the geometry touches a pixel of the image (rasterised all_touched), else 0 (read only). */
export function cutlineMask(img: ImageData, geometry: Geometry, geometryCrs: Crs): Uint8Array {
  return touched(geometryInPixels(img, geometry, geometryCrs), img.width, img.height);
}

/**
 * The image with the pixels the geometry does not touch masked (masks shared between bands stay
 * shared), and the geometry in its pixel space (for coverage fractions).
 */
export function cutToGeometry(img: ImageData, geometry: Geometry, geometryCrs: Crs): { cut: ImageData; pixels: PixelGeometry } {
  const pixels = geometryInPixels(img, geometry, geometryCrs);
  const cutline = touched(pixels, img.width, img.height);
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
