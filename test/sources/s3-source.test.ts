import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isRastileError, type RastileErrorKind } from '../../src/errors.ts';
import { createSourceOpener } from '../../src/sources/open-source.ts';
import { sourceOptionsFromEnv, type S3Options, type SourceOptions } from '../../src/sources/options.ts';
import { startS3Standin, type S3Standin } from '../helpers/s3-standin.ts';
import { patternBytes } from './fixture-files.ts';

const big = patternBytes(150_000, 11);
const small = patternBytes(3_000, 12);
const ODD_KEY = "dir/odd key+(1)!*'~ü=&$@,;.tif";

function options(s3: Partial<S3Options>, extra: Partial<SourceOptions> = {}): SourceOptions {
  return { ...sourceOptionsFromEnv({}), retryBaseDelayMs: 1, s3: { region: 'us-east-1', ...s3 }, ...extra };
}

async function kindOf(p: Promise<unknown>): Promise<RastileErrorKind | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (isRastileError(err)) return err.kind;
    throw err;
  }
}

describe('S3 sources against a SigV4-verifying stand-in', () => {
  let s3: S3Standin;
  let publicS3: S3Standin;
  const creds = { accessKeyId: 'AKIDGOOD', secretAccessKey: 'good/secret+key' };

  before(async () => {
    s3 = await startS3Standin({
      buckets: { bkt: { 'cogs/a.tif': big, 'small.tif': small, [ODD_KEY]: small } },
      accounts: [creds, { accessKeyId: 'AKIDTEMP', secretAccessKey: 'temp-secret', sessionToken: 'SESSION/TOKEN==' }],
      region: 'us-east-1',
    });
    publicS3 = await startS3Standin({
      buckets: { open: { 'a.tif': small, 'b.tif': big } },
      accounts: [{ accessKeyId: 'AKIDEU', secretAccessKey: 'eu-secret' }],
      region: 'eu-central-1',
      allowAnonymous: true,
    });
  });
  after(async () => {
    await s3.close();
    await publicS3.close();
  });

  it('reads exact byte ranges with a valid signature', async () => {
    const opener = createSourceOpener(options({ endpoint: s3.url, ...creds }));
    const src = await opener.open('s3://bkt/cogs/a.tif');
    assert.equal(src.url, 's3://bkt/cogs/a.tif');
    assert.equal(src.size, big.length);
    assert.deepEqual(await src.fetch(100_000, 20_000), big.subarray(100_000, 120_000));
    assert.deepEqual(await src.fetch(149_990, 100), big.subarray(149_990));
    assert.deepEqual(
      s3.requests.map((r) => [r.path, r.range, r.outcome]),
      [
        ['/bkt/cogs/a.tif', 'bytes=0-65535', 'ok'],
        ['/bkt/cogs/a.tif', 'bytes=100000-119999', 'ok'],
        ['/bkt/cogs/a.tif', 'bytes=149990-149999', 'ok'],
      ],
    );
    assert.match(String(s3.requests[0]!.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIDGOOD\/\d{8}\/us-east-1\/s3\/aws4_request,/);
  });

  it('signs keys with special characters correctly', async () => {
    const src = await createSourceOpener(options({ endpoint: s3.url, ...creds })).open(`s3://bkt/${ODD_KEY}`);
    assert.deepEqual(await src.fetch(0, 3000), small);
    assert.equal(s3.requests.at(-1)!.outcome, 'ok');
  });

  it('maps bad credentials to SourceForbidden, missing ones to SourceUnauthorized', async () => {
    const start = s3.requests.length;
    assert.equal(
      await kindOf(createSourceOpener(options({ endpoint: s3.url, accessKeyId: 'AKIDGOOD', secretAccessKey: 'wrong' })).open('s3://bkt/small.tif')),
      'SourceForbidden',
    );
    assert.equal(
      await kindOf(createSourceOpener(options({ endpoint: s3.url, accessKeyId: 'AKIDNOPE', secretAccessKey: 'x' })).open('s3://bkt/small.tif')),
      'SourceForbidden',
    );
    // Anonymous because no credentials are configured: the server lacks them (401 at the HTTP edge).
    assert.equal(await kindOf(createSourceOpener(options({ endpoint: s3.url })).open('s3://bkt/small.tif')), 'SourceUnauthorized');
    // Anonymous on purpose (AWS_NO_SIGN_REQUEST=YES): the object is not public.
    assert.equal(await kindOf(createSourceOpener(options({ endpoint: s3.url, noSign: true })).open('s3://bkt/small.tif')), 'SourceForbidden');
    assert.deepEqual(
      s3.requests.slice(start).map((r) => r.outcome),
      ['SignatureDoesNotMatch', 'InvalidAccessKeyId', 'AccessDenied', 'AccessDenied'],
    );
  });

  it('names the S3 error code in messages', async () => {
    try {
      await createSourceOpener(options({ endpoint: s3.url, accessKeyId: 'AKIDGOOD', secretAccessKey: 'wrong' })).open('s3://bkt/small.tif');
      assert.fail('expected a failure');
    } catch (err) {
      assert.ok(isRastileError(err, 'SourceForbidden'));
      assert.equal(err.message, 'Access to s3://bkt/small.tif is forbidden (HTTP 403, SignatureDoesNotMatch)');
    }
  });

  it('sends and signs the session token', async () => {
    const temp = { endpoint: s3.url, accessKeyId: 'AKIDTEMP', secretAccessKey: 'temp-secret' };
    assert.equal((await createSourceOpener(options({ ...temp, sessionToken: 'SESSION/TOKEN==' })).open('s3://bkt/small.tif')).size, small.length);
    assert.equal(await kindOf(createSourceOpener(options(temp)).open('s3://bkt/small.tif')), 'SourceForbidden');
    assert.equal(s3.requests.at(-1)!.outcome, 'InvalidToken');
  });

  it('maps NoSuchKey and NoSuchBucket to SourceNotFound', async () => {
    const opener = createSourceOpener(options({ endpoint: s3.url, ...creds }));
    assert.equal(await kindOf(opener.open('s3://bkt/missing.tif')), 'SourceNotFound');
    assert.equal(await kindOf(opener.open('s3://nobucket/a.tif')), 'SourceNotFound');
    assert.equal(await opener.openIfExists('s3://bkt/cogs/a.tif.ovr'), null);
    assert.deepEqual(
      s3.requests.slice(-3).map((r) => r.outcome),
      ['NoSuchKey', 'NoSuchBucket', 'NoSuchKey'],
    );
  });

  it('treats InvalidRange (416) as end of file', async () => {
    const src = await createSourceOpener(options({ endpoint: s3.url, ...creds }, { headerBytes: 0 })).open('s3://bkt/small.tif');
    assert.equal((await src.fetch(5000, 10)).length, 0);
    assert.equal(src.size, small.length);
  });

  it('sends unsigned requests without credentials or with AWS_NO_SIGN_REQUEST, and learns the region', async () => {
    const opener = createSourceOpener(options({ endpoint: publicS3.url, ...creds, noSign: true }));
    const src = await opener.open('s3://open/a.tif');
    assert.deepEqual(await src.fetch(0, 3000), small);
    assert.equal(publicS3.requests[0]!.headers.authorization, undefined);

    // Signed requests to the eu-central-1 server from a client configured for us-east-1: the
    // first answer names the region, the retry succeeds and the region is remembered.
    const signed = createSourceOpener(options({ endpoint: publicS3.url, accessKeyId: 'AKIDEU', secretAccessKey: 'eu-secret' }));
    const start = publicS3.requests.length;
    assert.equal((await signed.open('s3://open/a.tif')).size, small.length);
    assert.equal((await signed.open('s3://open/b.tif')).size, big.length);
    assert.deepEqual(
      publicS3.requests.slice(start).map((r) => [r.path, r.outcome]),
      [
        ['/open/a.tif', 'AuthorizationHeaderMalformed'],
        ['/open/a.tif', 'ok'],
        ['/open/b.tif', 'ok'], // the bucket's region is remembered
      ],
    );
    assert.match(String(publicS3.requests.at(-1)!.headers.authorization), /\/eu-central-1\/s3\//);
  });

  it('reads through the environment configuration', async () => {
    const env = { AWS_ACCESS_KEY_ID: creds.accessKeyId, AWS_SECRET_ACCESS_KEY: creds.secretAccessKey, AWS_S3_ENDPOINT: s3.url, AWS_REGION: 'us-east-1' };
    const src = await createSourceOpener(sourceOptionsFromEnv(env)).open('/vsis3/bkt/cogs/a.tif');
    assert.deepEqual(await src.fetch(70_000, 1000), big.subarray(70_000, 71_000));
  });
});

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (o: Record<string, unknown>) => S3rverInstance;

describe('S3 sources against s3rver (third-party S3 implementation)', () => {
  let dir: string;
  let instance: S3rverInstance;
  let endpoint: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rastile-s3rver-'));
    const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
    instance = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'bkt' }] });
    const { port } = await instance.run();
    endpoint = `http://127.0.0.1:${port}`;
    const put = await fetch(`${endpoint}/bkt/cogs/a.tif`, { method: 'PUT', body: big });
    assert.equal(put.status, 200);
  });
  after(async () => {
    await instance.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads ranges and maps NoSuchKey', async () => {
    const opener = createSourceOpener(options({ endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }));
    const src = await opener.open('s3://bkt/cogs/a.tif');
    assert.equal(src.size, big.length);
    assert.deepEqual(await src.fetch(90_000, 30_000), big.subarray(90_000, 120_000));
    assert.equal(await kindOf(opener.open('s3://bkt/cogs/missing.tif')), 'SourceNotFound');
    assert.equal(
      await kindOf(createSourceOpener(options({ endpoint, accessKeyId: 'NOPE', secretAccessKey: 'S3RVER' })).open('s3://bkt/cogs/a.tif')),
      'SourceForbidden',
    );
  });

  it('does not verify SigV4 signatures (why test/helpers/s3-standin.ts exists)', async () => {
    const src = await createSourceOpener(options({ endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'not-the-secret' })).open('s3://bkt/cogs/a.tif');
    assert.equal(src.size, big.length);
  });
});
