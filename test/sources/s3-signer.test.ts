import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalize, signRequest, uriEncode } from '../../src/sources/s3-signer.ts';
import { s3ObjectUrl } from '../../src/sources/s3-source.ts';
import { expectedSignature } from '../helpers/s3-standin.ts';

// AWS, "Signature Calculations for the Authorization Header: Transferring Payload in a Single
// Chunk (AWS Signature Version 4)", Example: GET Object (Amazon S3 API Reference).
const AWS_EXAMPLE = {
  url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
  date: new Date('2013-05-24T00:00:00Z'),
  credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  canonicalRequest: [
    'GET',
    '/test.txt',
    '',
    'host:examplebucket.s3.amazonaws.com',
    'range:bytes=0-9',
    'x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'x-amz-date:20130524T000000Z',
    '',
    'host;range;x-amz-content-sha256;x-amz-date',
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  ].join('\n'),
  stringToSign: [
    'AWS4-HMAC-SHA256',
    '20130524T000000Z',
    '20130524/us-east-1/s3/aws4_request',
    '7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972',
  ].join('\n'),
  signature: 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
};

describe('SigV4 signer', () => {
  const input = {
    method: 'GET',
    url: AWS_EXAMPLE.url,
    headers: { Range: 'bytes=0-9' },
    credentials: AWS_EXAMPLE.credentials,
    region: 'us-east-1',
    date: AWS_EXAMPLE.date,
  };

  it("reproduces AWS's GET Object example step by step", () => {
    const parts = canonicalize(input);
    assert.equal(parts.canonicalRequest, AWS_EXAMPLE.canonicalRequest);
    assert.equal(parts.stringToSign, AWS_EXAMPLE.stringToSign);
    const headers = signRequest(input);
    assert.equal(
      headers['authorization'],
      `AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=${AWS_EXAMPLE.signature}`,
    );
    assert.equal(headers['x-amz-date'], '20130524T000000Z');
    assert.equal(headers['host'], undefined); // fetch sets Host from the URL
  });

  it('signs a session token', () => {
    const parts = canonicalize({ ...input, credentials: { ...AWS_EXAMPLE.credentials, sessionToken: 'tok/en+=' } });
    assert.match(parts.canonicalRequest, /\nx-amz-security-token:tok\/en\+=\n/);
    assert.equal(parts.signedHeaders, 'host;range;x-amz-content-sha256;x-amz-date;x-amz-security-token');
  });

  it('encodes like SigV4 wants (RFC 3986 unreserved only)', () => {
    assert.equal(uriEncode("a b+c/d~e_f.g-h!'()*ü", true), 'a%20b%2Bc/d~e_f.g-h%21%27%28%29%2A%C3%BC');
    assert.equal(uriEncode('a/b', false), 'a%2Fb');
  });

  it('the test stand-in verifies the same example independently', () => {
    const { canonicalRequest, stringToSign, signature } = expectedSignature(
      {
        method: 'GET',
        rawPath: '/test.txt',
        rawQuery: '',
        headers: {
          host: 'examplebucket.s3.amazonaws.com',
          range: 'bytes=0-9',
          'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          'x-amz-date': '20130524T000000Z',
        },
      },
      ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'],
      AWS_EXAMPLE.credentials.secretAccessKey,
      '20130524T000000Z',
      { day: '20130524', region: 'us-east-1', service: 's3' },
    );
    assert.equal(canonicalRequest, AWS_EXAMPLE.canonicalRequest);
    assert.equal(stringToSign, AWS_EXAMPLE.stringToSign);
    assert.equal(signature, AWS_EXAMPLE.signature);
  });
});

describe('S3 object URLs', () => {
  it('uses virtual-hosted style on AWS, path style for dotted buckets and endpoints', () => {
    assert.equal(s3ObjectUrl('my-bucket', 'a/b c.tif', 'us-west-2', undefined).href, 'https://my-bucket.s3.us-west-2.amazonaws.com/a/b%20c.tif');
    assert.equal(s3ObjectUrl('my.bucket', 'k.tif', 'eu-west-1', undefined).href, 'https://s3.eu-west-1.amazonaws.com/my.bucket/k.tif');
    assert.equal(s3ObjectUrl('Bucket_1', 'k.tif', 'eu-west-1', undefined).href, 'https://s3.eu-west-1.amazonaws.com/Bucket_1/k.tif');
    assert.equal(s3ObjectUrl('b1', 'x/y?#%.tif', 'us-east-1', 'http://127.0.0.1:9000').href, 'http://127.0.0.1:9000/b1/x/y%3F%23%25.tif');
    assert.equal(s3ObjectUrl('b1', 'k', 'us-east-1', 'https://store.example/s3/').href, 'https://store.example/s3/b1/k');
  });
});
