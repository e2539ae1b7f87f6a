/**
 * float16 and complex variables on /zarr: float16 (HDF5 16-bit floats, Zarr v2 `<f2`/`>f2`, Zarr
 * v3 "float16") reads as float32 holding the exact half values (numpy's astype('f4'), as h5py
 * and zarr-python read them: test/fixtures/{hdf5,zarr}/expected.json); complex variables are
 * listed with their numpy dtype and reading one is a 400 naming the variable and the dtype.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const h5 = JSON.parse(readFileSync(fixture('hdf5', 'expected.json'), 'utf8')) as Record<string, { variables: Record<string, { values: number[] }> }>;
const zarrs = JSON.parse(readFileSync(fixture('zarr', 'expected.json'), 'utf8')) as Record<
  string,
  { arrays: Record<string, { values: Array<number | null> }> }
>;

const STORES: Array<[string, string, (name: string) => Array<number | null>]> = [
  ['HDF5', fixture('hdf5', 'dtypes.h5'), (n) => h5['dtypes.h5']!.variables[`/${n}`]!.values],
  ['Zarr v2', fixture('zarr', 'dtypes.zarr'), (n) => zarrs['dtypes.zarr']!.arrays[n]!.values],
  ['Zarr v3', fixture('zarr', 'dtypes_v3.zarr'), (n) => zarrs['dtypes_v3.zarr']!.arrays[n]!.values],
];

describe('float16 and complex variables', () => {
  for (const [kind, file, values] of STORES) {
    it(`${kind}: float16 points equal the oracle's float32 values; complex is a 400 naming it`, async () => {
      // lat 45 → -45 (6 rows), lon -157.5 → 157.5 (8 columns): pixel (row, col) is at (-157.5 + 45 col, 45 - 18 row).
      for (const [row, col] of [
        [0, 0],
        [0, 2],
        [2, 3],
        [5, 7],
      ] as const) {
        const r = await server.getJson<{ values: Array<number | null> }>(`/zarr/point/${-157.5 + 45 * col},${45 - 18 * row}?url=${q(file)}&variable=half`);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const stored = values('half')[row * 8 + col];
        // xarray takes a Zarr array's fill_value as its _FillValue: the unwritten chunk (-1.5) is masked.
        const want = kind === 'Zarr v2' && stored === -1.5 ? null : stored;
        if (want === null || Number.isNaN(want)) assert.equal(r.body.values[0], null, `(${row}, ${col}) is masked`);
        else assert.equal(r.body.values[0], want, `(${row}, ${col})`);
      }
      const info = await server.getJson<{ dtype: string }>(`/zarr/info?url=${q(file)}&variable=half`);
      assert.equal(info.body.dtype, 'float32');
      const bad = await server.getJson<{ detail: string }>(`/zarr/info?url=${q(file)}&variable=cplx`);
      assert.equal(bad.status, 400);
      assert.match(bad.body.detail, /Variable 'cplx' holds complex numbers \(complex64\)/);
      if (kind !== 'Zarr v3') {
        const dict = await server.getJson<{ data_vars: Record<string, { dtype: string }> }>(`/zarr/dataset/dict?url=${q(file)}`);
        assert.equal(dict.body.data_vars['half']!.dtype, 'float16');
        assert.equal(dict.body.data_vars['cplx']!.dtype, 'complex64');
      }
    });
  }

  it('HDF5 big-endian float16 (contiguous) and complex128', async () => {
    const file = fixture('hdf5', 'dtypes.h5');
    const r = await server.getJson<{ values: number[] }>(`/zarr/point/-157.5,45?url=${q(file)}&variable=half_be`);
    assert.equal(r.body.values[0], h5['dtypes.h5']!.variables['/half_be']!.values[0]);
    const bad = await server.getJson<{ detail: string }>(`/zarr/info?url=${q(file)}&variable=cplx128`);
    assert.match(bad.body.detail, /'cplx128' holds complex numbers \(complex128\)/);
  });
});
