/**
 * PNG row filters (PNG spec §9) behind png-encoder.ts's filterScanlines: libpng's minimum-sum
 * choice per row, and Up on every row four bytes at a time (8-bit, and 16-bit from host order).
 */

/** |v| of a filtered byte read as a signed residual. */
const ABS = Uint8Array.from({ length: 256 }, (_, v) => (v < 128 ? v : 256 - v));

/** Filtered rows of one candidate, reused between calls (grown on demand). */
let candidates = new Uint8Array(0);

/**
 * libpng's default filter choice (png_write_find_filter with PNG_ALL_FILTERS, what GDAL's PNG
 * driver gets): per row, the filter whose residuals, read as signed bytes, have the smallest sum
 * of absolute values, ties to the first of None, Sub, Up, Average, Paeth. Rows that cost nothing
 * are decided without filtering: an all-zero row is None (an empty tile deflates to one run of
 * zeros, filter bytes included), a row equal to the one above is Up.
 */
export function minSumScanlines(raw: Uint8Array, out: Uint8Array, rowBytes: number, height: number, bpp: number): void {
  if (candidates.length < 4 * rowBytes) candidates = new Uint8Array(4 * rowBytes);
  const sub = candidates.subarray(0, rowBytes);
  const up = candidates.subarray(rowBytes, 2 * rowBytes);
  const avg = candidates.subarray(2 * rowBytes, 3 * rowBytes);
  const paeth = candidates.subarray(3 * rowBytes, 4 * rowBytes);
  const words = rowWords(raw, rowBytes, height);
  for (let y = 0; y < height; y++) {
    const r0 = y * rowBytes;
    const o = y * (rowBytes + 1);
    // the cheap cases first: an all-zero row (None), a row equal to the one above (Up)
    if (writePlainRow(raw, words, y, rowBytes, out)) continue;
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
    const best = leastSum(sNone, sSub, sUp, sAvg, sPaeth);
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
export function upScanlines(raw: Uint8Array, out: Uint8Array, rowBytes: number, height: number, bpp: number): void {
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

export const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * upScanlines for 16-bit samples in host (little-endian) order: the same byte-wise subtraction
 * on the host words, then each 16-bit lane's two bytes swapped into PNG's big-endian order — no
 * big-endian copy of the image first.
 */
export function upScanlines16(data: Uint16Array, out: Uint8Array, rowBytes: number, height: number, bpp: number): void {
  out[0] = 1;
  const first = new Uint8Array(rowBytes);
  for (let i = 0; i < rowBytes >> 1; i++) {
    first[2 * i] = data[i] >>> 8;
    first[2 * i + 1] = data[i] & 0xff;
  }
  for (let i = 0; i < bpp; i++) out[1 + i] = first[i];
  for (let i = bpp; i < rowBytes; i++) out[1 + i] = first[i] - first[i - bpp];
  const quarter = rowBytes >> 2;
  const words = new Uint32Array(data.buffer, data.byteOffset, quarter * height);
  const diff = new Uint32Array(quarter);
  const diffBytes = new Uint8Array(diff.buffer);
  for (let y = 1; y < height; y++) {
    const r = y * quarter;
    const p = r - quarter;
    for (let k = 0; k < quarter; k++) {
      const a = words[r + k];
      const b = words[p + k];
      const d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      diff[k] = ((d & 0x00ff00ff) << 8) | ((d >>> 8) & 0x00ff00ff);
    }
    const o = y * (rowBytes + 1);
    out[o] = 2;
    out.set(diffBytes, o + 1);
  }
}

/** `raw` as 32-bit words when its rows are word-aligned (the plain-row test reads 4 bytes at a time), else null. */
export function rowWords(raw: Uint8Array, rowBytes: number, height: number): Uint32Array | null {
  return raw.byteOffset % 4 === 0 && rowBytes % 4 === 0 ? new Uint32Array(raw.buffer, raw.byteOffset, (rowBytes >> 2) * height) : null;
}

/**
 * Row y of `raw` when it costs nothing to filter: an all-zero row is written as None, a row equal
 * to the one above as Up (zero residuals), both without filtering; returns false for any other row.
 */
export function writePlainRow(raw: Uint8Array, words: Uint32Array | null, y: number, rowBytes: number, out: Uint8Array): boolean {
  let zero = true;
  let same = y > 0;
  if (words) {
    const quarter = rowBytes >> 2;
    const w0 = y * quarter;
    for (let k = 0; k < quarter && (zero || same); k++) {
      const w = words[w0 + k];
      if (w !== 0) zero = false;
      if (same && w !== words[w0 - quarter + k]) same = false;
    }
  } else {
    const r0 = y * rowBytes;
    for (let i = 0; i < rowBytes && (zero || same); i++) {
      const x = raw[r0 + i];
      if (x !== 0) zero = false;
      if (same && x !== raw[r0 - rowBytes + i]) same = false;
    }
  }
  if (!zero && !same) return false;
  const o = y * (rowBytes + 1);
  out[o] = zero ? 0 : 2;
  out.fill(0, o + 1, o + rowBytes + 1);
  return true;
}

/** libpng's choice among the five filters' residual sums: the least, ties to the first (None, Sub, Up, Average, Paeth). */
export function leastSum(none: number, sub: number, up: number, avg: number, paeth: number): number {
  let best = 0;
  let min = none;
  if (sub < min) {
    best = 1;
    min = sub;
  }
  if (up < min) {
    best = 2;
    min = up;
  }
  if (avg < min) {
    best = 3;
    min = avg;
  }
  return paeth < min ? 4 : best;
}
