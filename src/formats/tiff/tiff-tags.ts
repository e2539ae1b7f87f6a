/** Typed access to raw tag values of a @cogeotiff/core image, with errors mapped to ours. */
import type { TiffImage } from '@cogeotiff/core';
import { Errors, isRastileError } from '../../errors.ts';

/** Tag ids used by the format layer (TIFF 6, GeoTIFF, GDAL private tags). */
export const Tag = {
  NewSubfileType: 254,
  SubfileType: 255,
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  FillOrder: 266,
  DocumentName: 269,
  ImageDescription: 270,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  PlanarConfiguration: 284,
  Software: 305,
  DateTime: 306,
  Artist: 315,
  HostComputer: 316,
  Predictor: 317,
  ColorMap: 320,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  ExtraSamples: 338,
  SampleFormat: 339,
  JpegTables: 347,
  Copyright: 33432,
  ModelPixelScale: 33550,
  ModelTiepoint: 33922,
  ModelTransformation: 34264,
  GeoKeyDirectory: 34735,
  GdalMetadata: 42112,
  GdalNodata: 42113,
  LercParameters: 50674,
} as const;

type FetchFn = (tag: number, options?: { signal?: AbortSignal }) => Promise<unknown>;

/** The value of tag `id` (fetched if not inline), or null when the image does not have it. */
export async function readTag(image: TiffImage, id: number, signal?: AbortSignal): Promise<unknown> {
  if (!image.tags.has(id)) return null;
  try {
    // cogeotiff types `fetch` per known tag; we read tags by number.
    return await (image.fetch as unknown as FetchFn).call(image, id, { signal });
  } catch (err) {
    if (isRastileError(err) || signal?.aborted) throw err;
    throw Errors.invalidFormat(`Cannot read TIFF tag ${id}: ${(err as Error).message}`, { cause: err });
  }
}

/** number | number[] | typed array → number[] (null for anything else). */
export function asNumbers(value: unknown): number[] | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return [value];
  if (typeof value === 'bigint') return [Number(value)];
  if (Array.isArray(value)) {
    const out: number[] = [];
    for (const v of value) {
      if (typeof v === 'number') out.push(v);
      else if (typeof v === 'bigint') out.push(Number(v));
      else if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') out.push(v[0] / v[1]);
      else return null;
    }
    return out;
  }
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<number>, Number);
  return null;
}

export function asNumber(value: unknown): number | null {
  const arr = asNumbers(value);
  return arr !== null && arr.length > 0 ? arr[0] : null;
}

/** An ASCII tag value without its NUL terminators. */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value.replace(/\0+$/, '').replace(/\0/g, '');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return asText(value.join(''));
  return null;
}

/** Raw bytes of an UNDEFINED/BYTE tag (JPEGTables). */
export function asBytes(value: unknown): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  const nums = asNumbers(value);
  return nums === null ? null : Uint8Array.from(nums);
}
