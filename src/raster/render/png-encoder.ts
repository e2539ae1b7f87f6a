/**
 * Our own PNG writer for tiles (8/16-bit grey, grey+alpha, RGB, RGBA; indexed and grey with a
 * tRNS key as lossless reductions under the 'auto' profile, png-reduce.ts).
 *
 * Written by hand instead of going through sharp because a tile server encodes thousands of
 * small images: libvips' per-call overhead and its exhaustive adaptive filtering cost 7–12 ms per
 * 256² RGBA tile; this writer does 1–3 ms at similar sizes (bench/png.ts measures both). Rows are
 * filtered (Up, libpng's minimum-sum choice, or that choice on sampled pixels: autoSettings picks)
 * and deflated by node:zlib.
 */
import { constants, deflateSync } from 'node:zlib';
import { deflateBound, deflateInto, DeflateStream } from '../../util/zlib-handle.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';
import { assemblePng } from './png-chunks.ts';
import type { PngInput } from './png-input.ts';
import { LITTLE_ENDIAN, minSumScanlines, upScanlines, upScanlines16 } from './png-filters.ts';
import { GREY_KEY_SETTINGS, INDEXED_SETTINGS, Reducer } from './png-reduce.ts';
import { sampledScanlines } from './png-sampled-filter.ts';

const COLOR_TYPE: Record<number, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };

export type { PngInput } from './png-input.ts';

/** Size of the filtered scanlines of `input`. */
function scanlinesLength(input: PngInput): number {
  return (input.width * input.channels * (input.data instanceof Uint16Array ? 2 : 1) + 1) * input.height;
}

/**
 * Filtered scanlines: one filter-type byte + row bytes per row (big-endian samples for 16-bit),
 * written to `out` (every byte is written) or to a new array.
 */
export function filterScanlines(input: PngInput, out: Uint8Array = new Uint8Array(scanlinesLength(input))): Uint8Array {
  if (input.filter === 'auto') return filterScanlines(autoSettings(input), out);
  const { width, height, channels, data, filter } = input;
  const bps = data instanceof Uint16Array ? 2 : 1;
  const bpp = channels * bps;
  const rowBytes = width * bpp;
  if (bps === 1) return filterBytes(data as Uint8Array, out, filter, rowBytes, height, bpp);
  if (filter === 'up' && LITTLE_ENDIAN && rowBytes % 4 === 0 && data.byteOffset % 4 === 0) {
    upScanlines16(data as Uint16Array, out, rowBytes, height, bpp);
    return out;
  }
  const raw = BUFFER_POOL.bytes(data.length * 2); // the big-endian bytes
  try {
    const d = data as Uint16Array;
    for (let i = 0, j = 0; i < d.length; i++, j += 2) {
      raw[j] = d[i] >>> 8;
      raw[j + 1] = d[i] & 0xff;
    }
    return filterBytes(raw, out, filter, rowBytes, height, bpp);
  } finally {
    BUFFER_POOL.release(raw.buffer);
  }
}

function filterBytes(raw: Uint8Array, out: Uint8Array, filter: PngInput['filter'], rowBytes: number, height: number, bpp: number): Uint8Array {
  if (filter === 'up' && rowBytes % 4 === 0 && raw.byteOffset % 4 === 0) {
    upScanlines(raw, out, rowBytes, height, bpp);
    return out;
  }
  if (filter === 'none') {
    for (let y = 0; y < height; y++) {
      out[y * (rowBytes + 1)] = 0;
      out.set(raw.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
    }
    return out;
  }
  if (filter === 'up') {
    for (let y = 0; y < height; y++) {
      const r0 = y * rowBytes;
      const o = y * (rowBytes + 1);
      if (y === 0) {
        out[o] = 1; // first row: Sub (nothing above)
        for (let i = 0; i < bpp; i++) out[o + 1 + i] = raw[r0 + i];
        for (let i = bpp; i < rowBytes; i++) out[o + 1 + i] = raw[r0 + i] - raw[r0 + i - bpp];
        continue;
      }
      out[o] = 2;
      for (let i = 0; i < rowBytes; i++) out[o + 1 + i] = raw[r0 + i] - raw[r0 - rowBytes + i];
    }
    return out;
  }
  if (filter === 'sampled') sampledScanlines(raw, out, rowBytes, height, bpp);
  else minSumScanlines(raw, out, rowBytes, height, bpp);
  return out;
}

/** signature, IHDR, PLTE/tRNS when indexed, one IDAT and IEND in one buffer of the exact size. */
function assemble(input: PngInput, idat: Uint8Array | readonly Uint8Array[]): Buffer {
  const { width, height, plte, trns } = input;
  const depth = input.data instanceof Uint16Array ? 16 : 8;
  return assemblePng({ width, height, depth, colorType: plte ? 3 : COLOR_TYPE[input.channels], plte, trns }, idat);
}

/** Rows all zero or equal to the row above: the fraction of `data`'s rows that deflate to nearly nothing. */
export function freeRowFraction(data: Uint8Array | Uint16Array, rowLength: number, height: number): number {
  const aligned = (data.byteOffset & 3) === 0 && (rowLength * data.BYTES_PER_ELEMENT) % 4 === 0;
  const v = aligned ? new Uint32Array(data.buffer, data.byteOffset, (rowLength * data.BYTES_PER_ELEMENT * height) >> 2) : data;
  const n = aligned ? (rowLength * data.BYTES_PER_ELEMENT) >> 2 : rowLength;
  let free = 0;
  for (let y = 0; y < height; y++) {
    const r = y * n;
    let zero = true;
    let same = y > 0;
    for (let k = 0; k < n && (zero || same); k++) {
      const w = v[r + k];
      if (w !== 0) zero = false;
      if (same && w !== v[r - n + k]) same = false;
    }
    if (zero || same) free++;
  }
  return height ? free / height : 1;
}

/**
 * A dense 8-bit RGB(A) image of more than 256 colours (photographic imagery, colour gradients):
 * the min-sum filter choice on sampled pixels, deflated with runs only (Z_RLE). On filtered
 * continuous-tone rows residuals seldom repeat at a distance, so zlib's string search (level 1)
 * finds little; run-length + Huffman coding gives fewer bytes than libpng's zlib 6 (GDAL's
 * driver) at the CPU of Up + zlib 1 (bench/png.ts). Not for grey+alpha, where Up + zlib 1 is smaller.
 */
const COLOUR_SETTINGS = { filter: 'sampled', level: 1, strategy: constants.Z_RLE } as const;

/** Images at least this much free rows get libpng's settings under 'auto'. */
const AUTO_FREE_ROWS = 0.75;

/**
 * 'auto': libpng's own settings (what GDAL's PNG driver writes: min-sum filters, zlib 6,
 * Z_FILTERED) when at least three quarters of the rows are free (empty or repeated: mostly empty
 * tiles, sparse bboxes), where deflate's lazy matching costs less than level 1 and reaches
 * deflate's limit on the empty runs; otherwise Up at the input's level (level 6 costs ~4× the
 * CPU of level 1 on dense tiles, bench/png-matrix.ts). An image reduced by png-reduce.ts
 * (indexed, or grey with a tRNS key) gets that module's settings when dense, a dense 8-bit RGB(A)
 * one COLOUR_SETTINGS. Other filters are returned unchanged.
 */
export function autoSettings(input: PngInput): PngInput {
  if (input.filter !== 'auto') return input;
  if (freeRowFraction(input.data, input.width * input.channels, input.height) >= AUTO_FREE_ROWS)
    return { ...input, filter: 'adaptive', level: 6, strategy: constants.Z_FILTERED };
  if (input.plte) return { ...input, ...INDEXED_SETTINGS };
  if (input.trns) return { ...input, ...GREY_KEY_SETTINGS };
  if (input.channels >= 3 && input.data instanceof Uint8Array) return { ...input, ...COLOUR_SETTINGS };
  return { ...input, filter: 'up' };
}

/** `pngInput` reduced to fewer bytes (png-reduce.ts) in one pass, or null. */
function reduceAll(pngInput: PngInput): { reducer: Reducer; input: PngInput } | null {
  const reducer = Reducer.for(pngInput);
  if (!reducer) return null;
  const input = reducer.add(0, pngInput.height) ? reducer.result() : null;
  if (input) return { reducer, input };
  reducer.release();
  return null;
}

/** The synchronous variant, for benchmarks and tests. */
export function encodePngSync(pngInput: PngInput): Buffer {
  const reduced = reduceAll(pngInput);
  try {
    const input = autoSettings(reduced?.input ?? pngInput);
    return assemble(input, deflateSync(filterScanlines(input), { level: input.level, memLevel: 9, strategy: input.strategy ?? constants.Z_DEFAULT_STRATEGY }));
  } finally {
    reduced?.reducer.release();
  }
}

/**
 * Same as encodePngSync, deflating on a reused zlib handle (src/util/zlib-handle.ts) into pooled
 * scratch: a tile allocates only its PNG. `input.data` is not kept.
 */
export function encodePng(pngInput: PngInput): Buffer {
  const reduced = reduceAll(pngInput);
  const input = autoSettings(reduced?.input ?? pngInput);
  const scan = filterScanlines(input, BUFFER_POOL.bytes(scanlinesLength(input)));
  const scratch = BUFFER_POOL.bytes(deflateBound(scan.length));
  try {
    const idat = deflateInto(scan, { level: input.level, memLevel: 9, strategy: input.strategy ?? constants.Z_DEFAULT_STRATEGY }, scratch);
    return assemble(input, idat);
  } finally {
    BUFFER_POOL.release(scan.buffer, scratch.buffer);
    reduced?.reducer.release();
  }
}

/** Images of at least this many pixels are encoded by encodePngCooperative. */
export const COOPERATIVE_PNG_PIXELS = 1 << 20;

/**
 * encodePng for large images, byte for byte the same PNG, without holding the event loop and
 * without a buffer of the whole image's scanlines: a band of rows at a time is filtered into one
 * reused buffer and fed to a deflate stream (util/zlib-handle.ts), with yields in between
 * (util/cooperate.ts). Each band is filtered from one row early, so its first row is filtered
 * against the row above exactly as in one pass (that extra row's output is not fed). A 4096²
 * 16-bit tile thus touches ~1 MB of new memory for its PNG besides the PNG itself, not the
 * ~130 MB of scanlines and the zlib output chunks it did before.
 */
export async function encodePngCooperative(pngInput: PngInput): Promise<Buffer> {
  const reducer = Reducer.for(pngInput);
  let reduced: PngInput | null = null;
  try {
    if (reducer) {
      const rows = Math.max(1, Math.ceil(65536 / pngInput.width));
      let ok = true;
      for (let y0 = 0; y0 < pngInput.height && ok; y0 += rows) {
        ok = reducer.add(y0, Math.min(pngInput.height, y0 + rows));
        if (mustYield()) await yieldToLoop();
      }
      reduced = ok ? reducer.result() : null;
    }
    return await encodeSliced(autoSettings(reduced ?? pngInput)); // decided once for the whole image, not per slice
  } finally {
    reducer?.release();
  }
}

async function encodeSliced(input: PngInput): Promise<Buffer> {
  const { width, height, channels, data } = input;
  const bps = data instanceof Uint16Array ? 2 : 1;
  const rowBytes = width * channels * bps;
  const rowSamples = width * channels;
  // about 256 KiB of samples per band, a multiple of 4 rows (the SWAR path), plus the row above
  const rows = Math.max(4, (Math.ceil(262144 / rowBytes) + 3) & ~3);
  const band = BUFFER_POOL.bytes((rows + 1) * (rowBytes + 1));
  const stream = new DeflateStream({ level: input.level, memLevel: 9, strategy: input.strategy ?? constants.Z_DEFAULT_STRATEGY });
  try {
    for (let y0 = 0; y0 < height; y0 += rows) {
      const from = y0 === 0 ? 0 : y0 - 1;
      const to = Math.min(height, y0 + rows);
      const end = (to - from) * (rowBytes + 1);
      filterScanlines({ ...input, height: to - from, data: data.subarray(from * rowSamples, to * rowSamples) }, band.subarray(0, end));
      stream.write(band.subarray((y0 - from) * (rowBytes + 1), end));
      if (mustYield()) await yieldToLoop();
    }
    return assemble(input, stream.finish());
  } finally {
    stream.close();
    BUFFER_POOL.release(band.buffer);
  }
}
