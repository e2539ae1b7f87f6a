/**
 * JPEG (TIFF compression 7) and WebP (50001) blocks decoded by sharp (libvips), which returns
 * the same bytes GDAL does: libjpeg converts YCbCr to RGB with the same upsampling GDAL asks for
 * (DEPENDENCIES.md §1 measured bit-exact output). Returns pixel-interleaved uint8 samples.
 */
import { loadSharp } from '../../../util/sharp-module.ts';
import { Errors } from '../../../errors.ts';

export interface SharpBlock {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** `maxPixels` bounds what the embedded header may claim (the TIFF block size). */
export async function sharpDecode(input: Uint8Array, kind: 'JPEG' | 'WebP', maxPixels: number): Promise<SharpBlock> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(input, { limitInputPixels: Math.max(1, maxPixels) })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: info.channels };
  } catch (err) {
    throw Errors.invalidFormat(`Corrupt ${kind} data in TIFF block`, { cause: err });
  }
}

/**
 * A complete JPEG stream for a TIFF JPEG block: the shared JPEGTables (without their End Of
 * Image marker) followed by the block (without its Start Of Image marker).
 */
export function withJpegTables(block: Uint8Array, tables: Uint8Array | null): Uint8Array {
  if (tables === null || tables.length < 4) return block;
  const head = tables[tables.length - 2] === 0xff && tables[tables.length - 1] === 0xd9 ? tables.length - 2 : tables.length;
  const skip = block[0] === 0xff && block[1] === 0xd8 ? 2 : 0;
  const out = new Uint8Array(head + block.length - skip);
  out.set(tables.subarray(0, head), 0);
  out.set(block.subarray(skip), head);
  return out;
}
