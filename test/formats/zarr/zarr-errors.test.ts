/**
 * Broken Zarr stores (copies of the fixtures with one document or chunk spoiled): a RastileError
 * of a 4xx kind with a JSON-able body naming what is wrong, never a crash.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { isRastileError, type RastileErrorKind } from '../../../src/errors.ts';
import { openZarr } from '../../../src/formats/zarr/open-zarr.ts';
import { createSourceOpener } from '../../../src/sources/open-source.ts';
import { DEFAULT_SOURCE_OPTIONS } from '../../../src/sources/options.ts';
import { STATUS_BY_KIND } from '../../../src/http/error-status.ts';
import { variableAt, ZARR_DIR } from './zarr-helpers.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'rastile-zarr-'));
const sources = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [tmp], allowPrivateHosts: true, retries: 0, s3: { region: 'us-east-1' } });
const open = (loc: string) => sources.open(loc);
after(async () => {
  await sources.close();
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
/** A copy of a fixture store with `files` (store-relative path → content) written over it. */
function spoiled(store: string, files: Record<string, string | Uint8Array>): string {
  const dir = path.join(tmp, `${n++}-${store}`);
  cpSync(path.join(ZARR_DIR, store), dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

function check(kind: RastileErrorKind, pattern: RegExp) {
  return (err: unknown): boolean => {
    assert.ok(isRastileError(err), String(err));
    assert.equal(err.kind, kind, err.message);
    assert.match(err.message, pattern);
    assert.ok(STATUS_BY_KIND[err.kind] >= 400 && STATUS_BY_KIND[err.kind] < 600);
    JSON.parse(JSON.stringify({ detail: err.message, ...err.context }));
    return true;
  };
}

describe('broken Zarr stores', () => {
  it('.zmetadata that is not JSON', async () => {
    await assert.rejects(openZarr(spoiled('v2.zarr', { '.zmetadata': '{"metadata": {' }), open), check('InvalidFormat', /\.zmetadata is not valid JSON/));
  });
  it('.zmetadata that is not consolidated metadata', async () => {
    await assert.rejects(openZarr(spoiled('v2.zarr', { '.zmetadata': '{"metadata": 3}' }), open), check('InvalidFormat', /zarr_consolidated_format/));
  });
  it('a truncated zarr.json', async () => {
    await assert.rejects(
      openZarr(spoiled('v3.zarr', { 'zarr.json': '{"zarr_format": 3, "node_' }), open),
      check('InvalidFormat', /zarr\.json is not valid JSON/),
    );
  });
  it('zarr.json of another format or node type', async () => {
    await assert.rejects(openZarr(spoiled('v3.zarr', { 'zarr.json': '{"zarr_format": 2}' }), open), check('InvalidFormat', /zarr_format 2, expected 3/));
    await assert.rejects(
      openZarr(spoiled('v3.zarr', { 'zarr.json': '{"zarr_format": 3, "node_type": "tree"}' }), open),
      check('InvalidFormat', /node_type "tree"/),
    );
  });
  it('an array with an impossible chunk shape', async () => {
    const zarray = JSON.stringify({ zarr_format: 2, shape: [10], chunks: [0], dtype: '<f4', compressor: null, fill_value: 0, filters: null, order: 'C' });
    await assert.rejects(openZarr(spoiled('v2.zarr/sst', { '.zarray': zarray }), open), check('InvalidFormat', /invalid shape \[10\] or chunk shape \[0\]/));
  });
  it('an array with an unknown data type', async () => {
    const zarray = JSON.stringify({ zarr_format: 2, shape: [10], chunks: [5], dtype: '<x9', compressor: null, fill_value: 0, filters: null, order: 'C' });
    await assert.rejects(openZarr(spoiled('v2.zarr/sst', { '.zarray': zarray }), open), check('InvalidFormat', /Zarr array "\/sst" has metadata/));
  });
  it('a chunk that fails to inflate (zlib, v2)', async () => {
    const file = await openZarr(spoiled('v2.zarr', { 'sst/0.0.0': new Uint8Array([0x78, 0x9c, 1, 2, 3, 4, 5, 6]) }), open);
    const v = variableAt(file, 'sst');
    await assert.rejects(v.readChunk([0, 0, 0]), check('InvalidFormat', /Chunk \[0, 0, 0\] of Zarr variable "\/sst" failed to decode/));
    assert.equal((await v.readChunk([0, 0, 1]))?.length, 128);
  });
  it('a chunk that fails to decompress (blosc, zstd, gzip v3)', async () => {
    const junk = new Uint8Array(64).fill(0xab);
    const v2 = await openZarr(spoiled('v2.zarr', { 'blosc_be/0.0': junk, 'zstd_u16/0.0': junk }), open);
    await assert.rejects(variableAt(v2, 'blosc_be').readChunk([0, 0]), check('InvalidFormat', /blosc_be" failed to decode/));
    await assert.rejects(variableAt(v2, 'zstd_u16').readChunk([0, 0]), check('InvalidFormat', /zstd_u16" failed to decode/));
    const v3 = await openZarr(spoiled('v3.zarr', { 'temp/c/0/0/0': junk }), open);
    await assert.rejects(variableAt(v3, 'temp').readChunk([0, 0, 0]), check('InvalidFormat', /temp" failed to decode/));
  });
  it('a chunk that decodes to the wrong size', async () => {
    const file = await openZarr(spoiled('v2.zarr', { 'lat/0': new Uint8Array(24) }), open);
    await assert.rejects(variableAt(file, 'lat').readChunk([0]), (err: unknown) => isRastileError(err, 'InvalidFormat'));
  });
  it('a corrupt shard index', async () => {
    const file = await openZarr(spoiled('v3.zarr', { 'sharded/c/0/0': new Uint8Array(40).fill(7) }), open);
    await assert.rejects(variableAt(file, 'sharded').readChunk([0, 0]), check('InvalidFormat', /sharded/));
  });
  it('a v3 codec we do not have', async () => {
    const meta = {
      zarr_format: 3,
      node_type: 'array',
      shape: [4],
      data_type: 'float32',
      chunk_grid: { name: 'regular', configuration: { chunk_shape: [4] } },
      chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
      fill_value: 0,
      codecs: [{ name: 'bytes', configuration: { endian: 'little' } }, { name: 'fancy_zip' }],
    };
    const file = await openZarr(spoiled('v3.zarr/dotkeys', { 'zarr.json': JSON.stringify(meta), 'c/0': new Uint8Array(16) }), open);
    await assert.rejects(file.root.variables.get('dotkeys')!.readChunk([0]), check('UnsupportedFeature', /codec "fancy_zip"/));
  });
  it('mangled .zarray fields: a RastileError at open or read, never a crash', async () => {
    const base = {
      zarr_format: 2,
      shape: [3, 20, 30],
      chunks: [1, 8, 16],
      dtype: '<f4',
      compressor: { id: 'zlib', level: 4 },
      fill_value: 'NaN',
      filters: null,
      order: 'C',
    };
    const changes: Record<string, unknown>[] = [
      { shape: 'abc' },
      { shape: [3, 20] },
      { chunks: null },
      { chunks: [1, 8, -16] },
      { chunks: [1.5, 8, 16] },
      { dtype: 5 },
      { dtype: '<f3' },
      { order: 'X' },
      { filters: 'zlib' },
      { filters: [{ id: 'nonesuch' }] },
      { compressor: { id: 7 } },
      { compressor: 'zlib' },
      { fill_value: { a: 1 } },
      { zarr_format: 3 },
      { dimension_separator: 7 },
    ];
    for (const change of changes) {
      const dir = spoiled('v2.zarr/sst', { '.zarray': JSON.stringify({ ...base, ...change }) });
      try {
        const file = await openZarr(dir, open);
        const v = file.root.variables.get(path.basename(dir).replace(/\.zarr$/, ''))!;
        await v.readChunk(v.shape.map(() => 0)).catch((err: unknown) => assert.ok(isRastileError(err), `${JSON.stringify(change)}: ${String(err)}`));
      } catch (err) {
        assert.ok(isRastileError(err), `${JSON.stringify(change)}: ${String(err)}`);
      }
    }
  });
  it('mangled zarr.json fields: a RastileError at open or read, never a crash (nor an unhandled rejection)', async () => {
    const base = JSON.parse(readFileSync(path.join(ZARR_DIR, 'v3.zarr/temp/zarr.json'), 'utf8')) as Record<string, unknown>;
    const shard = JSON.parse(readFileSync(path.join(ZARR_DIR, 'v3.zarr/sharded/zarr.json'), 'utf8')) as {
      codecs: [{ configuration: Record<string, unknown> }];
    };
    const changes: Record<string, unknown>[] = [
      { codecs: 'gzip' },
      { codecs: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
      { codecs: [{ name: 'bytes' }, 'gzip'] },
      { codecs: [{ name: 'sharding_indexed', configuration: { ...shard.codecs[0].configuration, codecs: [{ name: 'x' }, { name: 'y' }] } }] },
      { codecs: [{ name: 'sharding_indexed', configuration: { ...shard.codecs[0].configuration, index_codecs: [{ name: 'x' }, { name: 'y' }] } }] },
      { data_type: 'complex128' },
      { chunk_grid: { name: 'rectilinear' } },
      { chunk_key_encoding: { name: 'v9' } },
      { shape: [-4, 10, 12] },
      { fill_value: [1, 2] },
    ];
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown): void => void unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const change of changes) {
        const dir = spoiled('v3.zarr/temp', { 'zarr.json': JSON.stringify({ ...base, ...change }) });
        try {
          const file = await openZarr(dir, open);
          const v = file.root.variables.get('temp')!;
          await v.readChunk(v.shape.map(() => 0)).catch((err: unknown) => assert.ok(isRastileError(err), `${JSON.stringify(change)}: ${String(err)}`));
        } catch (err) {
          assert.ok(isRastileError(err), `${JSON.stringify(change)}: ${String(err)}`);
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled.map(String), []);
  });
});
