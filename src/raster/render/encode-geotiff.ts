/**
 * GeoTIFF output (`.tif`/`.tiff`) without GDAL: pixel-interleaved, deflate-compressed strips,
 * data bands plus the mask as an unassociated-alpha extra sample, georeferenced with
 * ModelPixelScale + ModelTiepoint from the image bounds and GeoKeys for the EPSG code
 * (GTModelType, GTRasterType = PixelIsArea, Geographic/Projected CS type). No GeoKey directory is
 * written when the CRS has no EPSG code. GDAL/rasterio read it as a normal GeoTIFF.
 * Hand-written: sharp's TIFF output has no GeoTIFF tags and no signed/float multi-band layouts.
 */
import { endianness } from 'node:os';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { Crs } from '../../geo/crs.ts';
import { allocate, bytesPerSample, type DType, type TypedArray } from '../../dtype.ts';
import { interleave } from './interleave.ts';
import { chargeRequest } from '../../util/request-budget.ts';
import { TiffType, tiffHeaderSize, writeTiffHeader, type TiffEntry } from './tiff-ifd.ts';

const deflateAsync = promisify(deflate);
/** ~64 KiB strips: the libuv pool deflates them in parallel (level 6 costs ~12 ms per 256 KiB). */
const STRIP_TARGET_BYTES = 64 * 1024;

export interface GeoTiffInput {
  width: number;
  height: number;
  dtype: DType;
  bands: readonly TypedArray[];
  /** Mask band already in the data dtype, written as alpha; omitted when null. */
  mask: TypedArray | null;
  bounds: Bounds;
  crs: Crs;
}

const SAMPLE_FORMAT: Record<DType, number> = {
  uint8: 1,
  uint16: 1,
  uint32: 1,
  int8: 2,
  int16: 2,
  int32: 2,
  float32: 3,
  float64: 3,
};

/** GeoKeyDirectory values, or null when the CRS has no EPSG code (then GDAL sees no CRS). */
function geoKeys(crs: Crs): number[] | null {
  // OGC:CRS84 has no EPSG code of its own; GeoTIFF spells it as EPSG:4326, as GDAL does.
  const epsg = crs.epsg ?? (crs.id === 'OGC:CRS84' ? 4326 : null);
  if (epsg === null) return null;
  const keys: Array<[number, number]> = [
    [1024, crs.isGeographic ? 2 : 1], // GTModelTypeGeoKey: geographic / projected
    [1025, 1], // GTRasterTypeGeoKey: RasterPixelIsArea
    crs.isGeographic ? [2048, epsg] : [3072, epsg], // GeographicTypeGeoKey / ProjectedCSTypeGeoKey
  ];
  return [1, 1, 0, keys.length, ...keys.flatMap(([id, v]) => [id, 0, 1, v])];
}

export async function encodeGeoTiff(img: GeoTiffInput): Promise<Buffer> {
  if (endianness() !== 'LE') throw Errors.notImplemented('GeoTIFF output needs a little-endian host');
  const { width, height, dtype } = img;
  const planes = img.mask ? [...img.bands, img.mask] : [...img.bands];
  const spp = planes.length;
  const n = width * height;
  // the interleaved pixels, and the deflated strips (at most about as large) until assembled
  chargeRequest(2 * n * spp * bytesPerSample(dtype), `A GeoTIFF of ${spp} band(s) of ${width}×${height} ${dtype}`);
  const pixels = interleave(allocate(dtype, n * spp), planes, n);
  const rowBytes = width * spp * bytesPerSample(dtype);
  const rowsPerStrip = Math.max(1, Math.min(height, Math.floor(STRIP_TARGET_BYTES / rowBytes)));
  const raw = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const jobs: Array<Promise<Buffer>> = [];
  for (let row = 0; row < height; row += rowsPerStrip) {
    jobs.push(deflateAsync(raw.subarray(row * rowBytes, Math.min(height, row + rowsPerStrip) * rowBytes), { level: 6 }));
  }
  const strips = await Promise.all(jobs);

  const rgb = dtype === 'uint8' && img.bands.length === 3;
  const colourSamples = rgb ? 3 : 1;
  const extra = Array.from({ length: spp - colourSamples }, (_, k) => (img.mask && k === spp - colourSamples - 1 ? 2 : 0));
  const [minX, minY, maxX, maxY] = img.bounds;
  const entries: TiffEntry[] = [
    { tag: 256, type: TiffType.LONG, values: [width] },
    { tag: 257, type: TiffType.LONG, values: [height] },
    { tag: 258, type: TiffType.SHORT, values: new Array(spp).fill(8 * bytesPerSample(dtype)) },
    { tag: 259, type: TiffType.SHORT, values: [8] }, // Adobe deflate
    { tag: 262, type: TiffType.SHORT, values: [rgb ? 2 : 1] }, // RGB or MinIsBlack
    { tag: 273, type: TiffType.LONG, values: new Array(strips.length).fill(0) }, // patched below
    { tag: 277, type: TiffType.SHORT, values: [spp] },
    { tag: 278, type: TiffType.LONG, values: [rowsPerStrip] },
    { tag: 279, type: TiffType.LONG, values: strips.map((s) => s.length) },
    { tag: 284, type: TiffType.SHORT, values: [1] }, // chunky
    { tag: 339, type: TiffType.SHORT, values: new Array(spp).fill(SAMPLE_FORMAT[dtype]) },
    { tag: 33550, type: TiffType.DOUBLE, values: [(maxX - minX) / width, (maxY - minY) / height, 0] },
    { tag: 33922, type: TiffType.DOUBLE, values: [0, 0, 0, minX, maxY, 0] },
  ];
  const keys = geoKeys(img.crs);
  if (keys) entries.push({ tag: 34735, type: TiffType.SHORT, values: keys });
  if (extra.length > 0) entries.push({ tag: 338, type: TiffType.SHORT, values: extra });

  let offset = tiffHeaderSize(entries);
  const offsets = strips.map((s) => {
    const at = offset;
    offset += s.length;
    return at;
  });
  entries[5] = { tag: 273, type: TiffType.LONG, values: offsets }; // StripOffsets
  return Buffer.concat([writeTiffHeader(entries), ...strips]);
}
