/**
 * NetCDF-3 reader against netCDF4-python: every dimension, attribute and value of the files
 * scripts/fixtures/netcdf3.py writes (classic, 64-bit offset, CDF-5, a packed single record variable).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { TypedArray } from '../../../src/dtype.ts';
import type { ArrayVariable } from '../../../src/formats/array/array-model.ts';
import { isNetcdf3Signature, openNetcdf3 } from '../../../src/formats/netcdf3/open-netcdf3.ts';
import { virtualChunkShape } from '../../../src/formats/netcdf3/virtual-chunks.ts';
import { fileSource } from '../file-source.ts';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/netcdf3');
interface ExpectedVar {
  dims: string[];
  shape: number[];
  dtype: string;
  attrs: Record<string, unknown>;
  values: (number | string)[];
}
interface ExpectedFile {
  dims: Record<string, number>;
  attrs: Record<string, unknown>;
  variables: Record<string, ExpectedVar>;
}
const EXPECTED = JSON.parse(readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<string, ExpectedFile>;
const DTYPES: Record<string, string> = {
  int8: 'int8',
  int16: 'int16',
  int32: 'int32',
  float32: 'float32',
  float64: 'float64',
  uint8: 'uint8',
  uint16: 'uint16',
  uint32: 'uint32',
  int64: 'int64',
  uint64: 'uint64',
  '|S1': 'string',
};

/** Reads a whole variable through readChunk into a row-major number array. */
export async function readAll(v: ArrayVariable): Promise<number[]> {
  const total = v.shape.reduce((a, b) => a * b, 1);
  const out = new Array<number>(total).fill(NaN);
  const grid = v.shape.map((s, k) => Math.ceil(s / v.chunkShape[k]!));
  const coords = grid.map(() => 0);
  if (total === 0) return out;
  for (;;) {
    const chunk = (await v.readChunk(coords)) as TypedArray;
    assert.equal(
      chunk.length,
      v.chunkShape.reduce((a, b) => a * b, 1),
    );
    const inChunk = v.chunkShape.map(() => 0);
    for (let i = 0; i < chunk.length; i++) {
      let idx = 0;
      let inside = true;
      for (let k = 0; k < v.shape.length; k++) {
        const g = coords[k]! * v.chunkShape[k]! + inChunk[k]!;
        if (g >= v.shape[k]!) inside = false;
        idx = idx * v.shape[k]! + g;
      }
      if (inside) out[idx] = chunk[i]!;
      for (let k = v.shape.length - 1; k >= 0; k--) {
        if (++inChunk[k]! < v.chunkShape[k]!) break;
        inChunk[k] = 0;
      }
    }
    let k = grid.length - 1;
    for (; k >= 0; k--) {
      if (++coords[k]! < grid[k]!) break;
      coords[k] = 0;
    }
    if (k < 0) return out;
  }
}

for (const [file, exp] of Object.entries(EXPECTED)) {
  describe(`NetCDF-3 ${file}`, () => {
    for (const chunkBytes of [undefined, 16]) {
      it(`matches netCDF4 (${chunkBytes === undefined ? 'default' : `${chunkBytes}-byte`} virtual chunks)`, async () => {
        const src = await fileSource(path.join(DIR, file));
        const nc = await openNetcdf3(src, undefined, chunkBytes === undefined ? {} : { chunkBytes });
        assert.equal(nc.driver, 'netCDF');
        assert.deepEqual(nc.root.attrs, exp.attrs);
        assert.deepEqual([...nc.root.variables.keys()], Object.keys(exp.variables));
        for (const [name, ev] of Object.entries(exp.variables)) {
          const v = nc.root.variables.get(name)!;
          assert.equal(v.path, `/${name}`);
          assert.deepEqual(v.dims, ev.dims, name);
          assert.deepEqual(v.shape, ev.shape, name);
          assert.equal(v.dtype, DTYPES[ev.dtype], name);
          assert.deepEqual(v.attrs, ev.attrs, name);
          if (v.dtype === 'string') {
            await assert.rejects(v.readChunk(v.shape.map(() => 0)), { kind: 'BadRequest' });
            continue;
          }
          assert.deepEqual(await readAll(v), ev.values, name);
        }
      });
    }
  });
}

describe('NetCDF-3 details', () => {
  it('recognises the signatures', () => {
    for (const v of [1, 2, 5]) assert.equal(isNetcdf3Signature(new Uint8Array([0x43, 0x44, 0x46, v])), true);
    assert.equal(isNetcdf3Signature(new Uint8Array([0x43, 0x44, 0x46, 3])), false);
    assert.equal(isNetcdf3Signature(new Uint8Array([0x89, 0x48, 0x44, 0x46])), false);
  });

  it('fill values: _FillValue, else the NetCDF default of the type', async () => {
    const nc = await openNetcdf3(await fileSource(path.join(DIR, 'cdf5.nc')));
    const fill = (n: string): number | null => nc.root.variables.get(n)!.fillValue;
    assert.equal(fill('sst'), -999);
    assert.equal(fill('flag'), -127);
    assert.equal(fill('count'), -2147483647);
    assert.equal(fill('precip'), Math.fround(9.969209968386869e36));
    assert.equal(fill('height'), 9.969209968386869e36);
    assert.equal(fill('u8'), 255);
    assert.equal(fill('u16'), 65535);
    assert.equal(fill('u32'), 4294967295);
    assert.equal(fill('station'), null);
  });

  it('virtual chunks stay near 1 MiB and keep the record axis at 1', () => {
    assert.deepEqual(virtualChunkShape([10, 3600, 7200], 4, 1), [1, 36, 7200]);
    assert.deepEqual(virtualChunkShape([3600, 7200], 2), [72, 7200]);
    assert.deepEqual(virtualChunkShape([100, 200], 8), [100, 200]);
    assert.deepEqual(virtualChunkShape([5, 1_000_000], 8), [1, 131072]);
    assert.deepEqual(virtualChunkShape([0, 4], 4, 1), [1, 4]);
    assert.deepEqual(virtualChunkShape([], 4), []);
  });

  it('reads only the chunk asked for', async () => {
    const src = await fileSource(path.join(DIR, 'classic.nc'));
    const nc = await openNetcdf3(src, undefined, { chunkBytes: 28 });
    const v = nc.root.variables.get('precip')!;
    assert.deepEqual(v.chunkShape, [1, 1, 7]);
    const before = src.bytesRead;
    await v.readChunk([2, 3, 0]);
    assert.equal(src.bytesRead - before, 28);
  });
  it('an aborted read rejects with the reason of the signal', async () => {
    const nc = await openNetcdf3(await fileSource(path.join(DIR, 'classic.nc')));
    const ac = new AbortController();
    ac.abort(new Error('client went away'));
    await assert.rejects(nc.root.variables.get('sst')!.readChunk([0, 0, 0], ac.signal), /client went away/);
  });
});
