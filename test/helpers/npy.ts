/** Reading our `.npy` responses in tests. */
import assert from 'node:assert/strict';
import type { TestServer } from './test-server.ts';

export interface Npy {
  shape: number[];
  descr: string;
  data: ArrayLike<number>;
}

const CTORS: Record<string, new (b: ArrayBuffer) => ArrayLike<number>> = {
  '|u1': Uint8Array,
  '|i1': Int8Array,
  '<u2': Uint16Array,
  '<i2': Int16Array,
  '<u4': Uint32Array,
  '<i4': Int32Array,
  '<f4': Float32Array,
  '<f8': Float64Array,
};

/** Parses a numpy .npy v1 buffer (little-endian, C order). */
export function parseNpy(buf: Buffer): Npy {
  assert.equal(buf.subarray(1, 6).toString('latin1'), 'NUMPY', buf.toString().slice(0, 200));
  const headerLen = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + headerLen).toString('latin1');
  const descr = /'descr':\s*'([^']+)'/.exec(header)![1];
  const shape = /'shape':\s*\(([^)]*)\)/
    .exec(header)![1]
    .split(',')
    .filter((s) => s.trim())
    .map(Number);
  const ctor = CTORS[descr];
  assert.ok(ctor, `npy dtype ${descr}`);
  return { shape, descr, data: new ctor(new Uint8Array(buf.subarray(10 + headerLen)).buffer) };
}

/** GET `path` from `server`, which must answer 200 with a .npy body. */
export async function fetchNpy(server: TestServer, path: string): Promise<Npy> {
  const r = await server.get(path);
  const body = Buffer.from(await r.arrayBuffer());
  assert.equal(r.status, 200, `${path}: ${body.toString().slice(0, 300)}`);
  return parseNpy(body);
}

/** Band `i` (0-based; the mask is the last) of a (bands, height, width) array. */
export function npyBand(a: Pick<Npy, 'shape' | 'data'>, i: number): number[] {
  const n = a.shape[1] * a.shape[2];
  return Array.from({ length: n }, (_, k) => a.data[i * n + k]);
}
