/**
 * The filters a chunk is read back through, in reverse pipeline order: deflate (node:zlib,
 * synchronously on a reused handle: the fastest per ARRAY-NOTES), shuffle, fletcher32 (checked).
 * Any other filter is refused with an UnsupportedFeature naming it, when a chunk is read.
 */
import { inflateSync } from 'node:zlib';
import { Errors } from '../../errors.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { inflateInto, ZlibDataError } from '../../util/zlib-handle.ts';
import { filterName, type FilterSpec } from './messages/filter-pipeline.ts';

const SYNC_INFLATE_MAX = 16 * 1024 * 1024;

export const SUPPORTED_FILTERS = new Set([1, 2, 3]);

/** The first filter of the pipeline we cannot decode, or null. */
export function unsupportedFilter(filters: readonly FilterSpec[]): FilterSpec | null {
  return filters.find((f) => !SUPPORTED_FILTERS.has(f.id)) ?? null;
}

/** Undo the pipeline on one stored chunk; `chunkBytes` is the unfiltered size. */
export function unfilter(data: Uint8Array, filters: readonly FilterSpec[], mask: number, chunkBytes: number, elementSize: number, what: string): Uint8Array {
  // sizes going into each filter when the chunk was written
  const sizeIn: number[] = [];
  let size = chunkBytes;
  for (const f of filters) {
    sizeIn.push(size);
    if (f.id === 3) size += 4;
  }
  let buf = data;
  for (let i = filters.length - 1; i >= 0; i--) {
    if (mask & (1 << i)) continue;
    const f = filters[i];
    switch (f.id) {
      case 1:
        // Inflated into a recycled buffer when a shuffle copies it out next: a fresh 4 MB
        // buffer costs ~5–20 ms of page faults on first write (its pages are mapped lazily).
        buf = inflate(buf, sizeIn[i], what, shuffledNext(filters, mask, i));
        break;
      case 2: {
        const shuffled = buf;
        buf = unshuffle(shuffled, f.params[0] ?? elementSize);
        if (buf !== shuffled) BUFFER_POOL.release(shuffled.buffer);
        break;
      }
      case 3:
        buf = checkFletcher(buf, what);
        break;
      default:
        throw Errors.unsupported(
          `${what} is compressed with the HDF5 filter '${filterName(f)}' (id ${f.id}), which this server cannot decode (supported: deflate, shuffle, fletcher32)`,
        );
    }
  }
  if (BUFFER_POOL.owns(buf.buffer)) {
    // the shuffle handed its input back (nothing to reorder): the chunk must not be a pooled buffer
    const scratch = buf;
    buf = scratch.slice();
    BUFFER_POOL.release(scratch.buffer);
  }
  if (buf.length < chunkBytes) throw Errors.invalidFormat(`${what}: chunk decodes to ${buf.length} bytes, expected ${chunkBytes}`);
  return buf;
}

/** Whether the next filter undone after pipeline step `i` is a shuffle (which writes a new buffer). */
function shuffledNext(filters: readonly FilterSpec[], mask: number, i: number): boolean {
  for (let k = i - 1; k >= 0; k--) if (!(mask & (1 << k))) return filters[k].id === 2;
  return false;
}

function inflate(input: Uint8Array, expected: number, what: string, pooled = false): Uint8Array {
  const out = pooled && expected <= SYNC_INFLATE_MAX ? BUFFER_POOL.bytes(expected) : new Uint8Array(expected);
  try {
    if (expected <= SYNC_INFLATE_MAX) {
      const n = inflateInto(input, out);
      if (n < expected) throw Errors.invalidFormat(`${what}: deflate data ends early (${n} of ${expected} bytes)`);
      return out;
    }
    const all = inflateSync(input, { maxOutputLength: expected + 1 });
    if (all.length < expected) throw Errors.invalidFormat(`${what}: deflate data ends early (${all.length} of ${expected} bytes)`);
    out.set(all.subarray(0, expected));
    return out;
  } catch (err) {
    if (err instanceof ZlibDataError || (err instanceof Error && 'code' in err)) {
      throw Errors.invalidFormat(`${what}: corrupt deflate data (${err.message})`, { cause: err });
    }
    throw err;
  }
}

/** Reverse HDF5's byte shuffle: byte k of every element was stored in plane k. */
export function unshuffle(src: Uint8Array, size: number): Uint8Array {
  if (size <= 1 || src.length < size) return src;
  const n = Math.floor(src.length / size);
  const out = new Uint8Array(src.length);
  if (size === 2) {
    for (let i = 0, j = 0; i < n; i++, j += 2) {
      out[j] = src[i];
      out[j + 1] = src[n + i];
    }
  } else if (size === 4) {
    for (let i = 0, j = 0; i < n; i++, j += 4) {
      out[j] = src[i];
      out[j + 1] = src[n + i];
      out[j + 2] = src[2 * n + i];
      out[j + 3] = src[3 * n + i];
    }
  } else
    for (let k = 0; k < size; k++) {
      const plane = k * n;
      for (let i = 0, j = k; i < n; i++, j += size) out[j] = src[plane + i];
    }
  out.set(src.subarray(n * size), n * size); // leftover bytes are stored as is
  return out;
}

/** Fletcher-32 over 16-bit big-endian words, as HDF5 computes it. */
export function fletcher32(data: Uint8Array): number {
  let sum1 = 0;
  let sum2 = 0;
  let i = 0;
  let words = data.length >> 1;
  while (words > 0) {
    let t = Math.min(words, 360);
    words -= t;
    while (t-- > 0) {
      sum1 += (data[i] << 8) | data[i + 1];
      sum2 += sum1;
      i += 2;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  if (data.length & 1) {
    sum1 += data[i] << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  return ((sum2 << 16) | sum1) >>> 0;
}

function checkFletcher(buf: Uint8Array, what: string): Uint8Array {
  if (buf.length < 4) throw Errors.invalidFormat(`${what}: chunk too short for its Fletcher-32 checksum`);
  const body = buf.subarray(0, buf.length - 4);
  const view = new DataView(buf.buffer, buf.byteOffset + buf.length - 4, 4);
  const sum = fletcher32(body);
  // HDF5 accepts the checksum in either byte order (older versions stored it swapped)
  if (view.getUint32(0, true) !== sum && view.getUint32(0, false) !== sum) {
    throw Errors.invalidFormat(`${what}: Fletcher-32 checksum mismatch (the chunk is corrupt)`);
  }
  return body;
}
