/**
 * Raw block bytes (host byte order, predictor undone) → typed sample arrays of the output dtype,
 * and pixel-interleaved arrays → one plane per sample.
 */
import type { DType, TypedArray } from '../../../dtype.ts';
import { allocate, dtypeCtor } from '../../../dtype.ts';

export interface SampleLayout {
  /** Pixels per row (the block width). */
  width: number;
  rows: number;
  /** Samples per pixel held by the block. */
  samples: number;
  bits: number;
  /** True for 16-bit IEEE floats (decoded to float32). */
  half: boolean;
  dtype: DType;
}

/** `buf` as `width*rows*samples` interleaved samples of `layout.dtype` (may share its memory). */
export function bytesToSamples(buf: Uint8Array, layout: SampleLayout): TypedArray {
  const n = layout.width * layout.rows * layout.samples;
  if (layout.half) return halfToFloat(aligned(buf, 2), n);
  const bits = layout.bits;
  if (bits === 8 || bits === 16 || bits === 32 || bits === 64) {
    const bytes = bits >> 3;
    const src = aligned(buf, bytes);
    const Ctor = dtypeCtor(layout.dtype);
    return new Ctor(src.buffer, src.byteOffset, n);
  }
  return unpackBits(buf, layout.width * layout.samples, layout.rows, bits, layout.dtype);
}

/** `buf` itself when its offset is a multiple of `bytes`, else an aligned copy. */
export function aligned(buf: Uint8Array, bytes: number): Uint8Array {
  return buf.byteOffset % bytes === 0 ? buf : buf.slice();
}

/**
 * Samples of `bits` bits packed MSB-first, each row starting on a byte boundary (NBITS=1..31).
 */
export function unpackBits(buf: Uint8Array, perRow: number, rows: number, bits: number, dtype: DType): TypedArray {
  const out = allocate(dtype, perRow * rows);
  const rowBytes = Math.ceil((perRow * bits) / 8);
  let o = 0;
  if (bits === 1 || bits === 2 || bits === 4) {
    const mask = (1 << bits) - 1;
    const perByte = 8 / bits;
    for (let r = 0; r < rows; r++) {
      const base = r * rowBytes;
      for (let i = 0; i < perRow; i++) {
        const byte = buf[base + Math.floor(i / perByte)];
        const shift = 8 - bits * ((i % perByte) + 1);
        out[o++] = (byte >> shift) & mask;
      }
    }
    return out;
  }
  for (let r = 0; r < rows; r++) {
    let bitPos = r * rowBytes * 8;
    for (let i = 0; i < perRow; i++) {
      let v = 0;
      for (let b = 0; b < bits; b++, bitPos++) v = v * 2 + ((buf[bitPos >> 3] >> (7 - (bitPos & 7))) & 1);
      out[o++] = v;
    }
  }
  return out;
}

/** IEEE half floats (host order) → float32, bit for bit as GDAL's CPLHalfToFloat (NaN payloads kept). */
export function halfToFloat(buf: Uint8Array, n: number): Float32Array {
  const src = new Uint16Array(buf.buffer, buf.byteOffset, n);
  const out = new Float32Array(n);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const h = src[i];
    const sign = (h & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    if (exp === 0) {
      if (man === 0) {
        bits[i] = sign;
        continue;
      }
      // subnormal half → normal float
      while ((man & 0x400) === 0) {
        man <<= 1;
        exp--;
      }
      exp++;
      man &= ~0x400;
    } else if (exp === 31) {
      bits[i] = (sign | 0x7f800000 | (man << 13)) >>> 0;
      continue;
    }
    bits[i] = (sign | ((exp + 112) << 23) | (man << 13)) >>> 0;
  }
  return out;
}

/** Split `samples`-interleaved `arr` into one array of `n` values per sample. */
export function deinterleave(arr: TypedArray, samples: number, n: number, dtype: DType): TypedArray[] {
  if (samples === 1) return [arr.length === n ? arr : arr.subarray(0, n)];
  const planes: TypedArray[] = [];
  for (let s = 0; s < samples; s++) planes.push(allocate(dtype, n));
  if (samples === 3) {
    const [p0, p1, p2] = planes;
    for (let i = 0, j = 0; i < n; i++, j += 3) {
      p0[i] = arr[j];
      p1[i] = arr[j + 1];
      p2[i] = arr[j + 2];
    }
  } else if (samples === 4) {
    const [p0, p1, p2, p3] = planes;
    for (let i = 0, j = 0; i < n; i++, j += 4) {
      p0[i] = arr[j];
      p1[i] = arr[j + 1];
      p2[i] = arr[j + 2];
      p3[i] = arr[j + 3];
    }
  } else {
    for (let s = 0; s < samples; s++) {
      const p = planes[s];
      for (let i = 0, j = s; i < n; i++, j += samples) p[i] = arr[j];
    }
  }
  return planes;
}
