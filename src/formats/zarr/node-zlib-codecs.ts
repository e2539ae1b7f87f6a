/**
 * zlib and gzip codecs for zarrita on node:zlib (async, on the libuv pool, with a large output
 * buffer), replacing zarrita's DecompressionStream versions, which run on the main thread in
 * 16 KiB steps. Registered once for the v3 names and the numcodecs (v2) names.
 */
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { registry } from 'zarrita';

const inflateAsync = promisify(inflate);
const gunzipAsync = promisify(gunzip);
const CHUNK = 1 << 20;

const asBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

function codec(decode: (bytes: Uint8Array) => Promise<Uint8Array>) {
  return {
    kind: 'bytes_to_bytes' as const,
    fromConfig: () => ({
      kind: 'bytes_to_bytes' as const,
      decode,
      encode: (): Promise<Uint8Array> => Promise.reject(new Error('zarr encoding is not supported')),
    }),
  };
}

const zlibCodec = codec(async (bytes) => asBytes(await inflateAsync(bytes, { chunkSize: CHUNK })));
const gzipCodec = codec(async (bytes) => asBytes(await gunzipAsync(bytes, { chunkSize: CHUNK })));

let registered = false;

export function registerNodeZlibCodecs(): void {
  if (registered) return;
  registered = true;
  for (const name of ['zlib', 'numcodecs.zlib']) registry.set(name, () => Promise.resolve(zlibCodec) as never);
  for (const name of ['gzip', 'numcodecs.gzip']) registry.set(name, () => Promise.resolve(gzipCodec) as never);
}
