/** A Zarr store on S3 (the SigV4-checking stand-in): same values as local, missing keys as missing chunks. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openZarr } from '../../../src/formats/zarr/open-zarr.ts';
import { createSourceOpener, type ManagedSourceOpener } from '../../../src/sources/open-source.ts';
import { DEFAULT_SOURCE_OPTIONS } from '../../../src/sources/options.ts';
import { startS3Standin } from '../../helpers/s3-standin.ts';
import { EXPECTED, readAll, variableAt, ZARR_DIR } from './zarr-helpers.ts';

/** Every file under `dir` as store-relative key → bytes. */
function objects(dir: string, prefix: string): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, objects(p, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(p);
  }
  return out;
}

let s3: Awaited<ReturnType<typeof startS3Standin>>;
let sources: ManagedSourceOpener;
before(async () => {
  s3 = await startS3Standin({
    buckets: { data: { ...objects(path.join(ZARR_DIR, 'v3.zarr'), 'stores/v3.zarr/'), ...objects(path.join(ZARR_DIR, 'v2.zarr'), 'stores/v2.zarr/') } },
    accounts: [{ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' }],
    region: 'us-east-1',
  });
  sources = createSourceOpener({
    ...DEFAULT_SOURCE_OPTIONS,
    localRoots: [],
    allowPrivateHosts: true,
    retries: 0,
    s3: { region: 'us-east-1', endpoint: s3.url, accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' },
  });
});
after(async () => {
  await sources.close();
  await s3.close();
});

describe('Zarr on S3', () => {
  for (const store of ['v2.zarr', 'v3.zarr']) {
    it(`${store}: every value equals the local read`, async () => {
      const file = await openZarr(`s3://data/stores/${store}`, (loc, signal) => sources.open(loc, signal));
      for (const [p, ea] of Object.entries(EXPECTED[store]!.arrays)) {
        if (ea.values === null || ea.dtype.startsWith('<U')) continue;
        const got = await readAll(variableAt(file, p));
        assert.deepEqual(got.values, ea.values, p);
        if (p !== 'sharded') assert.deepEqual(got.missing.sort(), ea.missing, p);
      }
    });
  }
});
