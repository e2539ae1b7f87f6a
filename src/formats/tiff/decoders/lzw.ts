/**
 * TIFF LZW decoder (codes MSB-first, 9 to 12 bits, "early change" width switch, 256 = Clear,
 * 257 = EndOfInformation). Hand-written because the npm options are far too slow for tiles
 * (DEPENDENCIES.md §1: geotiff.js's LZW takes ~120 ms per 512² RGB tile).
 *
 * Every table entry is a string that has already been written to the output: string(old) followed
 * by the first byte of the next string. So an entry is stored as (position in the output, length)
 * and emitting a code is a forward copy inside the output buffer: no chain walking, no allocation
 * besides the output.
 */
import { Errors } from '../../../errors.ts';

const CLEAR = 256;
const EOI = 257;
const FIRST_FREE = 258;
const TABLE_SIZE = 4096;

// Shared tables: decoding is synchronous, so calls never interleave.
const entryPos = new Int32Array(TABLE_SIZE);
const entryLen = new Int32Array(TABLE_SIZE);

/** Decode `input` into exactly `expected` bytes (extra output is dropped, as libtiff does). */
export function lzwDecode(input: Uint8Array, expected: number): Uint8Array {
  const out = new Uint8Array(expected);
  const n = input.length;
  if (n >= 2 && input[0] === 0 && (input[1] & 1) !== 0) {
    throw Errors.unsupported('Unsupported TIFF compression: old-style (pre-6.0) LZW');
  }
  let ip = 0;
  let op = 0;
  let bitBuf = 0;
  let bitCount = 0;
  let width = 9;
  let mask = 511;
  let next = FIRST_FREE;
  let oldPos = -1; // output position of the previous string (-1 right after Clear)
  let oldLen = 0;
  while (op < expected) {
    if (bitCount < width) {
      // bitCount ≤ 11 here, so two more bytes fit in the 32-bit buffer
      if (ip + 1 < n) {
        bitBuf = (bitBuf << 16) | (input[ip] << 8) | input[ip + 1];
        ip += 2;
        bitCount += 16;
      } else {
        while (bitCount < width && ip < n) {
          bitBuf = (bitBuf << 8) | input[ip++];
          bitCount += 8;
        }
        if (bitCount < width) break; // out of data
      }
    }
    const code = (bitBuf >>> (bitCount - width)) & mask;
    bitCount -= width;
    if (code === EOI) break;
    if (code === CLEAR) {
      width = 9;
      mask = 511;
      next = FIRST_FREE;
      oldPos = -1;
      continue;
    }
    let srcPos: number;
    let len: number;
    if (code < 256) {
      srcPos = -1;
      len = 1;
    } else if (code < next) {
      srcPos = entryPos[code];
      len = entryLen[code];
    } else if (code === next && oldPos >= 0) {
      // KwKwK: string(old) + its own first byte
      srcPos = oldPos;
      len = oldLen + 1;
    } else {
      throw Errors.invalidFormat(`Corrupt LZW data (code ${code} beyond table size ${next})`);
    }
    if (oldPos >= 0 && next < TABLE_SIZE) {
      entryPos[next] = oldPos;
      entryLen[next] = oldLen + 1;
      next++;
      if (next + 1 >= 1 << width && width < 12) {
        width++;
        mask = (1 << width) - 1;
      }
    }
    oldPos = op;
    oldLen = len;
    if (srcPos < 0) {
      out[op++] = code;
    } else {
      if (op + len > expected) len = expected - op;
      if (len > 32 && srcPos + len <= op) {
        out.copyWithin(op, srcPos, srcPos + len);
        op += len;
      } else {
        // forward byte copy (also right for the overlapping KwKwK case)
        const end = srcPos + len;
        while (srcPos < end) out[op++] = out[srcPos++];
      }
    }
  }
  if (op < expected) throw Errors.invalidFormat(`LZW data ends early (${op} of ${expected} bytes)`);
  return out;
}
