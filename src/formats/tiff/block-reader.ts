/**
 * Fetch and decode one block of one image: locate it, read exactly its bytes, decompress,
 * undo the predictor and byte order, convert to the output dtype and split into sample planes.
 */
import { Errors } from '../../errors.ts';
import type { TypedArray } from '../../dtype.ts';
import { allocate, bytesPerSample, isFloat } from '../../dtype.ts';
import type { Source } from '../../sources/source.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import type { DecodedBlock } from './block-cache.ts';
import { inflateBlock } from './decoders/inflate.ts';
import { lercDecode } from './decoders/lerc.ts';
import { lzwDecode } from './decoders/lzw.ts';
import { packbitsDecode } from './decoders/packbits.ts';
import { horizontalToPlanes, swapBytes, undoFloatingPoint, undoHorizontal } from './decoders/predictor.ts';
import { aligned, bytesToSamples, deinterleave } from './decoders/samples.ts';
import { sharpDecode, withJpegTables } from './decoders/sharp-image.ts';
import { zstdDecode } from './decoders/zstd.ts';
import type { IfdLayout } from './ifd-layout.ts';
import { blocksPerPlane, rowsInBlock, samplesPerBlock } from './ifd-layout.ts';

export interface BlockReadOptions {
  /** Cap on the decoded size of one block, in bytes. */
  maxBlockBytes: number;
  /** Value of never-written (sparse) blocks: the nodata value, else 0. */
  fill: number;
  /** Decode as a mask: one plane of 0 (masked) / 255 (valid). */
  mask: boolean;
  /** Used in error messages. */
  what: string;
}

const Compression = {
  None: 1,
  Lzw: 5,
  OJpeg: 6,
  Jpeg: 7,
  Deflate: 8,
  PackBits: 32773,
  DeflateOld: 32946,
  Lerc: 34887,
  Zstd: 50000,
  WebP: 50001,
} as const;

/** Compressions whose decoders read the stored bytes and write only into arrays of their own. */
const READ_ONLY_DECODERS: ReadonlySet<number> = new Set([Compression.Lzw, Compression.Deflate, Compression.DeflateOld, Compression.PackBits, Compression.Zstd]);

export async function readBlock(source: Source, layout: IfdLayout, index: number, opts: BlockReadOptions): Promise<DecodedBlock> {
  const blockRow = Math.floor((index % blocksPerPlane(layout)) / layout.blocksAcross);
  const width = layout.blockWidth;
  const rows = rowsInBlock(layout, blockRow);
  const samples = samplesPerBlock(layout);
  const outBytes = width * rows * samples * bytesPerSample(layout.dtype);
  if (outBytes > opts.maxBlockBytes) {
    throw Errors.invalidFormat(
      `${opts.what}: a ${width}×${rows} block of ${samples} sample(s) decodes to ${outBytes} bytes, over the ${opts.maxBlockBytes}-byte limit`,
    );
  }
  const { offset, length } = await layout.offsets.locate(index);
  let planes: TypedArray[];
  const scratch: ArrayBufferLike[] = []; // pooled buffers of this decode: the bytes read, the inflate output
  if (length === 0) {
    planes = [];
    for (let s = 0; s < samples; s++) planes.push(allocate(layout.dtype, width * rows).fill(opts.mask ? 0 : opts.fill));
  } else {
    // A compressed block is rarely larger than its decoded size; allow generous slack.
    if (length > opts.maxBlockBytes * 2 + 1024 * 1024) {
      throw Errors.invalidFormat(`${opts.what}: block ${index} claims ${length} compressed bytes, over the limit`);
    }
    // Decoders that only read their input get the cached bytes themselves (no copy of them); the
    // others, and the predictor on uncompressed bytes, write into theirs.
    const shared = READ_ONLY_DECODERS.has(layout.compression) && source.fetchShared !== undefined;
    const bytes = shared ? await source.fetchShared!(offset, length) : await source.fetch(offset, length);
    if (bytes.length < length) {
      throw Errors.invalidFormat(
        `${opts.what} is truncated: block ${index} needs bytes ${offset}–${offset + length - 1}, the file has ${bytes.length === 0 ? 'none of them' : `only ${bytes.length} of them`}`,
      );
    }
    if (!shared) scratch.push(bytes.buffer); // a shared array is the cache's: never given to the pool
    planes = await decodeBlock(bytes, layout, width, rows, samples, opts, scratch);
  }
  if (opts.mask) planes = [toMask(planes[0])];
  // Pooled buffers the planes ended up in belong to the block (given back when the cache drops
  // it); the other pooled buffers of this decode are read by no one any more.
  const used = new Set<ArrayBufferLike>(planes.map((p) => p.buffer));
  const owned = [...used].filter((b) => BUFFER_POOL.owns(b)) as ArrayBuffer[];
  BUFFER_POOL.release(...scratch.filter((b) => !used.has(b)));
  let byteLength = 0; // what the block holds: whole pooled buffers, else the planes' bytes
  for (const b of owned) byteLength += b.byteLength;
  for (const p of planes) if (!owned.includes(p.buffer as ArrayBuffer)) byteLength += p.byteLength;
  return { width, height: rows, planes, byteLength, owned };
}

async function decodeBlock(
  bytes: Uint8Array,
  layout: IfdLayout,
  width: number,
  rows: number,
  samples: number,
  opts: BlockReadOptions,
  scratch: ArrayBufferLike[],
): Promise<TypedArray[]> {
  const c = layout.compression;
  const n = width * rows;
  if (layout.photometric === 6 && c !== Compression.Jpeg) {
    // raw YCbCr is chroma-subsampled in blocks of its own; GDAL reads it through libtiff's RGBA path
    throw Errors.unsupported('YCbCr TIFF images are only supported with JPEG compression');
  }
  if (c === Compression.Jpeg || c === Compression.WebP) {
    if (layout.bitsPerSample !== 8)
      throw Errors.unsupported(`${layout.bitsPerSample}-bit ${c === Compression.Jpeg ? 'JPEG' : 'WebP'} TIFF blocks are not supported`);
    const input = c === Compression.Jpeg ? withJpegTables(bytes, layout.jpegTables) : bytes;
    const img = await sharpDecode(input, c === Compression.Jpeg ? 'JPEG' : 'WebP', layout.blockWidth * layout.blockHeight);
    if (img.width !== width || img.height < rows || img.channels < samples) {
      throw Errors.invalidFormat(`${opts.what}: compressed block is ${img.width}×${img.height}×${img.channels}, expected ${width}×${rows}×${samples}`);
    }
    const planes = deinterleave(img.data, img.channels, n, 'uint8');
    return planes.slice(0, samples);
  }
  if (c === Compression.Lerc) {
    const params = layout.lercParameters;
    return lercDecode(bytes, {
      width,
      height: rows,
      samples,
      dtype: layout.dtype,
      outer: params !== null && params.length >= 2 ? params[1] : 0,
      maxBytes: opts.maxBlockBytes * 2 + 1024 * 1024,
    });
  }

  const bits = layout.bitsPerSample;
  const rowBytes = Math.ceil((width * samples * bits) / 8);
  const expected = rowBytes * rows;
  let raw: Uint8Array;
  let owned = true; // may be modified in place
  switch (c) {
    case Compression.None:
      if (bytes.length < expected) throw Errors.invalidFormat(`${opts.what}: uncompressed block is ${bytes.length} bytes, expected ${expected}`);
      raw = bytes;
      owned = false;
      break;
    case Compression.Lzw:
      raw = lzwDecode(bytes, expected);
      break;
    case Compression.Deflate:
    case Compression.DeflateOld:
      raw = await inflateBlock(bytes, BUFFER_POOL.bytes(expected));
      scratch.push(raw.buffer);
      break;
    case Compression.PackBits:
      raw = packbitsDecode(bytes, expected);
      break;
    case Compression.Zstd:
      raw = await zstdDecode(bytes, expected, expected);
      break;
    default:
      throw Errors.unsupported(`Unsupported TIFF compression ${c}`);
  }
  raw = raw.subarray(0, expected);

  const byteSize = bits >> 3;
  const predictor = layout.predictor;
  const swap = !layout.littleEndian && bits % 8 === 0 && byteSize > 1;
  if ((predictor === 2 || predictor === 3 || swap) && !owned) raw = raw.slice();
  if (predictor === 2) {
    if (bits % 8 !== 0) throw Errors.unsupported(`Horizontal predictor with ${bits}-bit samples is not supported`);
    if (swap) swapBytes(raw, byteSize);
    raw = aligned(raw, byteSize);
    if (samples > 1 && byteSize <= 4 && !isFloat(layout.dtype)) {
      const planes: TypedArray[] = [];
      for (let s = 0; s < samples; s++) planes.push(BUFFER_POOL.array(layout.dtype, n));
      horizontalToPlanes(raw, width, rows, byteSize, planes as Parameters<typeof horizontalToPlanes>[4]);
      return planes;
    }
    undoHorizontal(raw, width, rows, samples, byteSize);
  } else if (predictor === 3) {
    if (layout.sampleFormat !== 3) throw Errors.unsupported('Floating-point predictor on integer samples is not supported');
    undoFloatingPoint(raw, width, rows, samples, byteSize);
  } else if (swap) {
    swapBytes(raw, byteSize);
  }
  const values = bytesToSamples(raw, { width, rows, samples, bits, half: layout.half, dtype: layout.dtype });
  return deinterleave(values, samples, n, layout.dtype);
}

/** Any non-zero mask sample → 255 (GDAL reads 1-bit masks as 0/255; .msk files hold 0/255). */
function toMask(plane: TypedArray): Uint8Array {
  const out = new Uint8Array(plane.length);
  for (let i = 0; i < plane.length; i++) out[i] = plane[i] !== 0 ? 255 : 0;
  return out;
}
