/**
 * GIF image data: the LZW code stream of one frame's palette indices, in GIF's sub-blocks
 * (minimum code size byte, blocks of ≤ 254 bytes each led by its length, a 0 terminator).
 *
 * Hand-written rather than gifenc's `lzwEncode` for speed on a fresh process: a time series
 * encodes a handful of frames per request, and gifenc's encoder (a bit-writer closure called per
 * code, a growing output stream) ran its first frames at interpreter speed — 10–30× its warm
 * speed, most of a fresh server's GIF series (BENCHMARKS.md, time series). Here one flat loop
 * with no calls per pixel, which V8 optimises within the first frame, writes the bits straight
 * into an output sized for the worst case. The code stream is the same greedy LZW with the same
 * table resets as gifenc's (every code width and clear code at the same place), so the bytes are
 * identical to gifenc's (test/raster/render/gif-lzw.test.ts checks that and decodes with Pillow).
 *
 * Dictionary: open addressing keyed by (prefix code << 8 | byte), 8192 slots (at most 4093
 * entries: load ≤ ½), keys stamped with a generation so a table reset (every 4093 new strings
 * on noisy data) is one increment instead of clearing the table.
 */

const MAX_CODE = 4096;
/** Sub-block length (GIF allows up to 255; gifenc writes 254, and so do we, for identical bytes). */
const BLOCK = 254;
const SLOTS = 8192;
const SLOT_MASK = SLOTS - 1;
/** Generations fit above the 20 key bits of a positive int32. */
const MAX_GENERATION = (1 << 11) - 1;

// One table for the process: encoding is synchronous, so it is never used by two frames at once.
const keys = new Int32Array(SLOTS);
const codes = new Int16Array(SLOTS);
let generation = 0;

/** Bytes `lzwImageData` may write for `pixels` pixels: 12 bits per pixel at worst, plus block lengths. */
export function lzwMaxBytes(pixels: number): number {
  const data = Math.ceil(((pixels + 2) * 12) / 8) + 2;
  return 1 + data + Math.ceil(data / BLOCK) + 2;
}

/**
 * Writes the image data of `index` (every value < 2^minCodeSize) into `out` from `offset`;
 * returns the offset after it. `out` needs `lzwMaxBytes(index.length)` bytes from `offset`.
 */
export function lzwImageData(index: Uint8Array, minCodeSize: number, out: Uint8Array, offset: number): number {
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const n = index.length;
  let pos = offset;
  out[pos++] = minCodeSize;
  // the current sub-block: its length byte at `lenPos`, `count` bytes written after it
  let lenPos = pos++;
  let count = 0;
  let acc = 0;
  let bits = 0;
  let codeSize = minCodeSize + 1;
  let maxCode = (1 << codeSize) - 1;
  let next = clear + 2;
  if (++generation > MAX_GENERATION) {
    keys.fill(0);
    generation = 1;
  }
  let stamp = generation << 20;

  // the clear code first
  acc = clear;
  bits = codeSize;
  if (n === 0) {
    acc |= eoi << bits;
    bits += codeSize;
  } else {
    let ent = index[0]!;
    for (let i = 1; i < n; i++) {
      const c = index[i]!;
      const key = (ent << 8) | c;
      const want = stamp | key;
      let h = Math.imul(key, 0x9e3779b1) >>> 19;
      let k = keys[h]!;
      while (k !== want && k >= stamp && (k & ~0xfffff) === stamp) {
        h = (h + 1) & SLOT_MASK;
        k = keys[h]!;
      }
      if (k === want) {
        ent = codes[h]!;
        continue;
      }
      // No string (ent, c) yet: write ent, then add the string or write a clear code and reset the
      // table. At most 7 + 12 + 12 bits are then pending: they fit the int32 accumulator, so one
      // flush after both codes does.
      acc |= ent << bits;
      bits += codeSize;
      if (next > maxCode) {
        codeSize++;
        maxCode = codeSize === 12 ? MAX_CODE : (1 << codeSize) - 1;
      }
      ent = c;
      if (next < MAX_CODE) {
        keys[h] = want;
        codes[h] = next++;
      } else {
        acc |= clear << bits;
        bits += codeSize;
        if (++generation > MAX_GENERATION) {
          keys.fill(0);
          generation = 1;
        }
        stamp = generation << 20;
        next = clear + 2;
        codeSize = minCodeSize + 1;
        maxCode = (1 << codeSize) - 1;
      }
      while (bits >= 8) {
        out[pos++] = acc & 255;
        acc >>>= 8;
        bits -= 8;
        if (++count === BLOCK) {
          out[lenPos] = BLOCK;
          lenPos = pos++;
          count = 0;
        }
      }
    }
    // the last string, then end of information (flushed below, with any bits left)
    acc |= ent << bits;
    bits += codeSize;
    if (next > maxCode) codeSize++;
    acc |= eoi << bits;
    bits += codeSize;
  }
  return finishSubBlocks(out, pos, lenPos, count, acc, bits);
}

/**
 * Ends a code stream: writes the `bits` (< 32) still in `acc` into the open sub-block (length byte
 * at `lenPos`, `count` bytes in it), opening new ones as they fill, then the block terminator;
 * returns the offset after it.
 */
function finishSubBlocks(out: Uint8Array, pos: number, lenPos: number, count: number, acc: number, bits: number): number {
  while (bits > 0) {
    out[pos++] = acc & 255;
    acc >>>= 8;
    bits -= 8;
    if (++count === BLOCK) {
      out[lenPos] = BLOCK;
      lenPos = pos++;
      count = 0;
    }
  }
  if (count > 0) {
    out[lenPos] = count;
    out[pos++] = 0; // block terminator
  } else out[lenPos] = 0; // the empty block just opened is the terminator
  return pos;
}

/**
 * The image data of `n` pixels all equal to `value`, without a pixel array: the same greedy parse
 * and table resets as `lzwImageData` on such an input (the same bytes), computed from the run's
 * length alone. In a run the table holds value¹…valueᴸ, valueᵏ being code `clear + k` for k ≥ 2,
 * so each string written is the longest one (then one longer is added), the last what is left.
 */
export function lzwRun(n: number, value: number, minCodeSize: number): Uint8Array {
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const codes: number[] = [clear];
  const widths: number[] = [minCodeSize + 1];
  let codeSize = minCodeSize + 1;
  let maxCode = (1 << codeSize) - 1;
  let next = clear + 2;
  let longest = 1;
  let remaining = n;
  const code = (k: number): number => (k === 1 ? value : clear + k);
  while (remaining > 0) {
    const k = Math.min(longest, remaining);
    codes.push(code(k));
    widths.push(codeSize);
    remaining -= k;
    if (remaining === 0) {
      if (next > maxCode) codeSize++;
      break;
    }
    if (next > maxCode) {
      codeSize++;
      maxCode = codeSize === 12 ? MAX_CODE : (1 << codeSize) - 1;
    }
    if (next < MAX_CODE) {
      next++;
      longest = k + 1;
    } else {
      codes.push(clear);
      widths.push(codeSize);
      next = clear + 2;
      codeSize = minCodeSize + 1;
      maxCode = (1 << codeSize) - 1;
      longest = 1;
    }
  }
  codes.push(eoi);
  widths.push(codeSize);
  const bytes = Math.ceil(widths.reduce((a, b) => a + b, 0) / 8);
  const out = new Uint8Array(1 + bytes + Math.ceil(bytes / BLOCK) + 1);
  let pos = 0;
  out[pos++] = minCodeSize;
  let lenPos = pos++;
  let count = 0;
  let acc = 0;
  let bits = 0;
  for (let j = 0; j < codes.length; j++) {
    acc |= codes[j]! << bits;
    bits += widths[j]!;
    while (bits >= 8) {
      out[pos++] = acc & 255;
      acc >>>= 8;
      bits -= 8;
      if (++count === BLOCK) {
        out[lenPos] = BLOCK;
        lenPos = pos++;
        count = 0;
      }
    }
  }
  return out.subarray(0, finishSubBlocks(out, pos, lenPos, count, acc, bits));
}
