/**
 * A small PNG decoder for tests (non-interlaced, 8/16-bit grey, grey+alpha, RGB, RGBA), so the
 * tests check bit depth, channel count and exact samples independently of the encoder.
 */
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  depth: 8 | 16;
  channels: number;
  /** Interleaved samples. */
  data: Uint8Array | Uint16Array;
}

const CHANNELS: Record<number, number> = { 0: 1, 4: 2, 2: 3, 6: 4 };

export function decodePng(buf: Buffer): DecodedPng {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 8;
  let channels = 1;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      depth = body[8];
      channels = CHANNELS[body[9]];
      if (body[12] !== 0) throw new Error('interlaced PNG not supported');
    } else if (type === 'IDAT') idat.push(body);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = (channels * depth) / 8;
  const stride = width * bpp;
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const o = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[o + x - bpp] : 0;
      const b = y > 0 ? out[o - stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[o - stride + x - bpp] : 0;
      let pred = 0;
      if (filter === 1) pred = a;
      else if (filter === 2) pred = b;
      else if (filter === 3) pred = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[o + x] = (line[x] + pred) & 255;
    }
  }
  if (depth === 8) return { width, height, depth: 8, channels, data: out };
  const data = new Uint16Array(out.length / 2);
  for (let i = 0; i < data.length; i++) data[i] = (out[2 * i] << 8) | out[2 * i + 1];
  return { width, height, depth: 16, channels, data };
}

/** Sample (x, y) of a decoded PNG as an array of channels. */
export function pixel(png: DecodedPng, x: number, y: number): number[] {
  const o = (y * png.width + x) * png.channels;
  return Array.from(png.data.subarray(o, o + png.channels));
}
