/** PackBits (Apple RLE, TIFF compression 32773). A few lines; no package needed. */
import { Errors } from '../../../errors.ts';

export function packbitsDecode(input: Uint8Array, expected: number): Uint8Array {
  const out = new Uint8Array(expected);
  const n = input.length;
  let ip = 0;
  let op = 0;
  while (op < expected && ip < n) {
    const h = input[ip++];
    if (h < 128) {
      // h+1 literal bytes
      const count = Math.min(h + 1, n - ip, expected - op);
      out.set(input.subarray(ip, ip + count), op);
      ip += h + 1;
      op += count;
    } else if (h > 128) {
      // the next byte repeated 257-h times
      if (ip >= n) break;
      const value = input[ip++];
      const count = Math.min(257 - h, expected - op);
      out.fill(value, op, op + count);
      op += count;
    }
    // h === 128: no-op
  }
  if (op < expected) throw Errors.invalidFormat(`PackBits data ends early (${op} of ${expected} bytes)`);
  return out;
}
