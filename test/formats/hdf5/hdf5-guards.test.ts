/** Memory budget, abort signals and checksum verification of HDF5 chunk reads. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { openHdf5 } from '../../../src/formats/hdf5/open-hdf5.ts';
import type { Source } from '../../../src/sources/source.ts';
import { RequestBudget, runWithBudget } from '../../../src/util/request-budget.ts';
import { fileSource } from '../file-source.ts';
import { allVariables } from './read-all.ts';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');

describe('HDF5 chunk reads: guards', () => {
  it('charges chunk buffers to the request budget: a chunk over it is a clear 400', async () => {
    const v = allVariables(await openHdf5(await fileSource(path.join(DIR, 'latest.h5')))).get('/fixed_array')!;
    await assert.rejects(
      runWithBudget(new RequestBudget(32), () => v.readChunk([0, 0])),
      (err) => isRastileError(err, 'MaxSizeExceeded') && /fixed_array/.test(err.message),
    );
    const budget = new RequestBudget(1 << 20);
    const chunk = await runWithBudget(budget, () => v.readChunk([0, 0]));
    assert.equal(chunk?.length, 16);
    assert.ok(budget.peak >= 64, 'the decoded chunk was charged');
  });

  it('honours an aborted signal on open and on chunk reads', async () => {
    const src = await fileSource(path.join(DIR, 'latest.h5'));
    const ac = new AbortController();
    ac.abort(new Error('client went away'));
    await assert.rejects(openHdf5(src, ac.signal), /client went away/);
    const v = allVariables(await openHdf5(src)).get('/btree2')!;
    await assert.rejects(v.readChunk([1, 1], ac.signal), /client went away/);
  });

  it('verifies Fletcher-32: a damaged chunk is an InvalidFormat naming the variable', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(DIR, 'latest.h5')));
    const good = allVariables(await openHdf5(await fileSource(path.join(DIR, 'latest.h5')))).get('/fixed_array')!;
    // find the stored chunk [0, 0] by the bytes its read fetches
    let chunkAt = -1;
    let chunkLen = 0;
    const spy: Source = {
      url: 'spy',
      size: bytes.length,
      fetch: (o, l) => {
        chunkAt = o;
        chunkLen = l;
        return Promise.resolve(bytes.slice(o, o + l));
      },
    };
    const probe = allVariables(await openHdf5(spy)).get('/fixed_array')!;
    await probe.readChunk([0, 0]);
    assert.ok(chunkAt > 0 && chunkLen > 4);
    const damaged = bytes.slice();
    damaged[chunkAt + 2] ^= 0xff;
    const src: Source = { url: 'damaged', size: damaged.length, fetch: (o, l) => Promise.resolve(damaged.slice(o, o + l)) };
    const v = allVariables(await openHdf5(src)).get('/fixed_array')!;
    await assert.rejects(
      v.readChunk([0, 0]),
      (err) => isRastileError(err, 'InvalidFormat') && /Fletcher-32/.test(err.message) && err.context?.variable === '/fixed_array',
    );
    assert.ok(await good.readChunk([0, 0]));
  });
});
