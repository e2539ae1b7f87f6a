/**
 * zlib/deflate (TIFF compression 8 and 32946) through node:zlib's thread pool. A chunk size at
 * least as large as the block lets zlib write the whole block in one go (DEPENDENCIES.md §7:
 * 2× faster in parallel than the 16 KiB default, and the event loop stays free).
 */
import { constants, inflate, type ZlibOptions } from 'node:zlib';
import { Errors } from '../../../errors.ts';

const MIN_CHUNK = 64 * 1024;

/**
 * Inflate `input`. With `expected`, the result holds at least that many bytes (more output is
 * kept, less is an error); a stream cut short after the expected bytes is accepted, as libtiff does.
 */
export function inflateBlock(input: Uint8Array, expected: number | null, maxBytes: number): Promise<Uint8Array> {
  const chunkSize = Math.min(Math.max(MIN_CHUNK, (expected ?? 0) + 1024), Math.max(MIN_CHUNK, maxBytes));
  const options: ZlibOptions = {
    chunkSize,
    maxOutputLength: Math.max(maxBytes, expected ?? 0),
    finishFlush: constants.Z_SYNC_FLUSH,
  };
  return new Promise((resolve, reject) => {
    inflate(input, options, (err, result) => {
      if (err) {
        reject(Errors.invalidFormat(`Corrupt deflate data in TIFF block (${err.message})`, err));
        return;
      }
      if (expected !== null && result.length < expected) {
        reject(Errors.invalidFormat(`Deflate data in TIFF block ends early (${result.length} of ${expected} bytes)`));
        return;
      }
      resolve(result);
    });
  });
}
