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
import { encodeFrame, writeAnimatedGif, type EncodedFrame } from './gif-file.ts';
import type { IndexedFrame } from './indexed-frame.ts';
import { postProcess, type RenderOptions } from './render-image.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';

// Node resolves gifenc to its CommonJS build, whose named exports it cannot detect.
const { applyPalette, quantize } = gifenc;

export type { EncodedFrame, IndexedFrame };

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

/**
 * The animated GIF of indexed frames (gif-file.ts): frames in order, each shown `delayMs`,
 * looping forever. Each distinct frame (object) is LZW-encoded once; a frame given again right
 * after itself is written as a transparent repeat that keeps it on screen.
 */
export function encodeAnimatedGif(frames: readonly IndexedFrame[], delayMs: number): Buffer {
  const encoded = new Map<IndexedFrame, EncodedFrame>();
  const list = frames.map((f) => {
    let e = encoded.get(f);
    if (e === undefined) {
      e = encodeFrame(f);
      encoded.set(f, e);
    }
    return e;
  });
  return writeAnimatedGif(list, delayMs);
}

/** A time-series frame: encoded as soon as rendered (its size known in advance), else indexed until the GIF is written. */
export type SeriesFrame = IndexedFrame | EncodedFrame;

/**
 * A frame encoded at once, at `width` × `height` (resized if the read gave another size); its
 * index array goes back to the buffer pool (if it came from there: colormapGifFrame's).
 */
export function encodeSeriesFrame(f: IndexedFrame, width: number, height: number): EncodedFrame {
  const e = encodeFrame(resizeIndexed(f, width, height));
  BUFFER_POOL.release(f.index.buffer);
  return e;
}

/**
 * The animated GIF of a series' frames at the first frame's size: encoded frames as they are
 * (all of the size they were encoded at: encodeSeriesFrame), indexed ones resized and encoded
 * once per object.
 */
export function seriesGif(frames: readonly SeriesFrame[], delayMs: number): Buffer {
  const { width, height } = frames[0]!;
  const encoded = new Map<IndexedFrame, EncodedFrame>();
  const list = frames.map((f) => {
    if ('data' in f) return f;
    let e = encoded.get(f);
    if (e === undefined) {
      e = encodeFrame(resizeIndexed(f, width, height));
      encoded.set(f, e);
    }
    return e;
  });
  return writeAnimatedGif(list, delayMs);
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
