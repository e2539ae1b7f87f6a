/**
 * A cheaper per-row filter choice than libpng's (png-filters.ts's minSumScanlines): the same
 * minimum-sum-of-absolute-residuals rule over all five filters, but the sums are taken on every
 * SAMPLE_STEP-th pixel of the row, and only the chosen filter is then applied to the whole row.
 * The choice costs a sixteenth of libpng's and Paeth runs one channel at a time with its left
 * and upper-left neighbours in registers and a branch-free predictor, so a dense RGBA tile is
 * filtered in about a third of the time minSumScanlines takes. On photographic tiles the
 * sampled choice deflates as small as the exact one (bench/png.ts, BENCHMARKS.md issue 17).
 */
import { leastSum, rowWords, writePlainRow } from './png-filters.ts';

/** |v| of a filtered byte read as a signed residual (png-filters.ts has the same table: a module-local one keeps this loop 2–3× faster than reading the imported binding). */
const ABS = Uint8Array.from({ length: 256 }, (_, v) => (v < 128 ? v : 256 - v));

/** Every this-many-th pixel of a row is looked at to choose its filter. */
const SAMPLE_STEP = 16;
/** ...but at least this many pixels per row. */
const MIN_SAMPLES = 32;

/** Paeth's predictor (PNG spec §9.4), ties to a then b, without branches. */
export function paethOf(a: number, b: number, c: number): number {
  const da = b - c; // p - a
  const db = a - c; // p - b
  const dc = da + db; // p - c
  const pa = (da ^ (da >> 31)) - (da >> 31);
  const pb = (db ^ (db >> 31)) - (db >> 31);
  const pc = (dc ^ (dc >> 31)) - (dc >> 31);
  const notA = ((pb - pa) | (pc - pa)) >> 31;
  const useC = (pc - pb) >> 31;
  return a ^ ((a ^ (b ^ ((b ^ c) & useC))) & notA);
}

/** The filter of row `r0` (not the first row) by the sums of its sampled pixels' residuals, ties to the lower type. */
function chooseFilter(raw: Uint8Array, r0: number, rowBytes: number, bpp: number, stride: number): number {
  const p0 = r0 - rowBytes;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  for (let px = stride; px < rowBytes; px += stride) {
    for (let i = px; i < px + bpp; i++) {
      const x = raw[r0 + i];
      const a = raw[r0 + i - bpp];
      const b = raw[p0 + i];
      const c = raw[p0 + i - bpp];
      s0 += ABS[x];
      s1 += ABS[(x - a) & 0xff];
      s2 += ABS[(x - b) & 0xff];
      s3 += ABS[(x - ((a + b) >> 1)) & 0xff];
      s4 += ABS[(x - paethOf(a, b, c)) & 0xff];
    }
  }
  return leastSum(s0, s1, s2, s3, s4);
}

function subRow(raw: Uint8Array, r0: number, rowBytes: number, bpp: number, out: Uint8Array, o: number): void {
  for (let i = 0; i < bpp; i++) out[o + i] = raw[r0 + i];
  for (let i = bpp; i < rowBytes; i++) out[o + i] = raw[r0 + i] - raw[r0 + i - bpp];
}

function upRow(raw: Uint8Array, r0: number, rowBytes: number, out: Uint8Array, o: number): void {
  const p0 = r0 - rowBytes;
  for (let i = 0; i < rowBytes; i++) out[o + i] = raw[r0 + i] - raw[p0 + i];
}

function averageRow(raw: Uint8Array, r0: number, rowBytes: number, bpp: number, out: Uint8Array, o: number): void {
  const p0 = r0 - rowBytes;
  if (bpp === 4) {
    averageRow4(raw, r0, p0, rowBytes, out, o);
    return;
  }
  for (let i = 0; i < bpp; i++) out[o + i] = raw[r0 + i] - (raw[p0 + i] >> 1);
  for (let i = bpp; i < rowBytes; i++) out[o + i] = raw[r0 + i] - ((raw[r0 + i - bpp] + raw[p0 + i]) >> 1);
}

/** Paeth one channel at a time: the left (a) and upper-left (c) samples are the previous iteration's x and b. */
function paethRow(raw: Uint8Array, r0: number, rowBytes: number, bpp: number, out: Uint8Array, o: number): void {
  const p0 = r0 - rowBytes;
  if (bpp === 4) {
    paethRow4(raw, r0, p0, rowBytes, out, o);
    return;
  }
  for (let ch = 0; ch < bpp; ch++) {
    let a = 0;
    let c = 0;
    for (let i = ch; i < rowBytes; i += bpp) {
      const x = raw[r0 + i];
      const b = raw[p0 + i];
      out[o + i] = x - paethOf(a, b, c);
      a = x;
      c = b;
    }
  }
}

/** averageRow for 4-byte pixels, the left samples kept in registers. */
function averageRow4(raw: Uint8Array, r0: number, p0: number, rowBytes: number, out: Uint8Array, o: number): void {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  for (let i = 0; i < rowBytes; i += 4) {
    const x0 = raw[r0 + i];
    const x1 = raw[r0 + i + 1];
    const x2 = raw[r0 + i + 2];
    const x3 = raw[r0 + i + 3];
    out[o + i] = x0 - ((a0 + raw[p0 + i]) >> 1);
    out[o + i + 1] = x1 - ((a1 + raw[p0 + i + 1]) >> 1);
    out[o + i + 2] = x2 - ((a2 + raw[p0 + i + 2]) >> 1);
    out[o + i + 3] = x3 - ((a3 + raw[p0 + i + 3]) >> 1);
    a0 = x0;
    a1 = x1;
    a2 = x2;
    a3 = x3;
  }
}

/** paethRow for 4-byte pixels: the four channels side by side, in order. */
function paethRow4(raw: Uint8Array, r0: number, p0: number, rowBytes: number, out: Uint8Array, o: number): void {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  for (let i = 0; i < rowBytes; i += 4) {
    const x0 = raw[r0 + i];
    const x1 = raw[r0 + i + 1];
    const x2 = raw[r0 + i + 2];
    const x3 = raw[r0 + i + 3];
    const b0 = raw[p0 + i];
    const b1 = raw[p0 + i + 1];
    const b2 = raw[p0 + i + 2];
    const b3 = raw[p0 + i + 3];
    out[o + i] = x0 - paethOf(a0, b0, c0);
    out[o + i + 1] = x1 - paethOf(a1, b1, c1);
    out[o + i + 2] = x2 - paethOf(a2, b2, c2);
    out[o + i + 3] = x3 - paethOf(a3, b3, c3);
    a0 = x0;
    a1 = x1;
    a2 = x2;
    a3 = x3;
    c0 = b0;
    c1 = b1;
    c2 = b2;
    c3 = b3;
  }
}

/**
 * Filtered scanlines of 8-bit-per-byte rows (`raw`: big-endian bytes for 16-bit samples) into
 * `out`: an all-zero row is None, a row equal to the one above is Up (both without filtering:
 * they deflate to runs), the first row is Sub, any other row gets the filter of least sampled sum.
 */
export function sampledScanlines(raw: Uint8Array, out: Uint8Array, rowBytes: number, height: number, bpp: number): void {
  const pixels = rowBytes / bpp;
  const stride = bpp * Math.max(1, Math.min(SAMPLE_STEP, Math.floor(pixels / MIN_SAMPLES)));
  const words = rowWords(raw, rowBytes, height);
  for (let y = 0; y < height; y++) {
    const r0 = y * rowBytes;
    const o = y * (rowBytes + 1);
    if (writePlainRow(raw, words, y, rowBytes, out)) continue;
    const f = y === 0 ? 1 : chooseFilter(raw, r0, rowBytes, bpp, stride);
    out[o] = f;
    if (f === 0) out.set(raw.subarray(r0, r0 + rowBytes), o + 1);
    else if (f === 1) subRow(raw, r0, rowBytes, bpp, out, o + 1);
    else if (f === 2) upRow(raw, r0, rowBytes, out, o + 1);
    else if (f === 3) averageRow(raw, r0, rowBytes, bpp, out, o + 1);
    else paethRow(raw, r0, rowBytes, bpp, out, o + 1);
  }
}
