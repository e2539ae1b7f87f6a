/**
 * GDAL/rasterio names of TIFF tag values, shared by the dataset's `compression` (/cog/info) and
 * rio-cogeo's `cog_info` profile (/cog/validate).
 */

/** Compression tag → GDAL COMPRESSION name (the LERC variants are told apart by LercParameters). */
export const COMPRESSION_NAMES: Readonly<Record<number, string>> = {
  1: 'NONE',
  2: 'CCITTRLE',
  3: 'CCITTFAX3',
  4: 'CCITTFAX4',
  5: 'LZW',
  6: 'OJPEG',
  7: 'JPEG',
  8: 'DEFLATE',
  32773: 'PACKBITS',
  32946: 'DEFLATE',
  34712: 'JPEG2000',
  34887: 'LERC',
  34925: 'LZMA',
  50000: 'ZSTD',
  50001: 'WEBP',
  50002: 'JXL',
};

/** Photometric tag → rasterio PhotometricInterp value. */
export const PHOTOMETRIC_NAMES: Readonly<Record<number, string>> = {
  0: 'MINISWHITE',
  1: 'MINISBLACK',
  2: 'RGB',
  3: 'PALETTE',
  4: 'MASK',
  5: 'CMYK',
  6: 'YCbCr',
  8: 'CIELAB',
};

/** GDAL's COMPRESSION for an IFD: LERC with its outer codec (LercParameters[1]), else the tag's name, else UNKNOWN(n). */
export function compressionName(compression: number, lercParameters?: readonly number[] | null): string {
  if (compression === 34887) {
    const outer = lercParameters?.[1] ?? 0;
    return outer === 1 ? 'LERC_DEFLATE' : outer === 2 ? 'LERC_ZSTD' : 'LERC';
  }
  return COMPRESSION_NAMES[compression] ?? `UNKNOWN(${compression})`;
}
