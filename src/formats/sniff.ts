/**
 * What a file that is not a TIFF is, from its first bytes (magic numbers), so /cog can say
 * "this is a NetCDF-3 file" instead of "bad byte-order mark", and name the route that reads it.
 */

export interface SniffedFormat {
  /** The format as a noun phrase with its article ("a NetCDF-3 (classic) file"). */
  name: string;
  /** What reads it here (or that nothing does yet), phrased for an API client. */
  hint: string;
}

const ARRAY_HINT = 'NetCDF/HDF5/Zarr files are read by the array routes: /zarr?url=…&variable=…';
const CONVERT_HINT = '/cog reads GeoTIFF/COG only: convert it first (e.g. gdal_translate -of COG)';

const startsWith = (b: Uint8Array, at: number, magic: readonly number[]): boolean => b.length >= at + magic.length && magic.every((v, i) => b[at + i] === v);
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

const HDF5 = [0x89, ...ascii('HDF\r\n'), 0x1a, 0x0a];
/** Where an HDF5 superblock may start (0, then 512 · 2^k: files with a user block). */
const HDF5_OFFSETS = [0, 512, 1024, 2048, 4096, 8192];

/** The format of a file whose first bytes are `head`, when we recognise it. */
export function sniffFormat(head: Uint8Array): SniffedFormat | null {
  if (startsWith(head, 0, ascii('CDF')) && [1, 2, 5].includes(head[3] ?? -1)) {
    const kind = head[3] === 1 ? 'classic' : head[3] === 2 ? '64-bit offset' : 'CDF-5';
    return { name: `a NetCDF-3 (${kind}) file`, hint: ARRAY_HINT };
  }
  if (HDF5_OFFSETS.some((at) => startsWith(head, at, HDF5))) return { name: 'an HDF5 (or NetCDF-4) file', hint: ARRAY_HINT };
  if (startsWith(head, 0, [0x0e, 0x03, 0x13, 0x01])) return { name: 'an HDF4 file', hint: ARRAY_HINT };
  if (startsWith(head, 0, [0x00, 0x00, 0x00, 0x0c, ...ascii('jP  '), 0x0d, 0x0a, 0x87, 0x0a])) return { name: 'a JPEG 2000 (JP2) file', hint: CONVERT_HINT };
  if (startsWith(head, 0, [0xff, 0x4f, 0xff, 0x51])) return { name: 'a JPEG 2000 codestream', hint: CONVERT_HINT };
  if (startsWith(head, 0, [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a])) return { name: 'a PNG image', hint: CONVERT_HINT };
  if (startsWith(head, 0, [0xff, 0xd8, 0xff])) return { name: 'a JPEG image', hint: CONVERT_HINT };
  if (startsWith(head, 0, ascii('GIF8'))) return { name: 'a GIF image', hint: CONVERT_HINT };
  if (startsWith(head, 0, ascii('RIFF')) && startsWith(head, 8, ascii('WEBP'))) return { name: 'a WebP image', hint: CONVERT_HINT };
  if (startsWith(head, 0, ascii('GRIB'))) return { name: 'a GRIB file', hint: CONVERT_HINT };
  if (startsWith(head, 0, ascii('PK')) && [3, 5, 7].includes(head[2] ?? -1)) {
    return { name: 'a ZIP archive', hint: 'a zipped dataset is not read by /cog (zipped Zarr stores are not read either)' };
  }
  if (startsWith(head, 0, [0x1f, 0x8b]))
    return { name: 'gzip-compressed data', hint: '/cog reads uncompressed GeoTIFF/COG files (their blocks may be compressed inside)' };
  if (startsWith(head, 0, ascii('%PDF'))) return { name: 'a PDF document', hint: CONVERT_HINT };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, 256)).trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) {
    return { name: 'an HTML page', hint: 'the URL answers with a web page, not with the file itself' };
  }
  if (text.startsWith('<?xml') || text.startsWith('<')) return { name: 'an XML document', hint: CONVERT_HINT };
  if (text.startsWith('{') || text.startsWith('[')) {
    return { name: 'a JSON document', hint: 'a STAC item is read by /stac, a Zarr store by /zarr' };
  }
  return null;
}
