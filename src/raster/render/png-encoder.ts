/**
 * Our own PNG writer for tiles (8/16-bit grey, grey+alpha, RGB, RGBA).
 *
 * Written by hand instead of going through sharp because a tile server encodes thousands of
 * small images: libvips' per-call overhead and its exhaustive adaptive filtering cost 7–12 ms per
 * 256² RGBA tile; this writer does 1–3 ms at similar sizes (bench/png.ts measures both). Rows are
 * filtered with one heuristic pass (the cheapest of Sub/Up/Paeth by sum of absolute residuals,
 * like libpng's minimum-sum heuristic without the rarely chosen Average) and deflated by node:zlib.
 */
import * as zlib from 'node:zlib';
import { constants, deflateSync } from 'node:zlib';
import { deflateBound, deflateInto } from '../../util/zlib-handle.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';
import { promisify } from 'node:util';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** |v| of a filtered byte read as a signed residual. */
const ABS = Uint8Array.from({ length: 256 }, (_, v) => (v < 128 ? v : 256 - v));

const COLOR_TYPE: Record<number, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };

export interface PngInput {
  width: number;
  height: number;
  /** 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
  channels: 1 | 2 | 3 | 4;
  /** Interleaved samples: Uint8Array for 8-bit, Uint16Array (host order) for 16-bit. */
  data: Uint8Array | Uint16Array;
  /** zlib level 0..9. */
  level: number;
  /**
   * 'adaptive': libpng's per-row min-sum choice of None/Sub/Up/Average/Paeth; 'up': Up on every
   * row; 'none'; 'auto': see autoSettings (`level` and `strategy` then apply to dense images only).
   */
  filter: 'adaptive' | 'up' | 'none' | 'auto';
  /** zlib strategy (node:zlib constants); Z_DEFAULT_STRATEGY when absent. */
  strategy?: number;
}

/** Size of the filtered scanlines of `input`. */
function scanlinesLength(input: PngInput): number {
  return (input.width * input.channels * (input.data instanceof Uint16Array ? 2 : 1) + 1) * input.height;
}

/**
 * Filtered scanlines: one filter-type byte + row bytes per row (big-endian samples for 16-bit),
 * written to `out` (every byte is written) or to a new array.
 */
export function filterScanlines(input: PngInput, out: Uint8Array = new Uint8Array(scanlinesLength(input))): Uint8Array {
  const { width, height, channels, data, filter } = input;
  const bps = data instanceof Uint16Array ? 2 : 1;
  const bpp = channels * bps;
  const rowBytes = width * bpp;
  let raw: Uint8Array;
  if (bps === 2) {
    raw = new Uint8Array(data.length * 2);
    const d = data as Uint16Array;
    for (let i = 0, j = 0; i < d.length; i++, j += 2) {
      raw[j] = d[i] >>> 8;
      raw[j + 1] = d[i] & 0xff;
    }
  } else raw = data as Uint8Array;
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
  if (filter === 'auto') return filterScanlines(autoSettings(input), out);
  minSumScanlines(raw, out, rowBytes, height, bpp);
  return out;
}

/** Filtered rows of one candidate, reused between calls (grown on demand). */
let candidates = new Uint8Array(0);

/**
 * libpng's default filter choice (png_write_find_filter with PNG_ALL_FILTERS, what GDAL's PNG
 * driver gets): per row, the filter whose residuals, read as signed bytes, have the smallest sum
 * of absolute values, ties to the first of None, Sub, Up, Average, Paeth. Rows that cost nothing
 * are decided without filtering: an all-zero row is None (an empty tile deflates to one run of
 * zeros, filter bytes included), a row equal to the one above is Up.
 */
function minSumScanlines(raw: Uint8Array, out: Uint8Array, rowBytes: number, height: number, bpp: number): void {
  if (candidates.length < 4 * rowBytes) candidates = new Uint8Array(4 * rowBytes);
  const sub = candidates.subarray(0, rowBytes);
  const up = candidates.subarray(rowBytes, 2 * rowBytes);
  const avg = candidates.subarray(2 * rowBytes, 3 * rowBytes);
  const paeth = candidates.subarray(3 * rowBytes, 4 * rowBytes);
  const words = raw.byteOffset % 4 === 0 && rowBytes % 4 === 0 ? new Uint32Array(raw.buffer, raw.byteOffset, (rowBytes >> 2) * height) : null;
  const quarter = rowBytes >> 2;
  for (let y = 0; y < height; y++) {
    const r0 = y * rowBytes;
    const o = y * (rowBytes + 1);
    // the cheap cases first: an all-zero row (None), a row equal to the one above (Up)
    let zero = true;
    let same = y > 0;
    if (words) {
      const w0 = y * quarter;
      for (let k = 0; k < quarter && (zero || same); k++) {
        const w = words[w0 + k];
        if (w !== 0) zero = false;
        if (same && w !== words[w0 - quarter + k]) same = false;
      }
    } else {
      for (let i = 0; i < rowBytes && (zero || same); i++) {
        const x = raw[r0 + i];
        if (x !== 0) zero = false;
        if (same && x !== raw[r0 - rowBytes + i]) same = false;
      }
    }
    if (zero) {
      out.fill(0, o, o + rowBytes + 1);
      continue;
    }
    if (same) {
      out[o] = 2;
      out.fill(0, o + 1, o + rowBytes + 1);
      continue;
    }
    let sNone = 0;
    let sSub = 0;
    let sUp = 0;
    let sAvg = 0;
    let sPaeth = 0;
    if (y === 0) {
      // nothing above: Up is None, Average is half the left, Paeth is Sub
      for (let i = 0; i < rowBytes; i++) {
        const x = raw[r0 + i];
        const a = i >= bpp ? raw[r0 + i - bpp] : 0;
        const vs = (x - a) & 0xff;
        const va = (x - (a >> 1)) & 0xff;
        sub[i] = vs;
        avg[i] = va;
        sNone += ABS[x];
        sSub += ABS[vs];
        sAvg += ABS[va];
      }
      sUp = sNone;
      sPaeth = sSub;
      paeth.set(sub);
      up.set(raw.subarray(r0, r0 + rowBytes));
    } else {
      const p0 = r0 - rowBytes;
      for (let i = 0; i < bpp; i++) {
        const x = raw[r0 + i];
        const b = raw[p0 + i];
        const vu = (x - b) & 0xff;
        const va = (x - (b >> 1)) & 0xff;
        sub[i] = x;
        up[i] = vu;
        avg[i] = va;
        paeth[i] = vu; // a = c = 0: Paeth predicts b
        sNone += ABS[x];
        sSub += ABS[x];
        sUp += ABS[vu];
        sAvg += ABS[va];
        sPaeth += ABS[vu];
      }
      for (let i = bpp; i < rowBytes; i++) {
        const x = raw[r0 + i];
        const a = raw[r0 + i - bpp];
        const b = raw[p0 + i];
        const c = raw[p0 + i - bpp];
        const vs = (x - a) & 0xff;
        const vu = (x - b) & 0xff;
        const va = (x - ((a + b) >> 1)) & 0xff;
        const pa = b > c ? b - c : c - b; // |p - a| with p = a + b - c
        const pb = a > c ? a - c : c - a; // |p - b|
        const pcs = a + b - c - c;
        const pc = pcs < 0 ? -pcs : pcs; // |p - c|
        const vp = (x - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
        sub[i] = vs;
        up[i] = vu;
        avg[i] = va;
        paeth[i] = vp;
        sNone += ABS[x];
        sSub += ABS[vs];
        sUp += ABS[vu];
        sAvg += ABS[va];
        sPaeth += ABS[vp];
      }
    }
    let best = 0;
    let min = sNone;
    if (sSub < min) {
      best = 1;
      min = sSub;
    }
    if (sUp < min) {
      best = 2;
      min = sUp;
    }
    if (sAvg < min) {
      best = 3;
      min = sAvg;
    }
    if (sPaeth < min) best = 4;
    out[o] = best;
    if (best === 0) out.set(raw.subarray(r0, r0 + rowBytes), o + 1);
    else out.set(best === 1 ? sub : best === 2 ? up : best === 3 ? avg : paeth, o + 1);
  }
}

const HIGH = 0x80808080;
const LOW = 0x7f7f7f7f;

/**
 * Sub on the first row, Up on the others, four bytes at a time: byte-wise subtraction without
 * borrows between bytes (SWAR) into an aligned row, then copied behind the filter-type byte.
 * Four times faster than the byte loop; this runs on every PNG tile.
 */
function upScanlines(raw: Uint8Array, out: Uint8Array, rowBytes: number, height: number, bpp: number): void {
  out[0] = 1;
  for (let i = 0; i < bpp; i++) out[1 + i] = raw[i];
  for (let i = bpp; i < rowBytes; i++) out[1 + i] = raw[i] - raw[i - bpp];
  const words = new Uint32Array(raw.buffer, raw.byteOffset, (rowBytes >> 2) * height);
  const quarter = rowBytes >> 2;
  const diff = new Uint32Array(quarter);
  const diffBytes = new Uint8Array(diff.buffer);
  for (let y = 1; y < height; y++) {
    const r = y * quarter;
    const p = r - quarter;
    for (let k = 0; k < quarter; k++) {
      const a = words[r + k];
      const b = words[p + k];
      diff[k] = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
    }
    const o = y * (rowBytes + 1);
    out[o] = 2;
    out.set(diffBytes, o + 1);
  }
}

const SIGNATURE = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10);
const IEND = Uint8Array.of(0, 0, 0, 0, 73, 69, 78, 68, 0xae, 0x42, 0x60, 0x82);

/** node ≥ 20.15 has a native (SIMD) CRC-32; the table loop is the fallback. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const crcOf = (buf: Uint8Array, start: number, end: number): number => (nativeCrc32 ? nativeCrc32(buf.subarray(start, end)) >>> 0 : crc32(buf, start, end));

/** signature, IHDR, one IDAT and IEND in one buffer of the exact size. */
function assemble(input: PngInput, idat: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(8 + 25 + 12 + idat.length + 12);
  const v = new DataView(out.buffer, out.byteOffset, out.length);
  out.set(SIGNATURE, 0);
  v.setUint32(8, 13);
  out.write('IHDR', 12, 'latin1');
  v.setUint32(16, input.width);
  v.setUint32(20, input.height);
  out[24] = input.data instanceof Uint16Array ? 16 : 8;
  out[25] = COLOR_TYPE[input.channels];
  out[26] = 0; // deflate
  out[27] = 0; // adaptive filtering
  out[28] = 0; // no interlace
  v.setUint32(29, crcOf(out, 12, 29));
  v.setUint32(33, idat.length);
  out.write('IDAT', 37, 'latin1');
  out.set(idat, 41);
  v.setUint32(41 + idat.length, crcOf(out, 37, 41 + idat.length));
  out.set(IEND, 45 + idat.length);
  return out;
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

/** Images at least this much free rows get libpng's settings under 'auto'. */
const AUTO_FREE_ROWS = 0.75;

/**
 * 'auto': libpng's own settings (what GDAL's PNG driver writes: min-sum filters, zlib 6,
 * Z_FILTERED) when at least three quarters of the rows are free (empty or repeated: mostly empty
 * tiles, sparse bboxes), where deflate's lazy matching costs less than level 1 and reaches
 * deflate's limit on the empty runs; otherwise Up at the input's level (level 6 costs ~4× the
 * CPU of level 1 on dense tiles, bench/png-matrix.ts). Other filters are returned unchanged.
 */
export function autoSettings(input: PngInput): PngInput {
  if (input.filter !== 'auto') return input;
  if (freeRowFraction(input.data, input.width * input.channels, input.height) >= AUTO_FREE_ROWS)
    return { ...input, filter: 'adaptive', level: 6, strategy: constants.Z_FILTERED };
  return { ...input, filter: 'up' };
}

/** The synchronous variant, for benchmarks and tests. */
export function encodePngSync(pngInput: PngInput): Buffer {
  const input = autoSettings(pngInput);
  return assemble(input, deflateSync(filterScanlines(input), { level: input.level, memLevel: 9, strategy: input.strategy ?? constants.Z_DEFAULT_STRATEGY }));
}

/**
 * Same as encodePngSync, deflating on a reused zlib handle (src/util/zlib-handle.ts) into pooled
 * scratch: a tile allocates only its PNG. `input.data` is not kept.
 */
export function encodePng(pngInput: PngInput): Buffer {
  const input = autoSettings(pngInput);
  const scan = filterScanlines(input, BUFFER_POOL.bytes(scanlinesLength(input)));
  const scratch = BUFFER_POOL.bytes(deflateBound(scan.length));
  try {
    const idat = deflateInto(scan, { level: input.level, memLevel: 9, strategy: input.strategy ?? constants.Z_DEFAULT_STRATEGY }, scratch);
    return assemble(input, idat);
  } finally {
    BUFFER_POOL.release(scan.buffer, scratch.buffer);
  }
}

const deflateAsync = promisify(zlib.deflate);

/** Images of at least this many pixels are encoded by encodePngCooperative. */
export const COOPERATIVE_PNG_PIXELS = 1 << 20;

/**
 * encodePng for large images, byte for byte the same PNG, without holding the event loop: the
 * rows are filtered a slice at a time with yields in between (util/cooperate.ts), each slice
 * starting one row early so its first row is filtered against the row above exactly as in one
 * pass (that overlap row's own output is kept), and the deflate runs on the libuv thread pool.
 */
export async function encodePngCooperative(pngInput: PngInput): Promise<Buffer> {
  const input = autoSettings(pngInput); // decided once for the whole image, not per slice
  const { width, height, channels, data } = input;
  const bps = data instanceof Uint16Array ? 2 : 1;
  const rowBytes = width * channels * bps;
  const rowSamples = width * channels;
  const scan = BUFFER_POOL.bytes(scanlinesLength(input));
  const saved = new Uint8Array(rowBytes + 1);
  try {
    // about 256 KiB of samples per slice, a multiple of 4 bytes from the start (the SWAR path)
    const rows = Math.max(4, (Math.ceil(262144 / rowBytes) + 3) & ~3);
    for (let y0 = 0; y0 < height; y0 += rows) {
      const from = y0 === 0 ? 0 : y0 - 1;
      const to = Math.min(height, y0 + rows);
      const at = from * (rowBytes + 1);
      if (from < y0) saved.set(scan.subarray(at, at + rowBytes + 1));
      filterScanlines({ ...input, height: to - from, data: data.subarray(from * rowSamples, to * rowSamples) }, scan.subarray(at, to * (rowBytes + 1)));
      if (from < y0) scan.set(saved, at);
      if (mustYield()) await yieldToLoop();
    }
    const idat = await deflateAsync(scan, { level: input.level, memLevel: 9, strategy: input.strategy ?? constants.Z_DEFAULT_STRATEGY });
    return assemble(input, idat);
  } finally {
    BUFFER_POOL.release(scan.buffer);
  }
}
