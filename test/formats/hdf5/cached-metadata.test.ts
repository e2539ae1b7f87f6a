/**
 * The metadata page cache's synchronous reads (FileContext.bytesNow, object headers parsed from
 * cached pages, `once` with a synchronous answer): the same file opened from a 4 KiB head (most
 * headers missing: loaded, then parsed again) and from a head holding the whole file (every header
 * parsed without a read) gives the same groups, variables, attributes and values.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ArrayVariable } from '../../../src/formats/array/array-model.ts';
import { FileContext, PAGE } from '../../../src/formats/hdf5/file-context.ts';
import { openHdf5 } from '../../../src/formats/hdf5/open-hdf5.ts';
import { fileSource } from '../file-source.ts';
import { allGroups, allVariables, readAll } from './read-all.ts';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');

/** The values, or the message of the error reading them (strings, compounds). */
const values = (v: ArrayVariable): Promise<unknown> => readAll(v).catch((err: Error) => err.message);

const describeVariable = (v: ArrayVariable): unknown => ({
  shape: v.shape,
  chunks: v.chunkShape,
  dims: v.dims,
  dtype: v.dtype,
  attrs: v.attrs,
  fill: v.fillValue,
});

describe('HDF5 metadata from cached pages', () => {
  for (const name of ['earliest.h5', 'latest.h5', 'netcdf4.nc']) {
    it(`${name}: a 4 KiB head (headers loaded on a miss) opens the same as a whole-file head`, async () => {
      const small = await fileSource(path.join(DIR, name));
      const whole = await fileSource(path.join(DIR, name));
      const a = await openHdf5(small, undefined, { headBytes: 4096 });
      const b = await openHdf5(whole, undefined, { headBytes: 1 << 20 });
      assert.equal(whole.reads, 1, 'every header parsed from the head');
      assert.ok(small.reads > 1, 'headers past the head were loaded');
      const va = allVariables(a);
      const vb = allVariables(b);
      assert.deepEqual([...va.keys()].sort(), [...vb.keys()].sort());
      assert.ok(va.size > 0);
      for (const [p, v] of vb) {
        assert.deepEqual(describeVariable(va.get(p)!), describeVariable(v), p);
        if (v.shape.reduce((x, y) => x * y, 1) <= 4096) assert.deepEqual(await values(va.get(p)!), await values(v), p);
      }
      const ga = allGroups(a);
      for (const [p, g] of allGroups(b)) assert.deepEqual(ga.get(p)!.attrs, g.attrs, p);
    });
  }

  it('bytesNow answers only from cached pages; read loads them; once memoises a synchronous answer', async () => {
    const src = await fileSource(path.join(DIR, 'latest.h5'));
    const ctx = new FileContext(src, src.size!);
    const head = await src.fetch(0, 2 * PAGE);
    ctx.seed(head);
    assert.deepEqual(ctx.bytesNow(100, 50, 't'), head.subarray(100, 150));
    assert.deepEqual(ctx.bytesNow(PAGE - 10, 20, 't'), head.subarray(PAGE - 10, PAGE + 10)); // across two pages
    assert.equal(ctx.bytesNow(2 * PAGE + 5, 10, 't'), undefined);
    assert.equal(src.reads, 1, 'a miss fetches nothing');
    const loaded = await ctx.read(2 * PAGE + 5, 10, 't');
    assert.equal(src.reads, 2);
    assert.deepEqual(ctx.bytesNow(2 * PAGE + 5, 10, 't'), loaded);
    assert.throws(() => ctx.bytesNow(src.size! - 4, 100, 't'), /outside the file/);
    let made = 0;
    const one = await ctx.once('k', () => ++made);
    assert.equal(await ctx.once('k', () => ++made), one);
    assert.equal(made, 1);
    await assert.rejects(
      ctx.once('bad', () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await ctx.once('bad', () => 7), 7, 'a failure is not memoised');
  });
});
