/** Output image formats (TiTiler ImageType, §5.1) and their media types. */
export type ImageFormat = 'png' | 'npy' | 'tif' | 'tiff' | 'jpeg' | 'jpg' | 'jp2' | 'webp' | 'pngraw';

/** TiTiler's ImageType order. */
export const IMAGE_FORMATS: readonly ImageFormat[] = Object.freeze(['png', 'npy', 'tif', 'tiff', 'jpeg', 'jpg', 'jp2', 'webp', 'pngraw'] as const);

const MEDIA_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  npy: 'application/x-binary',
  tif: 'image/tiff; application=geotiff',
  tiff: 'image/tiff; application=geotiff',
  jpeg: 'image/jpeg',
  jpg: 'image/jpg', // TiTiler quirk: non-standard, kept for compatibility
  jp2: 'image/jp2',
  webp: 'image/webp',
  pngraw: 'image/png',
};

export const mediaType = (format: ImageFormat): string => MEDIA_TYPES[format];

export const isImageFormat = (s: string): s is ImageFormat => (IMAGE_FORMATS as readonly string[]).includes(s);

/** GDAL driver name TiTiler reports in encoding errors. */
export function driverName(format: ImageFormat): string {
  switch (format) {
    case 'png':
    case 'pngraw':
      return 'PNG';
    case 'jpeg':
    case 'jpg':
      return 'JPEG';
    case 'webp':
      return 'WEBP';
    case 'jp2':
      return 'JP2OPENJPEG';
    case 'tif':
    case 'tiff':
      return 'GTIFF';
    case 'npy':
      return 'NPY';
  }
}
