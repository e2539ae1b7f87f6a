/**
 * A bounds-checked little-endian cursor over a metadata buffer. Every read past the end is an
 * InvalidFormat naming the structure being read, never a RangeError; 64-bit values above 2^53
 * (which no real file needs for sizes or addresses) are refused the same way.
 */
import { Errors } from '../../errors.ts';

/** The "undefined address" of HDF5 (all bits set). */
export const UNDEF = -1;

export class Cursor {
  pos: number;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    /** What is being read, for error messages ('object header at 1234'). */
    readonly what: string,
    pos = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = pos;
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  need(n: number, field = 'data'): void {
    if (!(n >= 0) || this.pos + n > this.bytes.length) {
      throw Errors.invalidFormat(`HDF5 ${this.what}: ${field} runs past the end of its block (${n} bytes at ${this.pos} of ${this.bytes.length})`);
    }
  }

  skip(n: number, field = 'data'): void {
    this.need(n, field);
    this.pos += n;
  }

  u8(field = 'byte'): number {
    this.need(1, field);
    return this.bytes[this.pos++];
  }

  u16(field = 'field'): number {
    this.need(2, field);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(field = 'field'): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** An unsigned integer of `n` bytes (1–8); all bits set → UNDEF when `undef`. */
  uint(n: number, field = 'field', undef = false): number {
    if (n < 1 || n > 8) throw Errors.invalidFormat(`HDF5 ${this.what}: ${field} has an impossible size of ${n} bytes`);
    this.need(n, field);
    let v = 0;
    let allSet = true;
    for (let i = n - 1; i >= 0; i--) {
      const b = this.bytes[this.pos + i];
      if (b !== 0xff) allSet = false;
      v = v * 256 + b;
    }
    this.pos += n;
    if (undef && allSet) return UNDEF;
    if (v > Number.MAX_SAFE_INTEGER) throw Errors.invalidFormat(`HDF5 ${this.what}: ${field} ${v} is too large`);
    return v;
  }

  u64(field = 'field'): number {
    return this.uint(8, field);
  }

  bytesAt(n: number, field = 'data'): Uint8Array {
    this.need(n, field);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** `n` bytes as text, cut at the first NUL. */
  text(n: number, field = 'name'): string {
    return decodeText(this.bytesAt(n, field));
  }

  signature(sig: string): void {
    this.need(4, 'signature');
    for (let i = 0; i < sig.length; i++) {
      if (this.bytes[this.pos + i] !== sig.charCodeAt(i)) {
        const got = String.fromCharCode(...this.bytes.subarray(this.pos, this.pos + sig.length));
        throw Errors.invalidFormat(`HDF5 ${this.what}: expected signature ${sig}, found ${JSON.stringify(got)}`);
      }
    }
    this.pos += sig.length;
  }

  /** Advance to the next multiple of `n` relative to `base`. */
  align(n: number, base = 0): void {
    const r = (this.pos - base) % n;
    if (r !== 0) this.pos = Math.min(this.bytes.length, this.pos + n - r);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

export function decodeText(b: Uint8Array): string {
  const nul = b.indexOf(0);
  return utf8.decode(nul >= 0 ? b.subarray(0, nul) : b);
}

/** Bytes needed to encode values up to `max` (HDF5's H5VM_limit_enc_size). */
export function limitEncSize(max: number): number {
  return max <= 0 ? 1 : Math.floor(Math.floor(Math.log2(max)) / 8) + 1;
}
