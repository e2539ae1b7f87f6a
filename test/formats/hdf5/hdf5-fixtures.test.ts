/**
 * The HDF5 reader against h5py / netCDF4-python: every variable's metadata, attributes and all
 * values of the files scripts/fixtures/make-hdf5-fixtures.py writes (earliest and latest
 * layouts, every chunk index, filters, fill values, dense attributes and links, netCDF-4).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openHdf5 } from '../../../src/formats/hdf5/open-hdf5.ts';
import { isRastileError } from '../../../src/errors.ts';
import { fileSource } from '../file-source.ts';
import { allGroups, allVariables, readAll } from './read-all.ts';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');

interface ExpectedVariable {
  shape: number[];
  dtype: string;
  /** netCDF4-python's names; null when it cannot open the file. */
  dims: string[] | null;
  chunks: number[] | null;
  fill?: number | null;
  filters?: string[];
  attrs: Record<string, unknown>;
  values?: number[];
}
interface ExpectedFile {
  driver: string;
  groups: Record<string, { attrs: Record<string, unknown> }>;
  variables: Record<string, ExpectedVariable>;
}

const expected = JSON.parse(readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<string, ExpectedFile>;

const modelDType = (d: string): string =>
  d
    .replace(/^int(\d+)$/, 'int$1')
    .replace(/^uint(\d+)$/, 'uint$1')
    .replace(/^float(\d+)$/, 'float$1');

for (const [name, exp] of Object.entries(expected)) {
  describe(`HDF5 fixture ${name}`, () => {
    it('has the driver, groups and group attributes h5py/netCDF4 see', async () => {
      const file = await openHdf5(await fileSource(path.join(DIR, name)));
      assert.equal(file.driver, exp.driver);
      const groups = allGroups(file);
      assert.deepEqual([...groups.keys()].sort(), Object.keys(exp.groups).sort());
      for (const [p, g] of Object.entries(exp.groups)) assert.deepEqual({ ...groups.get(p)!.attrs }, g.attrs, `attributes of group ${p}`);
    });

    it('has every variable with its shape, dims, type, chunks, fill value, filters and attributes', async () => {
      const file = await openHdf5(await fileSource(path.join(DIR, name)));
      const vars = allVariables(file);
      assert.deepEqual([...vars.keys()].sort(), Object.keys(exp.variables).sort());
      for (const [p, e] of Object.entries(exp.variables)) {
        const v = vars.get(p)!;
        assert.deepEqual(v.shape, e.shape, `${p} shape`);
        if (e.dims !== null) assert.deepEqual(v.dims, e.dims, `${p} dims`);
        assert.equal(v.dtype, modelDType(e.dtype), `${p} dtype`);
        if (e.chunks !== null) assert.deepEqual(v.chunkShape, e.chunks, `${p} chunks`);
        if (e.fill !== undefined) assert.equal(v.fillValue, e.fill, `${p} fill value`);
        if (e.filters !== undefined) assert.deepEqual(v.filters, e.filters, `${p} filters`);
        assert.deepEqual({ ...v.attrs }, e.attrs, `${p} attributes`);
      }
    });

    it('reads every value of every numeric variable as h5py does', async () => {
      const file = await openHdf5(await fileSource(path.join(DIR, name)));
      const vars = allVariables(file);
      for (const [p, e] of Object.entries(exp.variables)) {
        if (e.values === undefined) continue;
        assert.deepEqual(await readAll(vars.get(p)!), e.values, `${p} values`);
      }
    });
  });
}

describe('HDF5 contiguous and compact datasets in small virtual chunks', () => {
  for (const bytes of [8, 100, 256, 1000]) {
    it(`reads the same values in virtual chunks of ${bytes} bytes`, async () => {
      const file = await openHdf5(await fileSource(path.join(DIR, 'earliest.h5')), undefined, { virtualChunkBytes: bytes });
      const vars = allVariables(file);
      for (const p of ['/contiguous_f4', '/compact_i2', '/i8', '/scalar_f8']) {
        const v = vars.get(p)!;
        const size = { float32: 4, int16: 2, int64: 8, float64: 8 }[v.dtype as string]!;
        assert.ok(v.chunkShape.reduce((a, b) => a * b, size) <= Math.max(bytes, size), `${p} chunks ${v.chunkShape.join('×')}`);
        assert.deepEqual(await readAll(v), expected['earliest.h5'].variables[p].values, `${p} values`);
      }
    });
  }
});

describe('HDF5 reads that fail clearly', () => {
  it('names a filter it cannot decode (400 on read, not on open)', async () => {
    const file = await openHdf5(await fileSource(path.join(DIR, 'unsupported.h5')));
    const v = allVariables(file).get('/lzf')!;
    assert.deepEqual(v.filters, ['lzf']);
    await assert.rejects(
      v.readChunk([0, 0]),
      (err) => isRastileError(err, 'UnsupportedFeature') && /'lzf'/.test(err.message) && err.context?.variable === '/lzf',
    );
  });

  it('refuses to read strings, compounds and enums as numbers', async () => {
    const file = await openHdf5(await fileSource(path.join(DIR, 'latest.h5')));
    const vars = allVariables(file);
    assert.equal(vars.get('/enum')!.dtype, 'other');
    assert.equal(vars.get('/vlen_strings')!.dtype, 'string');
    await assert.rejects(vars.get('/compound')!.readChunk([0]), (err) => isRastileError(err, 'BadRequest') && /compound/.test(err.message));
  });

  it('rejects chunk coordinates outside the grid', async () => {
    const file = await openHdf5(await fileSource(path.join(DIR, 'latest.h5')));
    const v = allVariables(file).get('/fixed_array')!;
    await assert.rejects(v.readChunk([4, 0]), (err) => isRastileError(err, 'BadRequest'));
    await assert.rejects(v.readChunk([0]), (err) => isRastileError(err, 'BadRequest'));
  });
});
