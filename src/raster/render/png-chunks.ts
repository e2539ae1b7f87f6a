/** A PNG file from its parts: signature, IHDR, optional PLTE and tRNS, one IDAT, IEND. */
import * as zlib from 'node:zlib';

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

/** node ≥ 20.15 has a native (SIMD) CRC-32; the table loop is the fallback. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const crcOf = (buf: Uint8Array, start: number, end: number): number => (nativeCrc32 ? nativeCrc32(buf.subarray(start, end)) >>> 0 : crc32(buf, start, end));

const SIGNATURE = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10);
const IEND = Uint8Array.of(0, 0, 0, 0, 73, 69, 78, 68, 0xae, 0x42, 0x60, 0x82);

export interface PngHeader {
  width: number;
  height: number;
  /** 8 or 16. */
  depth: number;
  /** 0 grey, 2 RGB, 3 indexed, 4 grey+alpha, 6 RGBA. */
  colorType: number;
  /** Colour type 3: RGB of each entry (PLTE) and alpha of the first entries (tRNS, optional). */
  plte?: Uint8Array;
  trns?: Uint8Array | null;
}

/** Writes one chunk at `at`, its body given in one or more parts; returns the offset after it. */
function chunk(out: Buffer, at: number, type: string, body: Uint8Array | readonly Uint8Array[]): number {
  const parts = body instanceof Uint8Array ? [body] : body;
  let length = 0;
  for (const p of parts) {
    out.set(p, at + 8 + length);
    length += p.length;
  }
  out.writeUInt32BE(length, at);
  out.write(type, at + 4, 'latin1');
  out.writeUInt32BE(crcOf(out, at + 4, at + 8 + length), at + 8 + length);
  return at + 12 + length;
}

/** The whole PNG in one buffer of the exact size; the IDAT's body may come in parts (one IDAT chunk all the same). */
export function assemblePng(h: PngHeader, idat: Uint8Array | readonly Uint8Array[]): Buffer {
  const extra = (h.plte ? 12 + h.plte.length : 0) + (h.trns ? 12 + h.trns.length : 0);
  const idatLength = idat instanceof Uint8Array ? idat.length : idat.reduce((a, p) => a + p.length, 0);
  const out = Buffer.allocUnsafe(8 + 25 + extra + 12 + idatLength + 12);
  out.set(SIGNATURE, 0);
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, h.width);
  v.setUint32(4, h.height);
  ihdr[8] = h.depth;
  ihdr[9] = h.colorType;
  // [10] deflate, [11] adaptive filtering, [12] no interlace: all 0
  let at = chunk(out, 8, 'IHDR', ihdr);
  if (h.plte) at = chunk(out, at, 'PLTE', h.plte);
  if (h.trns) at = chunk(out, at, 'tRNS', h.trns);
  at = chunk(out, at, 'IDAT', idat);
  out.set(IEND, at);
  return out;
}
