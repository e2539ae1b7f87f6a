/**
 * Which STAC assets are rasters we can read (rio-tiler's DEFAULT_VALID_TYPE, titiler spec §12.2):
 * GeoTIFF/COG/JPEG2000/HDF media types, or no media type at all.
 *
 * Media types are compared after normalisation (lower case, no spaces, parameters sorted), so
 * `image/tiff; profile=cloud-optimized; application=geotiff` and its reordered spellings match.
 */

const RASTER_MEDIA_TYPES: readonly string[] = [
  'image/tiff; application=geotiff',
  'image/tiff; application=geotiff; profile=cloud-optimized',
  'image/tiff; profile=cloud-optimized; application=geotiff',
  'image/vnd.stac.geotiff; cloud-optimized=true',
  'image/tiff',
  'image/x.geotiff',
  'image/jp2',
  'application/x-hdf5',
  'application/x-hdf',
];

function normalizeMediaType(type: string): string {
  const [essence, ...params] = type.split(';').map((s) => s.trim().toLowerCase().replace(/\s+/g, ''));
  return [essence, ...params.filter((p) => p !== '').sort()].join(';');
}

const NORMALIZED = new Set(RASTER_MEDIA_TYPES.map(normalizeMediaType));

/** True for a raster media type or a missing one (`type` absent or not a string). */
export function isRasterMediaType(type: unknown): boolean {
  if (type === undefined || type === null) return true;
  if (typeof type !== 'string') return false;
  return NORMALIZED.has(normalizeMediaType(type));
}
