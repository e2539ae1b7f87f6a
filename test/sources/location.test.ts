import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { locationKey, parseLocation } from '../../src/sources/location.ts';

const kindOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (isRastileError(err)) return err.kind;
    throw err;
  }
  return 'ok';
};

describe('parseLocation', () => {
  it('resolves relative and absolute local paths', () => {
    assert.deepEqual(parseLocation('data/a.tif', '/srv/app'), { kind: 'file', path: '/srv/app/data/a.tif' });
    assert.deepEqual(parseLocation('/data/../etc/a.tif', '/srv'), { kind: 'file', path: '/etc/a.tif' });
    assert.deepEqual(parseLocation('file:///data/a%20b.tif'), { kind: 'file', path: '/data/a b.tif' });
    assert.deepEqual(parseLocation('file://localhost/data/a.tif'), { kind: 'file', path: '/data/a.tif' });
    assert.equal(
      kindOf(() => parseLocation('file://otherhost/data/a.tif')),
      'SourceForbidden',
    );
  });

  it('parses http(s), drops the fragment, refuses embedded credentials', () => {
    const loc = parseLocation('https://Example.COM:8443/a/b.tif?sig=1#frag');
    assert.equal(loc.kind, 'http');
    assert.equal(locationKey(loc), 'https://example.com:8443/a/b.tif?sig=1');
    assert.equal(
      kindOf(() => parseLocation('https://user:pw@example.com/a.tif')),
      'BadRequest',
    );
    assert.equal(
      kindOf(() => parseLocation('http://')),
      'BadRequest',
    );
  });

  it('parses s3://bucket/key literally and validates the bucket', () => {
    assert.deepEqual(parseLocation('s3://my-bucket/dir/a b#c?.tif'), { kind: 's3', bucket: 'my-bucket', key: 'dir/a b#c?.tif' });
    assert.equal(
      kindOf(() => parseLocation('s3://my-bucket')),
      'BadRequest',
    );
    assert.equal(
      kindOf(() => parseLocation('s3://evil.com:80@x/key')),
      'BadRequest',
    );
    assert.equal(
      kindOf(() => parseLocation('s3://a/key')),
      'BadRequest',
    );
    assert.equal(
      kindOf(() => parseLocation('s3://bucket/../other/key')),
      'BadRequest',
    );
  });

  it('understands GDAL /vsicurl/ and /vsis3/ spellings', () => {
    assert.equal(locationKey(parseLocation('/vsicurl/https://example.com/a.tif')), 'https://example.com/a.tif');
    assert.deepEqual(parseLocation('/vsis3/bucket-1/k/a.tif'), { kind: 's3', bucket: 'bucket-1', key: 'k/a.tif' });
  });

  it('refuses other schemes and bad input', () => {
    for (const loc of ['ftp://example.com/a.tif', 'gs://bucket/a.tif', 'data:text/plain,hi', 'javascript:alert(1)', '/vsicurl/ftp://x/a']) {
      assert.equal(
        kindOf(() => parseLocation(loc)),
        'SourceForbidden',
        loc,
      );
    }
    assert.equal(
      kindOf(() => parseLocation('')),
      'BadRequest',
    );
    assert.equal(
      kindOf(() => parseLocation('/data/a\0.tif')),
      'BadRequest',
    );
  });
});
