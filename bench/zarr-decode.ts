/**
 * What zarrita costs per chunk against decoding the bytes ourselves: one 512×512 float32 chunk
 * (1 MiB, smooth data) of an in-memory Zarr v2 array, compressed with zlib, blosc-lz4 and zstd.
 * Variants: zarrita with its own zlib codec (DecompressionStream), zarrita with our node:zlib
 * async codec (src/formats/zarr/node-zlib-codecs.ts), zarrita with a synchronous reused-handle
 * inflate (src/util/zlib-handle.ts), and no zarrita at all (inflateInto + a Float32Array view).
 * Median wall and CPU ms of 40 decodes after 5 warm-ups.
 *   node --import tsx bench/zarr-decode.ts
 */
import { deflateSync } from 'node:zlib';
import * as zarr from 'zarrita';
import { registerNodeZlibCodecs } from '../src/formats/zarr/node-zlib-codecs.ts';
import { inflateInto } from '../src/util/zlib-handle.ts';

const N = 512;
const field = new Float32Array(N * N);
for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) field[y * N + x] = 280 + 10 * Math.sin(x / 37) * Math.cos(y / 53) + ((x * 7 + y * 13) % 17) * 0.01;
const raw = new Uint8Array(field.buffer);

const blosc = (await import('numcodecs/blosc')).default.fromConfig({ cname: 'lz4', clevel: 5, shuffle: 1, blocksize: 0 });
const zstd = (await import('numcodecs/zstd')).default.fromConfig({ level: 3 });
const compressed: Record<string, { bytes: Uint8Array; compressor: object }> = {
  zlib: { bytes: new Uint8Array(deflateSync(raw, { level: 4 })), compressor: { id: 'zlib', level: 4 } },
  blosc: { bytes: await blosc.encode(raw), compressor: { id: 'blosc', cname: 'lz4', clevel: 5, shuffle: 1, blocksize: 0 } },
  zstd: { bytes: await zstd.encode(raw), compressor: { id: 'zstd', level: 3 } },
};

function store(name: string): zarr.AsyncReadable {
  const c = compressed[name]!;
  const zarray = { zarr_format: 2, shape: [N, N], chunks: [N, N], dtype: '<f4', compressor: c.compressor, fill_value: 0, filters: null, order: 'C' };
  const files = new Map<string, Uint8Array>([
    ['/.zarray', new TextEncoder().encode(JSON.stringify(zarray))],
    ['/0.0', c.bytes],
  ]);
  return { get: (key: string) => Promise.resolve(files.get(key)) };
}

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await run();
    const c1 = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c1.user + c1.system) / 1000);
  }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!.toFixed(2);
  console.log(`${label.padEnd(48)} wall ${med(wall)} ms  cpu ${med(cpu)} ms`);
}

const check = (data: unknown) => {
  const f = data as Float32Array;
  if (f.length !== N * N || f[12345] !== field[12345]) throw new Error('wrong values');
};

for (const name of Object.keys(compressed)) {
  console.log(`-- ${name}: ${compressed[name]!.bytes.length} bytes`);
  const arr = await zarr.open.v2(store(name), { kind: 'array' });
  if (name === 'zlib') {
    await time('zarrita, its zlib codec (DecompressionStream)', async () => check((await arr.getChunk([0, 0])).data));
    registerNodeZlibCodecs();
    const arr2 = await zarr.open.v2(store(name), { kind: 'array' });
    await time('zarrita, node:zlib async codec', async () => check((await arr2.getChunk([0, 0])).data));
    const sync = {
      kind: 'bytes_to_bytes' as const,
      fromConfig: () => ({
        kind: 'bytes_to_bytes' as const,
        decode: (b: Uint8Array) => {
          const out = new Uint8Array(N * N * 4);
          inflateInto(b, out);
          return Promise.resolve(out);
        },
        encode: () => Promise.reject(new Error('no')),
      }),
    };
    zarr.registry.set('numcodecs.zlib', () => Promise.resolve(sync) as never);
    const arr3 = await zarr.open.v2(store(name), { kind: 'array' });
    await time('zarrita, sync reused-handle inflate', async () => check((await arr3.getChunk([0, 0])).data));
    await time('no zarrita: inflateInto + Float32Array view', () => {
      const out = new Uint8Array(N * N * 4);
      inflateInto(compressed['zlib']!.bytes, out);
      check(new Float32Array(out.buffer));
      return Promise.resolve();
    });
  } else {
    await time(`zarrita, numcodecs ${name} (wasm)`, async () => check((await arr.getChunk([0, 0])).data));
    const codec = name === 'blosc' ? blosc : zstd;
    await time(`no zarrita: numcodecs ${name} decode + view`, async () => check(new Float32Array((await codec.decode(compressed[name]!.bytes)).buffer)));
  }
}
