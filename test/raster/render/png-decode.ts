/**
 * A small PNG decoder for tests (non-interlaced, 8/16-bit grey, grey+alpha, RGB, RGBA, 8-bit
 * indexed), so the tests check bit depth, channel count and exact samples independently of the
 * encoder. Like libpng's expand transformations: an indexed image becomes RGB, or RGBA with a
 * tRNS chunk; a grey image with a tRNS key becomes grey+alpha (`indexed`/`greyKey` tell which).
 */
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  depth: 8 | 16;
  channels: number;
  /** Interleaved samples. */
  data: Uint8Array | Uint16Array;
  /** Stored as an indexed image (colour type 3). */
  indexed?: boolean;
  /** Stored as grey with a tRNS key. */
  greyKey?: boolean;
}

const CHANNELS: Record<number, number> = { 0: 1, 4: 2, 2: 3, 6: 4, 3: 1 };

export function decodePng(buf: Buffer): DecodedPng {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 8;
  let channels = 1;
  let colorType = 0;
  let plte: Buffer | null = null;
  let trns: Buffer | null = null;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      depth = body[8];
      colorType = body[9];
      channels = CHANNELS[colorType];
      if (body[12] !== 0) throw new Error('interlaced PNG not supported');
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'PLTE') plte = body;
    else if (type === 'tRNS') trns = body;
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
  if (colorType === 3) {
    if (!plte || depth !== 8) throw new Error('indexed PNG without PLTE or not 8-bit');
    const c = trns ? 4 : 3;
    const rgba = new Uint8Array(width * height * c);
    for (let p = 0; p < width * height; p++) {
      const i = out[p];
      if (3 * i + 2 >= plte.length) throw new Error(`palette index ${i} out of range`);
      rgba.set(plte.subarray(3 * i, 3 * i + 3), p * c);
      if (trns) rgba[p * c + 3] = i < trns.length ? trns[i] : 255;
    }
    return { width, height, depth: 8, channels: c, data: rgba, indexed: true };
  }
  const data = depth === 8 ? out : new Uint16Array(out.length / 2);
  if (depth === 16) for (let i = 0; i < data.length; i++) data[i] = (out[2 * i] << 8) | out[2 * i + 1];
  if (colorType === 0 && trns) {
    const key = trns.readUInt16BE(0);
    const full = depth === 8 ? 255 : 65535;
    const ga = depth === 8 ? new Uint8Array(data.length * 2) : new Uint16Array(data.length * 2);
    for (let p = 0; p < data.length; p++) {
      ga[2 * p] = data[p];
      ga[2 * p + 1] = data[p] === key ? 0 : full;
    }
    return { width, height, depth: depth as 8 | 16, channels: 2, data: ga, greyKey: true };
  }
  return depth === 8 ? { width, height, depth: 8, channels, data } : { width, height, depth: 16, channels, data };
}

/** Sample (x, y) of a decoded PNG as an array of channels. */
export function pixel(png: DecodedPng, x: number, y: number): number[] {
  const o = (y * png.width + x) * png.channels;
  return Array.from(png.data.subarray(o, o + png.channels));
}
