import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { parseByteSize, sourceOptionsFromEnv } from '../../src/sources/options.ts';

describe('sourceOptionsFromEnv', () => {
  it('uses built-in defaults', () => {
    const o = sourceOptionsFromEnv({});
    assert.deepEqual(o.localRoots, []);
    assert.equal(o.allowPrivateHosts, false);
    assert.equal(o.requestTimeoutMs, 30000);
    assert.equal(o.retries, 3);
    assert.equal(o.cacheBytes, 256 * 1024 * 1024);
    assert.deepEqual(o.s3, { region: 'us-east-1', noSign: false });
  });

  it('reads RASTILE_* and AWS_* variables, environment over given defaults', () => {
    const o = sourceOptionsFromEnv(
      {
        RASTILE_LOCAL_ROOTS: '/data:/srv/rasters',
        RASTILE_ALLOW_PRIVATE_HOSTS: 'YES',
        RASTILE_HTTP_TIMEOUT_MS: '5000',
        RASTILE_HTTP_RETRIES: '1',
        RASTILE_CACHE_BYTES: '64MiB',
        RASTILE_MAX_WHOLE_BODY_BYTES: '1048576',
        RASTILE_ALLOWED_HOSTS: 'tiles.internal, data.lan',
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY: 'SECRET',
        AWS_SESSION_TOKEN: 'TOKEN',
        AWS_DEFAULT_REGION: 'eu-west-1',
        AWS_S3_ENDPOINT: 'minio.local:9000',
        AWS_HTTPS: 'NO',
      },
      { retries: 7, requestTimeoutMs: 100, localRoots: ['/ignored'] },
    );
    assert.deepEqual(o.localRoots, ['/data', '/srv/rasters']);
    assert.equal(o.allowPrivateHosts, true);
    assert.equal(o.requestTimeoutMs, 5000);
    assert.equal(o.retries, 1);
    assert.equal(o.cacheBytes, 64 * 1024 * 1024);
    assert.equal(o.maxWholeBodyBytes, 1048576);
    assert.deepEqual(o.allowedHosts, ['tiles.internal', 'data.lan']);
    assert.deepEqual(o.s3, {
      region: 'eu-west-1',
      endpoint: 'http://minio.local:9000',
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      sessionToken: 'TOKEN',
      noSign: false,
    });
  });

  it('prefers AWS_REGION, honours AWS_NO_SIGN_REQUEST, needs both key parts', () => {
    const o = sourceOptionsFromEnv(
      { AWS_REGION: 'us-west-2', AWS_DEFAULT_REGION: 'eu-west-1', AWS_NO_SIGN_REQUEST: 'YES', AWS_ACCESS_KEY_ID: 'only-id' },
      { retries: 7 },
    );
    assert.deepEqual(o.s3, { region: 'us-west-2', noSign: true });
    assert.equal(o.retries, 7);
  });

  it('rejects malformed values with a clear message', () => {
    assert.throws(
      () => sourceOptionsFromEnv({ RASTILE_HTTP_RETRIES: 'many' }),
      (e: unknown) => isRastileError(e, 'BadRequest') && /RASTILE_HTTP_RETRIES/.test(e.message),
    );
    assert.throws(() => sourceOptionsFromEnv({ RASTILE_ALLOW_PRIVATE_HOSTS: 'perhaps' }), /RASTILE_ALLOW_PRIVATE_HOSTS/);
  });

  it('parses byte sizes', () => {
    assert.equal(parseByteSize('x', '1024'), 1024);
    assert.equal(parseByteSize('x', '512KiB'), 512 * 1024);
    assert.equal(parseByteSize('x', '1.5G'), 1.5 * 1024 ** 3);
    assert.throws(() => parseByteSize('x', '12 parsecs'));
  });
});
