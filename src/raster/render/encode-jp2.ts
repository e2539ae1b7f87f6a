/**
 * JPEG 2000 (.jp2) output: lossless OpenJPEG codestream from @cornerstonejs/codec-openjpeg (the
 * maintained OpenJPEG build of the Cornerstone project), wrapped here in the JP2 file boxes
 * (signature, ftyp, jp2h with ihdr + colr, jp2c) that the codec does not write (ISO 15444-1 Annex I).
 * Takes uint8, uint16 and int16 planes (rio-tiler's JPEG2000 dtypes); no georeferencing, like GDAL's
 * JP2 output without GeoJP2 boxes.
 */
import { createRequire } from 'node:module';
import type { DType } from '../../dtype.ts';
import { Errors } from '../../errors.ts';

interface FrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned: boolean;
  isUsingColorTransform: boolean;
}
interface J2KEncoder {
  getDecodedBuffer(info: FrameInfo): Uint8Array;
  setQuality(lossless: boolean, quality: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
  delete(): void;
}
interface OpenJpegModule {
  J2KEncoder: new () => J2KEncoder;
}

let modulePromise: Promise<OpenJpegModule> | null = null;
function openjpeg(): Promise<OpenJpegModule> {
  const require = createRequire(import.meta.url);
  modulePromise ??= (require('@cornerstonejs/codec-openjpeg') as () => Promise<OpenJpegModule>)();
  return modulePromise;
}

type Plane = Uint8Array | Uint16Array | Int16Array;

export async function encodeJp2(planes: readonly Plane[], width: number, height: number, dtype: DType): Promise<Buffer> {
  if (dtype !== 'uint8' && dtype !== 'uint16' && dtype !== 'int16')
    throw Errors.unsupported(`JPEG 2000 output takes uint8, uint16 or int16 data, not ${dtype}`);
  const bits = dtype === 'uint8' ? 8 : 16;
  const n = planes.length;
  // What the codec build was tested to encode: 2-component images fail in it and 16-bit
  // multi-component ones did not finish, so they are refused rather than risked.
  if (!(n === 1 || (bits === 8 && (n === 3 || n === 4)))) {
    throw Errors.unsupported(
      `JPEG 2000 output takes 1 band, or 3-4 uint8 bands (RGB with or without its mask); this image has ${n} ${dtype} band(s) (the mask counts: try return_mask=false)`,
    );
  }
  const codec = await openjpeg();
  const encoder = new codec.J2KEncoder();
  try {
    const raw = encoder.getDecodedBuffer({ width, height, bitsPerSample: bits, componentCount: n, isSigned: dtype === 'int16', isUsingColorTransform: false });
    // pixel-interleaved samples
    const px = width * height;
    if (bits === 8) {
      for (let c = 0; c < n; c++) {
        const p = planes[c]!;
        for (let i = 0; i < px; i++) raw[i * n + c] = p[i]!;
      }
    } else {
      const out = new Uint16Array(raw.buffer, raw.byteOffset, px * n);
      for (let c = 0; c < n; c++) {
        const p = planes[c]!;
        for (let i = 0; i < px; i++) out[i * n + c] = p[i]! & 0xffff;
      }
    }
    encoder.setQuality(true, 0);
    try {
      encoder.encode();
    } catch (err) {
      // the wasm build throws bare numbers (C++ exception pointers)
      throw Errors.unsupported(`JPEG 2000 encoder failed on this ${width}×${height} image of ${n} component(s)`, { cause: err });
    }
    return jp2Boxes(encoder.getEncodedBuffer(), width, height, n, bits, dtype === 'int16');
  } finally {
    encoder.delete();
  }
}

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

function jp2Boxes(codestream: Uint8Array, width: number, height: number, components: number, bits: number, signed: boolean): Buffer {
  const signature = box('jP  ', Buffer.from([0x0d, 0x0a, 0x87, 0x0a]));
  const ftyp = box('ftyp', Buffer.from('jp2 \0\0\0\0jp2 ', 'latin1'));
  const ihdr = Buffer.alloc(14);
  ihdr.writeUInt32BE(height, 0);
  ihdr.writeUInt32BE(width, 4);
  ihdr.writeUInt16BE(components, 8);
  ihdr.writeUInt8((bits - 1) | (signed ? 0x80 : 0), 10);
  ihdr.writeUInt8(7, 11); // compression type: JPEG 2000
  ihdr.writeUInt8(0, 12); // colourspace known
  ihdr.writeUInt8(0, 13); // no intellectual property box
  const colr = Buffer.alloc(7);
  colr.writeUInt8(1, 0); // enumerated colourspace
  colr.writeUInt32BE(components >= 3 ? 16 : 17, 3); // sRGB or greyscale
  const jp2h = box('jp2h', Buffer.concat([box('ihdr', ihdr), box('colr', colr)]));
  return Buffer.concat([signature, ftyp, jp2h, box('jp2c', Buffer.from(codestream.buffer, codestream.byteOffset, codestream.byteLength))]);
}
