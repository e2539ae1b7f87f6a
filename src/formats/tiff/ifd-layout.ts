/**
 * Everything needed to locate and decode the blocks of one TIFF image (IFD), read once when the
 * file is opened.
 */
import type { Tag as CogTag, TiffImage } from '@cogeotiff/core';
import { Errors } from '../../errors.ts';
import type { DType } from '../../dtype.ts';
import type { Source } from '../../sources/source.ts';
import { BlockOffsets } from './block-offsets.ts';
import { checkHeader } from './header-checks.ts';
import { asBytes, asNumber, asNumbers, readTag, Tag } from './tiff-tags.ts';

/** NewSubfileType bits. */
export const Subfile = { Reduced: 1, Page: 2, Mask: 4 } as const;

export interface IfdLayout {
  /** Index of this image in its file (cache keys). */
  readonly index: number;
  readonly width: number;
  readonly height: number;
  readonly tiled: boolean;
  /** Tile size, or image width × RowsPerStrip for strips. */
  readonly blockWidth: number;
  readonly blockHeight: number;
  readonly blocksAcross: number;
  readonly blocksDown: number;
  readonly samplesPerPixel: number;
  /** 1 = pixel-interleaved, 2 = band-separate. */
  readonly planar: 1 | 2;
  readonly bitsPerSample: number;
  readonly sampleFormat: number;
  /** 16-bit IEEE float samples (decoded to float32). */
  readonly half: boolean;
  readonly dtype: DType;
  readonly compression: number;
  readonly predictor: number;
  readonly photometric: number | null;
  readonly subfileType: number;
  readonly extraSamples: number[];
  readonly jpegTables: Uint8Array | null;
  readonly lercParameters: number[] | null;
  readonly littleEndian: boolean;
  readonly offsets: BlockOffsets;
}

const MAX_DIM = 2 ** 31 - 1;

export async function readIfdLayout(
  image: TiffImage,
  source: Source,
  littleEndian: boolean,
  signal?: AbortSignal,
  maxBlockBytes = Infinity,
): Promise<IfdLayout> {
  const ids = [
    Tag.ImageWidth,
    Tag.ImageLength,
    Tag.BitsPerSample,
    Tag.Compression,
    Tag.Photometric,
    Tag.SamplesPerPixel,
    Tag.RowsPerStrip,
    Tag.PlanarConfiguration,
    Tag.Predictor,
    Tag.TileWidth,
    Tag.TileLength,
    Tag.ExtraSamples,
    Tag.SampleFormat,
    Tag.NewSubfileType,
    Tag.SubfileType,
    Tag.JpegTables,
    Tag.LercParameters,
  ];
  const values = await Promise.all(ids.map((id) => readTag(image, id, signal)));
  const v = new Map<number, unknown>(ids.map((id, i) => [id, values[i]]));
  const num = (id: number): number | null => asNumber(v.get(id));

  const width = num(Tag.ImageWidth);
  const height = num(Tag.ImageLength);
  if (width === null || height === null || width < 1 || height < 1 || width > MAX_DIM || height > MAX_DIM) {
    throw Errors.invalidFormat(`TIFF image ${image.id} has an invalid size (${width}×${height})`, { context: { ifd: image.id } });
  }
  const samplesPerPixel = num(Tag.SamplesPerPixel) ?? 1;
  if (!Number.isInteger(samplesPerPixel) || samplesPerPixel < 1 || samplesPerPixel > 65535) {
    throw Errors.invalidFormat(`TIFF image ${image.id} has an invalid SamplesPerPixel (${samplesPerPixel})`, { context: { ifd: image.id } });
  }
  const bitsList = asNumbers(v.get(Tag.BitsPerSample)) ?? [1];
  const bitsPerSample = bitsList[0];
  if (bitsList.some((b) => b !== bitsPerSample)) {
    throw Errors.unsupported(`TIFF images with different bit depths per sample are not supported (${bitsList.join(', ')})`);
  }
  const sampleFormat = asNumbers(v.get(Tag.SampleFormat))?.[0] ?? 1;
  const { dtype, half } = sampleType(bitsPerSample, sampleFormat);
  const planarTag = num(Tag.PlanarConfiguration) ?? 1;
  const planar: 1 | 2 = planarTag === 2 && samplesPerPixel > 1 ? 2 : 1;

  const tileWidth = num(Tag.TileWidth);
  const tileHeight = num(Tag.TileLength);
  const tiled = tileWidth !== null && tileHeight !== null;
  let blockWidth: number;
  let blockHeight: number;
  if (tiled) {
    blockWidth = tileWidth;
    blockHeight = tileHeight;
  } else {
    blockWidth = width;
    blockHeight = Math.min(num(Tag.RowsPerStrip) ?? height, height);
  }
  if (!(blockWidth >= 1 && blockHeight >= 1 && blockWidth <= MAX_DIM && blockHeight <= MAX_DIM)) {
    throw Errors.invalidFormat(`TIFF image ${image.id} has an invalid block size (${blockWidth}×${blockHeight})`, { context: { ifd: image.id } });
  }
  const blocksAcross = Math.ceil(width / blockWidth);
  const blocksDown = Math.ceil(height / blockHeight);

  const offsetsTag = image.tags.get(tiled ? Tag.TileOffsets : Tag.StripOffsets) as CogTag | undefined;
  const countsTag = image.tags.get(tiled ? Tag.TileByteCounts : Tag.StripByteCounts) as CogTag | undefined;
  if (offsetsTag === undefined || countsTag === undefined) {
    throw Errors.invalidFormat(`TIFF image ${image.id} has no ${tiled ? 'tile' : 'strip'} offsets`, { context: { ifd: image.id } });
  }
  const photometric = num(Tag.Photometric);
  const extraSamples = asNumbers(v.get(Tag.ExtraSamples)) ?? [];
  checkHeader(
    {
      image: image.id,
      width,
      height,
      samplesPerPixel,
      planar,
      photometric,
      tiled,
      blockWidth,
      blockHeight,
      blocksAcross,
      blocksDown,
      dtype,
      bitsPerSampleCount: bitsList.length,
      sampleFormatCount: asNumbers(v.get(Tag.SampleFormat))?.length ?? 0,
      extraSamplesCount: extraSamples.length,
      offsetsCount: offsetsTag.count,
      byteCountsCount: countsTag.count,
    },
    maxBlockBytes,
  );
  let subfileType = num(Tag.NewSubfileType) ?? 0;
  if (v.get(Tag.NewSubfileType) === null) {
    const old = num(Tag.SubfileType);
    if (old === 2) subfileType = Subfile.Reduced;
    else if (old === 3) subfileType = Subfile.Page;
  }

  return {
    index: image.id,
    width,
    height,
    tiled,
    blockWidth,
    blockHeight,
    blocksAcross,
    blocksDown,
    samplesPerPixel,
    planar,
    bitsPerSample,
    sampleFormat,
    half,
    dtype,
    compression: num(Tag.Compression) ?? 1,
    predictor: num(Tag.Predictor) ?? 1,
    photometric,
    subfileType,
    extraSamples,
    jpegTables: asBytes(v.get(Tag.JpegTables)),
    lercParameters: asNumbers(v.get(Tag.LercParameters)),
    littleEndian,
    offsets: new BlockOffsets(source, offsetsTag, countsTag, littleEndian, tiled ? 'Tile' : 'Strip'),
  };
}

/** Output dtype of a TIFF sample type (GDAL's mapping; NBITS < 8 → uint8, float16 → float32). */
export function sampleType(bits: number, format: number): { dtype: DType; half: boolean } {
  const int = format === 2;
  const float = format === 3;
  if (format === 5 || format === 6) throw Errors.unsupported('Complex TIFF sample types are not supported');
  if (float) {
    if (bits === 16) return { dtype: 'float32', half: true };
    if (bits === 32) return { dtype: 'float32', half: false };
    if (bits === 64) return { dtype: 'float64', half: false };
    throw Errors.unsupported(`Unsupported TIFF sample type: ${bits}-bit floating point`);
  }
  if (bits >= 1 && bits <= 8) return { dtype: int && bits === 8 ? 'int8' : 'uint8', half: false };
  if (bits > 8 && bits <= 16) return { dtype: int ? 'int16' : 'uint16', half: false };
  if (bits > 16 && bits <= 32) return { dtype: int ? 'int32' : 'uint32', half: false };
  throw Errors.unsupported(`Unsupported TIFF sample type: ${bits}-bit ${int ? 'signed ' : ''}integer`);
}

/** Samples held by one block (all of them when pixel-interleaved, one when band-separate). */
export const samplesPerBlock = (l: IfdLayout): number => (l.planar === 1 ? l.samplesPerPixel : 1);

export const blocksPerPlane = (l: IfdLayout): number => l.blocksAcross * l.blocksDown;

/** Rows actually stored in block row `blockRow` (the last strip may be shorter). */
export const rowsInBlock = (l: IfdLayout, blockRow: number): number => (l.tiled ? l.blockHeight : Math.min(l.blockHeight, l.height - blockRow * l.blockHeight));
