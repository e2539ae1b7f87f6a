/** ZSTD (TIFF compression 50000) through `zstddec` (WebAssembly; Node 20's zlib has no zstd). */
import { ZSTDDecoder } from 'zstddec';
import { Errors } from '../../../errors.ts';

let decoder: ZSTDDecoder | null = null;
let ready: Promise<ZSTDDecoder> | null = null;

function getDecoder(): Promise<ZSTDDecoder> {
  if (decoder !== null) return Promise.resolve(decoder);
  ready ??= (async () => {
    const d = new ZSTDDecoder();
    await d.init();
    decoder = d;
    return d;
  })();
  return ready;
}

/**
 * Decompress one zstd frame. `capacity` is the output size to allow: the exact block size for
 * TIFF blocks (zstddec otherwise trusts the frame header, which GDAL may leave out), an upper
 * bound for LERC_ZSTD blobs. A result shorter than `exact` (when given) is an error.
 */
export async function zstdDecode(input: Uint8Array, capacity: number, exact: number | null): Promise<Uint8Array> {
  const d = await getDecoder();
  let out: Uint8Array;
  try {
    out = d.decode(input, Math.max(1, capacity));
  } catch (err) {
    throw Errors.invalidFormat('Corrupt ZSTD data in TIFF block', { cause: err });
  }
  // zstddec returns an empty (or short) array when ZSTD_decompress reports an error.
  if (out.length === 0 || (exact !== null && out.length < exact)) {
    throw Errors.invalidFormat(`Corrupt ZSTD data in TIFF block (${out.length} bytes decoded${exact !== null ? ` of ${exact}` : ''})`);
  }
  return out;
}
