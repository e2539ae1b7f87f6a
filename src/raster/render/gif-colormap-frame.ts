/**
 * Fast GIF frame for the commonest time-series frame: one band, optionally rescaled, through a
 * 256-entry colormap (the case fast-colormap-png.ts speeds up for PNG). The 8-bit value of a pixel
 * already picks its colour, so the frame's palette is the colormap entries the frame uses (exact,
 * no quantisation) and each pixel's palette index comes from a 256-entry remap table: two passes
 * over bytes, where the generic path (rescale, colormap to four planes, RGBA interleave, then a
 * colour lookup per pixel in indexFrame) walks the pixels seven times and hashes each one.
 * Decoded pixels equal the generic path's: the table's RGB where the mask is valid and the entry's
 * alpha is not 0, transparent elsewhere (test/raster/render/gif-frame.test.ts).
 *
 * Commonest of all (a colormap without transparent entries, as every named one): the palette is
 * the whole colormap, the same array for every frame of the series (one colour table for the
 * GIF: encode-gif.ts writes no local table for a frame sharing the first frame's palette), and
 * a pixel's index is its 8-bit value (the first entry of its colour), so one pass computes the frame; masked pixels take
 * an entry the frame does not use as its transparent index (a second pass over the mask only).
 * Returns null when the fast path does not apply (the caller renders generically), including a
 * frame that uses all 256 entries and also has transparent pixels (257 colours: quantised there).
 */
import type { Palette } from 'gifenc';
import type { TypedArray } from '../../dtype.ts';
import { colormapFromEntries } from '../colormap/from-entries.ts';
import type { ImageData } from '../image-data.ts';
import { combinedMask } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import type { IndexedFrame } from './indexed-frame.ts';
import type { RenderOptions } from './render-image.ts';
import { rescaleValue, rescaleValueF32 } from './rescale.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';

/**
 * A colormap table none of whose entries is transparent, as one palette for every frame: its
 * RGB entries (one array per table), and each entry's first entry of the same colour (a pixel's
 * index: equal colours share one index, which LZW compresses better). Null for other tables.
 */
interface SharedPalette {
  palette: Palette;
  first: Uint8Array;
}
const palettes = new WeakMap<Uint8Array, SharedPalette | null>();
function sharedPalette(table: Uint8Array): SharedPalette | null {
  let shared = palettes.get(table);
  if (shared === undefined) {
    shared = null;
    if (table.length >= 1024) {
      const palette: Palette = [];
      const first = new Uint8Array(256);
      const seen = new Map<number, number>();
      for (let k = 0; k < 256; k++) {
        if (table[k * 4 + 3] === 0) break;
        const key = (table[k * 4]! << 16) | (table[k * 4 + 1]! << 8) | table[k * 4 + 2]!;
        if (!seen.has(key)) seen.set(key, k);
        first[k] = seen.get(key)!;
        palette.push([table[k * 4]!, table[k * 4 + 1]!, table[k * 4 + 2]!]);
      }
      if (palette.length === 256) shared = { palette, first };
    }
    palettes.set(table, shared);
  }
  return shared;
}

/** The palette every frame rendered with `table` shares (the same array), if the table has one (worker-thread frames are matched to it). */
export function sharedColormapPalette(table: Uint8Array): Palette | undefined {
  return sharedPalette(table)?.palette;
}

/** Frames at least this big index 16-bit bands through a 65536-entry table (built in ~65536 steps). */
const LUT_MIN_PIXELS = 1 << 17;

/**
 * value → palette index of a rescaled 16-bit band (index = value + 32768 for int16), through the
 * same rescaleValue as the per-pixel loop, so every index is the same. The last table is kept:
 * a series renders every frame with one rescale and one colormap. Null for other dtypes.
 */
let lastTable: { lo: number; hi: number; signed: boolean; colormap: Uint8Array; lut: Uint8Array } | null = null;
function indexTable(values: TypedArray, lo: number, hi: number, colormap: Uint8Array, first: Uint8Array): Uint8Array | null {
  const signed = values instanceof Int16Array;
  if (!signed && !(values instanceof Uint16Array)) return null;
  const t = lastTable;
  if (t !== null && t.lo === lo && t.hi === hi && t.signed === signed && t.colormap === colormap) return t.lut;
  const lut = new Uint8Array(65536);
  const offset = signed ? 32768 : 0;
  const span = hi - lo;
  for (let j = 0; j < 65536; j++) lut[j] = first[rescaleValue(j - offset, lo, hi, span)]!;
  lastTable = { lo, hi, signed, colormap, lut };
  return lut;
}

/**
 * A 16-bit band's palette indices through its value → index table (`offset`: 32768 for int16):
 * one lookup per pixel instead of clamping, dividing and rounding. Marks the indices used;
 * returns the masked pixels' count (their indices are left for markMasked).
 */
function indexByTable(values: TypedArray, offset: number, lut: Uint8Array, mask: Uint8Array, index: Uint8Array, used: Uint8Array, n: number): number {
  let masked = 0;
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) {
      masked++;
      continue;
    }
    const k = lut[values[i]! + offset]!;
    index[i] = k;
    used[k] = 1;
  }
  return masked;
}

/**
 * Palette indices of a band's 8-bit values (`cast`: 0 = integer & 255, 1 = rescaled, 2 = float32
 * rescaled, 3 = castUint8), each its colour's `first` entry, as indexByTable.
 */
function indexByValue(
  values: TypedArray,
  cast: number,
  lo: number,
  hi: number,
  span: number,
  lo32: number,
  hi32: number,
  first: Uint8Array,
  mask: Uint8Array,
  index: Uint8Array,
  used: Uint8Array,
  n: number,
): number {
  let masked = 0;
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) {
      masked++;
      continue;
    }
    const v = values[i]!;
    const byte = cast === 1 ? rescaleValue(v, lo, hi, span) : cast === 2 ? rescaleValueF32(v, lo32, hi32, span) : cast === 0 ? v & 255 : castUint8(v);
    const k = first[byte]!;
    index[i] = k;
    used[k] = 1;
  }
  return masked;
}

/** The masked pixels' index: `transparent`. */
function markMasked(mask: Uint8Array, index: Uint8Array, transparent: number, n: number): void {
  for (let i = 0; i < n; i++) if (mask[i] === 0) index[i] = transparent;
}

export function colormapGifFrame(img: ImageData, options: Omit<RenderOptions, 'format'>): IndexedFrame | null {
  if (img.bands.length !== 1 || options.colorFormula || !options.returnMask || img.alpha !== undefined) return null;
  const cmap = options.colormap ?? (img.colormap ? colormapFromEntries(img.colormap) : undefined);
  if (!cmap || cmap.kind !== 'lut') return null;
  const rescale = options.rescale && options.rescale.length > 0 ? options.rescale[0] : undefined;
  if (!rescale && img.dtype !== 'uint8') return null; // the generic path handles the other casts
  const table = cmap.table;
  const values: TypedArray = img.bands[0]!;
  const mask = combinedMask(img);
  const { width, height } = img;
  const n = width * height;
  const float32 = values instanceof Float32Array;
  const isInt = !(float32 || values instanceof Float64Array);
  const lo = rescale ? rescale[0] : 0;
  const hi = rescale ? rescale[1] : 0;
  const span = hi - lo;
  const lo32 = Math.fround(lo);
  const hi32 = Math.fround(hi);
  // pooled: an encoded frame gives it back (encodeSeriesFrame); every pixel is written below
  const index = BUFFER_POOL.bytes(n);
  const used = new Uint8Array(256);
  const shared = sharedPalette(table);
  if (shared !== null) {
    const first = shared.first;
    // the index is the 8-bit value (its colour's first entry); masked pixels are marked after the pass
    const lut = rescale && n >= LUT_MIN_PIXELS ? indexTable(values, lo, hi, table, first) : null;
    // The pixel loops are functions of their own (also markMasked): a new process's first frame
    // has V8 compile a loop on-stack while it runs, and compiled here that code took the rest of
    // this function with it before it had ever run — the first frames of a series then left the
    // optimised loop at its end ("insufficient type feedback", --trace-deopt) and ran the mask
    // pass in the interpreter.
    const masked =
      lut !== null
        ? indexByTable(values, values instanceof Int16Array ? 32768 : 0, lut, mask, index, used, n)
        : indexByValue(values, rescale ? (float32 ? 2 : 1) : isInt ? 0 : 3, lo, hi, span, lo32, hi32, first, mask, index, used, n);
    if (masked === 0) return { width, height, index, palette: shared.palette, transparentIndex: -1 };
    const transparent = used.indexOf(0);
    if (transparent < 0) return null; // 256 colours and transparency: quantised by the generic path
    markMasked(mask, index, transparent, n);
    return { width, height, index, palette: shared.palette, transparentIndex: transparent };
  }
  // pass 1: the 8-bit value of every valid pixel (same rescale and cast as colormapToRgba)
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    const v = values[i]!;
    let byte: number;
    if (rescale) byte = float32 ? rescaleValueF32(v, lo32, hi32, span) : rescaleValue(v, lo, hi, span);
    else byte = isInt ? v & 255 : castUint8(v);
    index[i] = byte;
    used[byte] = 1;
  }
  // the palette: the RGB of the entries used with alpha ≠ 0 (equal colours share one entry)
  const remap = new Int16Array(256).fill(-1);
  const palette: number[][] = [];
  const byColour = new Map<number, number>();
  for (let k = 0; k < 256; k++) {
    if (used[k] === 0 || table[k * 4 + 3] === 0) continue;
    const r = table[k * 4]!;
    const g = table[k * 4 + 1]!;
    const b = table[k * 4 + 2]!;
    const key = (r << 16) | (g << 8) | b;
    let p = byColour.get(key);
    if (p === undefined) {
      p = palette.length;
      byColour.set(key, p);
      palette.push([r, g, b]);
    }
    remap[k] = p;
  }
  // pass 2: palette indices; masked pixels and entries with alpha 0 → the transparent entry
  const transparent = palette.length;
  let anyTransparent = false;
  for (let i = 0; i < n; i++) {
    const p = mask[i] === 0 ? -1 : remap[index[i]!]!;
    if (p < 0) {
      if (transparent >= 256) return null;
      anyTransparent = true;
      index[i] = transparent;
    } else index[i] = p;
  }
  if (anyTransparent) palette.push([0, 0, 0]);
  return { width, height, index, palette, transparentIndex: anyTransparent ? transparent : -1 };
}
