/**
 * Zarr v2 (written by zarr-python 2.13) and v3 (written by hand: bytes/gzip/zstd/transpose/
 * sharding) read through the real source opener: every attribute and value against
 * scripts/fixtures/zarr_stores.py's expectations.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { localZarrLister } from '../../../src/formats/zarr/local-listing.ts';
import { openZarr, probeZarr } from '../../../src/formats/zarr/open-zarr.ts';
import { isZarrLocation, resolveStoreKey, trimStoreSlash, zarrStoreRoot } from '../../../src/formats/zarr/store-keys.ts';
import { createSourceOpener } from '../../../src/sources/open-source.ts';
import { DEFAULT_SOURCE_OPTIONS } from '../../../src/sources/options.ts';
import { EXPECTED, readAll, variableAt, variablePaths, ZARR_DIR } from './zarr-helpers.ts';

const sources = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [ZARR_DIR], allowPrivateHosts: true, retries: 0, s3: { region: 'us-east-1' } });
const open = (loc: string) => sources.open(loc);
const list = localZarrLister([ZARR_DIR]);
after(() => sources.close());

const DTYPES: Record<string, string> = {
  '<i8': 'int64',
  '>i2': 'int16',
  '<i4': 'int32',
  '|b1': 'uint8',
  '<f8': 'float64',
  '<f4': 'float32',
  '<i2': 'int16',
  '<U3': 'string',
  '<u2': 'uint16',
  '<f2': 'float32', // float16 is read as float32
  '>f2': 'float32',
  float16: 'float32',
  '<c8': 'other', // complex: listed, a 400 when read
  complex64: 'other',
};

for (const [store, exp] of Object.entries(EXPECTED)) {
  describe(`Zarr ${store}`, () => {
    it('lists the hierarchy, attributes and every value', async () => {
      const file = await openZarr(path.join(ZARR_DIR, store), open, undefined, { list });
      assert.equal(file.driver, 'Zarr');
      assert.match(file.version, /^f:/);
      assert.deepEqual(file.root.attrs, exp.attrs);
      assert.deepEqual(variablePaths(file.root).sort(), Object.keys(exp.arrays).sort());
      for (const [p, ea] of Object.entries(exp.arrays)) {
        const v = variableAt(file, p);
        assert.equal(v.path, `/${p}`);
        assert.deepEqual(v.shape, ea.shape, p);
        assert.deepEqual(v.chunkShape, ea.chunks, p);
        assert.equal(v.dtype, DTYPES[ea.dtype] ?? ea.dtype, p);
        assert.deepEqual(v.attrs, Object.fromEntries(Object.entries(ea.attrs).map(([k, x]) => [k, x === null ? NaN : x])), p);
        if (ea.dims !== null) assert.deepEqual(v.dims, ea.dims, p);
        else assert.ok(v.dims.every((d) => d.startsWith('phony_dim_')));
        if (ea.fill_value === null) assert.ok(v.fillValue === null || Number.isNaN(v.fillValue), p);
        else assert.equal(v.fillValue, Number(ea.fill_value), p);
        if (v.dtype === 'string') {
          await assert.rejects(v.readChunk([0]), { kind: 'BadRequest' });
          continue;
        }
        if (v.dtype === 'other') {
          assert.equal(v.storedType, 'complex64');
          await assert.rejects(
            v.readChunk([0, 0]),
            (err: Error & { kind?: string }) => err.kind === 'BadRequest' && /"\/cplx" has data type complex64/.test(err.message),
          );
          continue;
        }
        if (ea.values === null) {
          await assert.rejects(v.readChunk([0]), (err: Error & { kind?: string }) => err.kind === 'UnsupportedFeature' && /codec "lzma"/.test(err.message));
          continue;
        }
        const got = await readAll(v);
        assert.deepEqual(got.values, ea.values, p);
        if (p !== 'sharded') assert.deepEqual(got.missing.sort(), ea.missing, p);
      }
    });
  });
}

describe('Zarr details', () => {
  it('group attributes, filters and the sub-group', async () => {
    const file = await openZarr(path.join(ZARR_DIR, 'v2.zarr'), open);
    assert.deepEqual(file.root.groups.get('sub')!.attrs, { description: 'a sub-group' });
    assert.deepEqual(variableAt(file, 'blosc_be').filters, ['blosc']);
    assert.deepEqual(variableAt(file, 'delta').filters, ['delta', 'zlib']);
    assert.deepEqual(variableAt(file, 'lat').filters, []);
    const v3 = await openZarr(path.join(ZARR_DIR, 'v3.zarr'), open);
    assert.deepEqual(variableAt(v3, 'sharded').filters, ['sharding_indexed', 'gzip']);
    assert.deepEqual(variableAt(v3, 'transposed').filters, ['transpose']);
    assert.deepEqual(v3.root.groups.get('grp')!.attrs, { kind: 'sub-group' });
  });

  it('a sharded array: a missing shard reads as null, an empty inner chunk as the fill value', async () => {
    const v = variableAt(await openZarr(path.join(ZARR_DIR, 'v3.zarr'), open), 'sharded');
    assert.equal(await v.readChunk([0, 2]), null);
    assert.deepEqual([...(await v.readChunk([1, 1]))!], new Array(15).fill(11));
  });

  it('unconsolidated stores need a listing', async () => {
    await assert.rejects(openZarr(path.join(ZARR_DIR, 'v2_plain.zarr'), open), { kind: 'BadRequest', message: /no consolidated metadata/ });
    await assert.rejects(openZarr(path.join(ZARR_DIR, 'v3_plain.zarr'), open), { kind: 'BadRequest', message: /consolidated_metadata/ });
  });

  it('probes and names', async () => {
    assert.equal(await probeZarr(path.join(ZARR_DIR, 'v2.zarr'), open), 2);
    assert.equal(await probeZarr(path.join(ZARR_DIR, 'v2_plain.zarr'), open), 2);
    assert.equal(await probeZarr(path.join(ZARR_DIR, 'v3.zarr'), open), 3);
    assert.equal(await probeZarr(path.join(ZARR_DIR, 'v2.zarr/sst'), open), 2);
    assert.equal(await probeZarr(ZARR_DIR, open), null);
    await assert.rejects(openZarr(ZARR_DIR, open), { kind: 'SourceNotFound' });
    assert.equal(isZarrLocation('s3://b/x/store.zarr'), true);
    assert.equal(isZarrLocation('https://h/a.zarr/?x=1'), true);
    assert.equal(isZarrLocation('/data/file.nc'), false);
    assert.equal(resolveStoreKey('https://h/a b.zarr?sig=1', '/x y/.zarray'), 'https://h/a b.zarr/x%20y/.zarray?sig=1');
    assert.equal(resolveStoreKey('s3://b/k.zarr/', '/c/0/1'), 's3://b/k.zarr/c/0/1');
    // A presigned store: the root keeps its query, keys go on the path part.
    assert.equal(zarrStoreRoot('https://h/s.zarr/?X-Amz-Signature=a%2Fb&t=1'), 'https://h/s.zarr?X-Amz-Signature=a%2Fb&t=1');
    assert.equal(zarrStoreRoot('https://h/s.zarr/.zmetadata?token=x'), 'https://h/s.zarr?token=x');
    assert.equal(zarrStoreRoot('/data/s.zarr/zarr.json'), '/data/s.zarr');
    assert.equal(zarrStoreRoot('https://h/file.nc?x=.zarr'), null);
    assert.equal(trimStoreSlash('https://h/store/?token=x'), 'https://h/store?token=x');
    assert.equal(resolveStoreKey(zarrStoreRoot('https://h/s.zarr?token=x')!, '/.zmetadata'), 'https://h/s.zarr/.zmetadata?token=x');
  });

  it('an array store on its own is a file with one variable', async () => {
    const file = await openZarr(path.join(ZARR_DIR, 'v2.zarr/sst'), open);
    const v = file.root.variables.get('sst')!;
    assert.deepEqual(v.dims, ['time', 'lat', 'lon']);
    assert.deepEqual((await readAll(v)).values, EXPECTED['v2.zarr']!.arrays['sst']!.values);
    const v3 = await openZarr(path.join(ZARR_DIR, 'v3.zarr/transposed'), open);
    assert.deepEqual((await readAll(v3.root.variables.get('transposed')!)).values, EXPECTED['v3.zarr']!.arrays['transposed']!.values);
  });
  it('an aborted read rejects with the reason of the signal', async () => {
    const v = variableAt(await openZarr(path.join(ZARR_DIR, 'v2.zarr'), open), 'sst');
    const ac = new AbortController();
    ac.abort(new Error('client went away'));
    await assert.rejects(v.readChunk([0, 0, 0], ac.signal), /client went away/);
  });
});
