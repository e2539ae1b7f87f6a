/**
 * The animated GIF file of a time series, from frames LZW-encoded one by one (gif-lzw.ts) as soon
 * as each is rendered: header, screen descriptor, global colour table (the first frame's
 * palette), NETSCAPE loop extension, then per frame its graphic control extension, image
 * descriptor (a local colour table unless the frame shares the first frame's palette: the same
 * array) and image data.
 *
 * Why encode early: a frame held as palette indices until the end is 1 byte per pixel kept, then
 * read again; encoded at once, its index array goes back to the buffer pool for the next frame
 * and the LZW work runs while other steps wait for their reads.
 *
 * Repeated frames (consecutive steps that read the same granules: the same EncodedFrame) are not
 * written again: a repeat is a frame of the same size whose pixels are all transparent, and the
 * frame before it is kept on screen instead of being disposed (GIF disposal 1), so every
 * decoder shows the same picture for the same time as a full copy, for ~1 KB instead of the
 * frame's size (and the copy's share of the file's fresh memory). The last repeat of a run is
 * disposed to the background (disposal 2, as every other frame), so a later frame with
 * transparent pixels never shows an earlier one through them. Pillow and ImageMagick decode
 * each repeat to its frame's pixels (test/raster/render/gif-file.test.ts).
 */
import type { Palette } from 'gifenc';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import type { IndexedFrame } from './indexed-frame.ts';
import { lzwImageData, lzwMaxBytes, lzwRun } from './gif-lzw.ts';

/** A frame as GIF image data (minimum code size, sub-blocks, terminator) with what its headers need. */
export interface EncodedFrame {
  width: number;
  height: number;
  palette: Palette;
  /** Index of the transparent entry, or -1. */
  transparentIndex: number;
  /** The image data: a view of a pooled buffer until the file is written (then given back). */
  data: Uint8Array;
}

/**
 * The frame's image data, written into a pooled buffer of the worst-case size (only the pages
 * written are touched). The caller may give `f.index` back to the pool afterwards.
 */
export function encodeFrame(f: IndexedFrame): EncodedFrame {
  const out = BUFFER_POOL.bytes(lzwMaxBytes(f.width * f.height));
  const end = lzwImageData(f.index, 8, out, 0);
  return { width: f.width, height: f.height, palette: f.palette, transparentIndex: f.transparentIndex, data: out.subarray(0, end) };
}

/** log2 of the entries of a palette's colour table (a power of two, at least 2 entries). */
const tableBits = (paletteLength: number): number => Math.max(Math.ceil(Math.log2(Math.max(paletteLength, 2))), 1);

/** Graphic control extension (8) + image descriptor (10). */
const FRAME_HEAD = 18;

/**
 * The animated GIF: frames in order, each shown `delayMs` (GIF stores centiseconds), looping
 * forever. A frame given again right after itself (the same object) is written as a transparent
 * repeat (see the file comment); one given again later is written again from its bytes. The
 * frames' pooled image data is given back to the pool.
 */
export function writeAnimatedGif(frames: readonly EncodedFrame[], delayMs: number): Buffer {
  const first = frames[0]!;
  const { width, height } = first;
  const globalBits = tableBits(first.palette.length);
  const repeat = (i: number): boolean => i > 0 && frames[i] === frames[i - 1];
  // a repeat's image data: every pixel index 0, the transparent one (one per frame size)
  const runs = new Map<number, Uint8Array>();
  const repeatData = (f: EncodedFrame): Uint8Array => {
    const n = f.width * f.height;
    let data = runs.get(n);
    if (data === undefined) {
      data = lzwRun(n, 0, 8);
      runs.set(n, data);
    }
    return data;
  };
  const local = (f: EncodedFrame): boolean => f !== first && f.palette !== first.palette;
  let size = 6 + 7 + (3 << globalBits) + 19 + 1;
  frames.forEach((f, i) => {
    size += FRAME_HEAD + (repeat(i) ? repeatData(f).length : (local(f) ? 3 << tableBits(f.palette.length) : 0) + f.data.length);
  });
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  const u16 = (v: number) => {
    out[o++] = v & 255;
    out[o++] = (v >> 8) & 255;
  };
  const table = (palette: Palette, bits: number) => {
    const bytes = 3 << bits;
    out.fill(0, o, o + bytes);
    for (let k = 0; k < palette.length; k++) {
      const c = palette[k]!;
      out[o + 3 * k] = c[0]!;
      out[o + 3 * k + 1] = c[1]!;
      out[o + 3 * k + 2] = c[2]!;
    }
    o += bytes;
  };
  out.write('GIF89a', o, 'latin1');
  o += 6;
  u16(width);
  u16(height);
  out[o++] = 0x80 | (7 << 4) | (globalBits - 1); // global table, 8 bits of colour resolution
  out[o++] = 0; // background index
  out[o++] = 0; // pixel aspect ratio
  table(first.palette, globalBits);
  out[o++] = 0x21; // NETSCAPE2.0 application extension: loop forever
  out[o++] = 0xff;
  out[o++] = 11;
  out.write('NETSCAPE2.0', o, 'latin1');
  o += 11;
  out[o++] = 3;
  out[o++] = 1;
  u16(0);
  out[o++] = 0;
  const delay = Math.round(delayMs / 10);
  frames.forEach((f, i) => {
    const isRepeat = repeat(i);
    // kept on screen when the next frame repeats it, else restored to the background
    const disposal = i + 1 < frames.length && frames[i + 1] === f ? 1 : 2;
    const transparent = isRepeat ? 0 : f.transparentIndex;
    out[o++] = 0x21; // graphic control extension
    out[o++] = 0xf9;
    out[o++] = 4;
    out[o++] = (disposal << 2) | (transparent >= 0 ? 1 : 0);
    u16(delay);
    out[o++] = transparent >= 0 ? transparent : 0;
    out[o++] = 0;
    out[o++] = 0x2c; // image descriptor
    u16(0);
    u16(0);
    u16(f.width);
    u16(f.height);
    const withTable = !isRepeat && local(f);
    const bits = withTable ? tableBits(f.palette.length) : 0;
    out[o++] = withTable ? 0x80 | (bits - 1) : 0;
    if (withTable) table(f.palette, bits);
    const data = isRepeat ? repeatData(f) : f.data;
    out.set(data, o);
    o += data.length;
  });
  out[o++] = 0x3b; // trailer
  const released = new Set<ArrayBufferLike>();
  for (const f of frames) released.add(f.data.buffer);
  BUFFER_POOL.release(...released);
  return out;
}
