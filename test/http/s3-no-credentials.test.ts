/**
 * s3:// objects read by a server without S3 credentials, against the SigV4-verifying S3 stand-in
 * (a private bucket: anonymous requests are AccessDenied). TiTiler answers 401 for an s3://
 * MosaicJSON without credentials (cogeo-mosaic's MosaicAuthError); rastile answers 401 with a
 * detail naming the missing settings on every route that reads the object: /cog, /stac (the item
 * and its assets) and /mosaicjson (the document and its COGs). Credentials that S3 refuses stay a
 * 403, and so does a private object read with AWS_NO_SIGN_REQUEST=YES.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { S3Options } from '../../src/sources/options.ts';
import { startS3Standin, type S3Standin } from '../helpers/s3-standin.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const mosaic = JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')) as { tiles: Record<string, string[]> };
mosaic.tiles = Object.fromEntries(Object.entries(mosaic.tiles).map(([k, v]) => [k, v.map((f) => `s3://data/cogs/${f}`)]));
const item = JSON.parse(readFileSync(fixture('stac', 'item.json'), 'utf8')) as { assets: Record<string, { href: string }> };
for (const a of Object.values(item.assets)) a.href = a.href.replace('./', 's3://data/stac/');

const MISSING = /no S3 credentials.*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/;
/** Tile z10 541/368 holds both mosaic COGs (test/fixtures/mosaicjson/expected.json). */
const TILE = '10/541/368';

let s3: S3Standin;
let tmp: string;
before(async () => {
  s3 = await startS3Standin({
    buckets: {
      data: {
        'cogs/a.tif': readFileSync(fixture('mosaicjson', 'a.tif')),
        'cogs/b.tif': readFileSync(fixture('mosaicjson', 'b.tif')),
        'stac/red.tif': readFileSync(fixture('stac', 'red.tif')),
        'mosaic.json': JSON.stringify(mosaic),
        'item.json': JSON.stringify(item),
      },
      bucket: { 'mosaic.json': JSON.stringify(mosaic) }, // TiTiler's pin names s3://bucket/mosaic.json
    },
    accounts: [{ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' }],
    region: 'us-east-1',
  });
  // The same documents stored locally, so the objects refused are the COGs they name.
  tmp = mkdtempSync(path.join(tmpdir(), 'rastile-s3-nocreds-'));
  writeFileSync(path.join(tmp, 'mosaic.json'), JSON.stringify(mosaic));
  writeFileSync(path.join(tmp, 'item.json'), JSON.stringify(item));
});
after(async () => {
  await s3.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function serverWith(s3Options: Partial<S3Options>): Promise<TestServer> {
  return startTestServer((c) => {
    c.sources.s3 = { region: 'us-east-1', endpoint: s3.url, ...s3Options };
    c.sources.localRoots = [...c.sources.localRoots, tmp];
  });
}

/** Each route and its request (a function: the local documents' folder is made in `before`). */
const ROUTES: Array<[string, () => string]> = [
  ['/cog/info', () => `/cog/info?url=${q('s3://data/cogs/a.tif')}`],
  ['/cog tile', () => `/cog/tiles/WebMercatorQuad/${TILE}.png?url=${q('s3://data/cogs/a.tif')}`],
  ['/stac/info (item on S3)', () => `/stac/info?url=${q('s3://data/item.json')}&assets=red`],
  ['/stac/info (asset on S3)', () => `/stac/info?url=${q(path.join(tmp, 'item.json'))}&assets=red`],
  ['/mosaicjson/info (document on S3)', () => `/mosaicjson/info?url=${q('s3://data/mosaic.json')}`],
  ['TiTiler test_mosaic.py pin: /mosaicjson/info?url=s3://bucket/mosaic.json', () => `/mosaicjson/info?url=${q('s3://bucket/mosaic.json')}`],
  ['/mosaicjson tile (document on S3)', () => `/mosaicjson/tiles/WebMercatorQuad/${TILE}.png?url=${q('s3://data/mosaic.json')}`],
  ['/mosaicjson tile (COGs on S3)', () => `/mosaicjson/tiles/WebMercatorQuad/${TILE}.png?url=${q(path.join(tmp, 'mosaic.json'))}`],
];

describe('s3:// without credentials', () => {
  let server: TestServer;
  before(async () => {
    server = await serverWith({});
  });
  after(() => server.close());

  for (const [name, url] of ROUTES) {
    it(`${name}: 401 naming the missing credentials`, async () => {
      const r = await server.get(url());
      const body = (await r.json()) as { detail: string };
      assert.equal(r.status, 401, JSON.stringify(body));
      assert.match(body.detail, MISSING);
      assert.match(body.detail, /s3:\/\/(data|bucket)\//);
    });
  }

  it('the requests were sent unsigned and refused by S3 (AccessDenied)', () => {
    assert.ok(s3.requests.length > 0);
    assert.ok(s3.requests.every((r) => r.headers.authorization === undefined && r.outcome === 'AccessDenied'));
  });
});

describe('s3:// with credentials', () => {
  it('good credentials read the objects (the same routes answer 200)', async () => {
    const server = await serverWith({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' });
    try {
      for (const [name, url] of ROUTES) {
        const r = await server.get(url());
        assert.equal(r.status, 200, `${name}: ${await r.text()}`);
        await r.arrayBuffer().catch(() => undefined);
      }
    } finally {
      await server.close();
    }
  });

  it('refused credentials and refused unsigned requests (AWS_NO_SIGN_REQUEST=YES) stay 403', async () => {
    for (const options of [{ accessKeyId: 'AKIDTEST', secretAccessKey: 'wrong' }, { noSign: true }]) {
      const server = await serverWith(options);
      try {
        const r = await server.getJson<{ detail: string }>(`/mosaicjson/info?url=${q('s3://data/mosaic.json')}`);
        assert.equal(r.status, 403, JSON.stringify(r.body));
        assert.doesNotMatch(r.body.detail, MISSING);
      } finally {
        await server.close();
      }
    }
  });
});
