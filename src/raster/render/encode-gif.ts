/**
 * Animated GIFs of rendered frames (time-series `…/timeseries/bbox/….gif`): gifenc's quantiser
 * for frames of more than 255 colours, our own file writer and LZW (gif-lzw.ts: gifenc's
 * encoder, byte for byte, without its cold-start cost).
 *
 * Palette: with a colormap without transparent entries (every named one), the whole colormap,
 * one array shared by every frame, written once as the global colour table; a pixel's index is
 * its 8-bit value and an entry the frame does not use is its transparent index
 * (gif-colormap-frame.ts). Otherwise one per frame (a local colour table), chosen as soon as the
 * frame is rendered: the colormap entries the frame uses, or a frame's ≤ 255 distinct opaque
 * colours exactly, else gifenc's quantiser (RGB565 buckets). Frames of a true-colour series can
 * differ a lot (seasons, clouds, snow), so one palette for them all would spend its 256 colours
 * badly and need every frame's RGBA at once; per frame, each is held as one byte per pixel as
 * soon as it is rendered.
 * Transparent pixels (alpha 0) use a palette entry no pixel of the frame uses, and each frame is disposed to the
 * background (GIF disposal 2), so a pixel without data never shows the previous frame.
 */
import gifenc, { type Palette } from 'gifenc';
import type { ImageData } from '../image-data.ts';
import type { Canvas } from './canvas.ts';
import { coerceDtype } from './dtype-coerce.ts';
import { colormapGifFrame } from './gif-colormap-frame.ts';
import { lzwImageData, lzwMaxBytes } from './gif-lzw.ts';
import type { IndexedFrame } from './indexed-frame.ts';
import { postProcess, type RenderOptions } from './render-image.ts';

// Node resolves gifenc to its CommonJS build, whose named exports it cannot detect.
const { applyPalette, quantize } = gifenc;

export type { IndexedFrame };

/** RGBA (interleaved, 4 bytes per pixel) of an 8-bit canvas: 1–2 bands grey, 3+ bands RGB; alpha from the canvas or opaque. */
export function canvasToRgba(canvas: Canvas, withAlpha: boolean): Uint8Array {
  const n = canvas.width * canvas.height;
  const out = new Uint8Array(4 * n);
  const [r, g, b] = canvas.bands.length >= 3 ? canvas.bands : [canvas.bands[0]!, canvas.bands[0]!, canvas.bands[0]!];
  const alpha = canvas.alpha;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    out[o] = r![i]!;
    out[o + 1] = g![i]!;
    out[o + 2] = b![i]!;
    out[o + 3] = withAlpha ? (alpha[i] === 0 ? 0 : 255) : 255;
  }
  return out;
}

/** Palette indices of one RGBA frame (exact when it has ≤ 255 opaque colours). */
export function indexFrame(rgba: Uint8Array, width: number, height: number): IndexedFrame {
  const n = width * height;
  const index = new Uint8Array(n);
  const seen = new Map<number, number>();
  const palette: Palette = [];
  let transparentIndex = -1;
  let exact = true;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    if (rgba[o + 3] === 0) {
      if (transparentIndex < 0) {
        transparentIndex = palette.length;
        palette.push([0, 0, 0]);
      }
      index[i] = transparentIndex;
      continue;
    }
    const key = (rgba[o]! << 16) | (rgba[o + 1]! << 8) | rgba[o + 2]!;
    let k = seen.get(key);
    if (k === undefined) {
      if (palette.length >= 256) {
        exact = false;
        break;
      }
      k = palette.length;
      seen.set(key, k);
      palette.push([rgba[o]!, rgba[o + 1]!, rgba[o + 2]!]);
    }
    index[i] = k;
  }
  if (exact) return { width, height, index, palette, transparentIndex };
  // Too many colours: quantise the RGB to 255 entries, the last one for transparency.
  const quantised = quantize(rgba, 255, { format: 'rgb565' });
  const mapped = applyPalette(rgba, quantised, 'rgb565');
  const t = quantised.length;
  let anyTransparent = false;
  for (let i = 0, o = 3; i < n; i++, o += 4) {
    if (rgba[o] === 0) {
      mapped[i] = t;
      anyTransparent = true;
    }
  }
  return { width, height, index: mapped, palette: anyTransparent ? [...quantised, [0, 0, 0]] : quantised, transparentIndex: anyTransparent ? t : -1 };
}

/** log2 of the entries of a palette's colour table (a power of two, at least 2 entries). */
const tableBits = (paletteLength: number): number => Math.max(Math.ceil(Math.log2(paletteLength)), 1);

/** Scratch output of one frame, grown as needed (encoding is synchronous). */
let scratch = new Uint8Array(0);
/** Largest scratch kept between frames (a 1024² frame's worst case): bigger frames use their own. */
const SCRATCH_KEPT = 2 * 1024 * 1024;

/**
 * One frame's bytes: for the first frame the file header (signature, logical screen descriptor,
 * its palette as the global colour table, NETSCAPE loop extension), then the graphic control
 * extension (delay, disposal 2, transparency), the image descriptor (a local colour table on
 * later frames, unless their palette is the global one: the same array) and the LZW image data.
 * Byte for byte what gifenc's `writeFrame` writes (which always writes the local table).
 */
function frameBytes(f: IndexedFrame, first: boolean, delayMs: number, global: IndexedFrame['palette']): Uint8Array {
  // a colour table has at least 2 entries
  const palette = f.palette.length >= 2 ? f.palette : [...f.palette, [0, 0, 0]];
  const bits = tableBits(palette.length);
  const tableBytes = 3 << bits;
  const local = !first && f.palette !== global;
  const max = (first ? 6 + 7 + tableBytes + 19 : 0) + 8 + 10 + (local ? tableBytes : 0) + lzwMaxBytes(f.width * f.height);
  if (scratch.length < max && max <= SCRATCH_KEPT) scratch = new Uint8Array(max);
  const out = scratch.length >= max ? scratch : new Uint8Array(max);
  let o = 0;
  const u16 = (v: number) => {
    out[o++] = v & 255;
    out[o++] = (v >> 8) & 255;
  };
  const table = () => {
    out.fill(0, o, o + tableBytes);
    for (let k = 0; k < palette.length; k++) {
      const c = palette[k]!;
      out[o + 3 * k] = c[0]!;
      out[o + 3 * k + 1] = c[1]!;
      out[o + 3 * k + 2] = c[2]!;
    }
    o += tableBytes;
  };
  if (first) {
    for (const ch of 'GIF89a') out[o++] = ch.charCodeAt(0);
    u16(f.width);
    u16(f.height);
    out[o++] = 0x80 | (7 << 4) | (bits - 1); // global table, 8 bits of colour resolution
    out[o++] = 0; // background index
    out[o++] = 0; // pixel aspect ratio
    table();
    out[o++] = 0x21; // NETSCAPE2.0 application extension: loop forever
    out[o++] = 0xff;
    out[o++] = 11;
    for (const ch of 'NETSCAPE2.0') out[o++] = ch.charCodeAt(0);
    out[o++] = 3;
    out[o++] = 1;
    u16(0);
    out[o++] = 0;
  }
  const transparent = f.transparentIndex >= 0;
  out[o++] = 0x21; // graphic control extension
  out[o++] = 0xf9;
  out[o++] = 4;
  out[o++] = (2 << 2) | (transparent ? 1 : 0); // disposal 2: restore to background
  u16(Math.round(delayMs / 10));
  out[o++] = transparent ? f.transparentIndex : 0;
  out[o++] = 0;
  out[o++] = 0x2c; // image descriptor
  u16(0);
  u16(0);
  u16(f.width);
  u16(f.height);
  out[o++] = local ? 0x80 | (bits - 1) : 0;
  if (local) table();
  o = lzwImageData(f.index, 8, out, o);
  return out.slice(0, o);
}

/** Bytes of the file prefix in the first frame's block: header 6, screen descriptor 7, global table, NETSCAPE extension 19. */
const firstFramePrefix = (paletteLength: number): number => 6 + 7 + (3 << tableBits(Math.max(paletteLength, 2))) + 19;

/**
 * The animated GIF: frames in order, each shown `delayMs` (GIF stores centiseconds), looping
 * forever. Each distinct frame is encoded once (gif-lzw.ts) and the GIF is the concatenation of
 * those blocks: a frame given again (the same object: time-series steps that read the same
 * granules) repeats its bytes. The first frame's palette is the global colour table, so its
 * repeats are its block without the file prefix (a frame without a local table uses the global
 * one). One concatenation at the end: appending 30 frames to one growing stream (as gifenc's,
 * which grows by 1/8 past 1 MB) cost more than their LZW encoding (bench/timeseries.ts).
 */
export function encodeAnimatedGif(frames: readonly IndexedFrame[], delayMs: number): Buffer {
  const encoded = new Map<IndexedFrame, Uint8Array>();
  const chunks: Uint8Array[] = [];
  frames.forEach((f, i) => {
    let bytes = encoded.get(f);
    if (bytes === undefined) {
      const all = frameBytes(f, i === 0, delayMs, frames[0]!.palette);
      if (i === 0) {
        chunks.push(all);
        encoded.set(f, all.subarray(firstFramePrefix(f.palette.length)));
        return;
      }
      encoded.set(f, all);
      bytes = all;
    }
    chunks.push(bytes);
  });
  chunks.push(Uint8Array.of(0x3b)); // trailer
  return Buffer.concat(chunks);
}

/** Nearest-neighbour resize of an indexed frame (frames of a series whose native sizes differ). */
export function resizeIndexed(f: IndexedFrame, width: number, height: number): IndexedFrame {
  if (f.width === width && f.height === height) return f;
  const index = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(f.height - 1, Math.floor(((y + 0.5) * f.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(f.width - 1, Math.floor(((x + 0.5) * f.width) / width));
      index[y * width + x] = f.index[sy * f.width + sx]!;
    }
  }
  return { ...f, width, height, index };
}

/**
 * One GIF frame from a read image: the render pipeline's rescale, colour formula and colormap,
 * then 8 bits per band as for JPEG/WebP output (data of other types scaled from the dataset
 * statistics or the type's range), then palette indices.
 */
export function renderGifFrame(img: ImageData, options: Omit<RenderOptions, 'format'>): IndexedFrame {
  const fast = colormapGifFrame(img, options);
  if (fast !== null) return fast;
  const canvas = coerceDtype(postProcess(img, options), 'jpeg', false, img.datasetStatistics);
  return indexFrame(canvasToRgba(canvas, options.returnMask), canvas.width, canvas.height);
}
