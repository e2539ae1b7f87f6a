/**
 * zlib/deflate (TIFF compression 8 and 32946).
 *
 * Blocks of known size inflate synchronously on a reused zlib handle straight into the block's
 * own buffer (src/util/zlib-handle.ts says why), up to 4 MB; inside a time series that asks for
 * it (SharedWork.inflateOffThread) on libuv's thread pool instead, same handles minus the stream. Larger blocks and streams of unknown
 * size (LERC's outer deflate) go through node:zlib's thread pool with an output cap.
 */
import { constants, inflate } from 'node:zlib';
import { Errors } from '../../../errors.ts';
import { currentSharedWork } from '../../../util/shared-work.ts';
import { inflateInto, inflateIntoOffThread, ZlibDataError } from '../../../util/zlib-handle.ts';

const MIN_CHUNK = 64 * 1024;

/**
 * Blocks larger than this inflate on the thread pool instead: a reused handle is cheaper, but
 * a 64 MB block would hold the event loop for ~100 ms.
 */
const SYNC_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Inflate `input` into all of `out`; a stream cut short after them is accepted (as libtiff
 * does), trailing output is dropped.
 */
export async function inflateBlock(input: Uint8Array, out: Uint8Array): Promise<Uint8Array> {
  const expected = out.length;
  let n: number;
  if (expected > SYNC_MAX_BYTES) {
    const all = await inflateUnsized(input, 2 * expected); // extra output is dropped, as below
    n = Math.min(all.length, expected);
    out.set(all.subarray(0, n));
  } else {
    try {
      // a series reading several granule sets at once overlaps inflates with its other work
      n = currentSharedWork()?.inflateOffThread === true ? await inflateIntoOffThread(input, out) : inflateInto(input, out);
    } catch (err) {
      if (err instanceof ZlibDataError) throw Errors.invalidFormat(`Corrupt deflate data in TIFF block (${err.message})`, err);
      throw err;
    }
  }
  if (n < expected) throw Errors.invalidFormat(`Deflate data in TIFF block ends early (${n} of ${expected} bytes)`);
  return out;
}

/** Inflate a stream of unknown decoded size, at most `maxBytes` of it. */
export function inflateUnsized(input: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const options = { chunkSize: MIN_CHUNK, maxOutputLength: Math.max(MIN_CHUNK, maxBytes), finishFlush: constants.Z_SYNC_FLUSH };
  return new Promise((resolve, reject) => {
    inflate(input, options, (err, result) => {
      if (err) reject(Errors.invalidFormat(`Corrupt deflate data in TIFF block (${err.message})`, err));
      else resolve(result);
    });
  });
}
