/**
 * Errors and responses that say how to fix things: a 403 outside the local roots names the allowed
 * roots (counted when many) and the setting; a 16-bit or float image without rescale or format
 * carries an X-Rastile-Hint header saying why it looks dark (the image itself stays TiTiler's).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, FIXTURES, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');

describe('403 outside the local roots', () => {
  it('names the allowed roots and the setting', async () => {
    const server = await startTestServer((c) => (c.sources.localRoots = [FIXTURES]));
    try {
      const r = await server.getJson<{ detail: string }>(`/cog/info?url=${q('/etc/hostname')}`);
      assert.equal(r.status, 403);
      assert.equal(
        r.body.detail,
        `Local path is outside the allowed directories: /etc/hostname. Allowed: ${FIXTURES} (the server's --local-roots or RASTILE_LOCAL_ROOTS setting).`,
      );
    } finally {
      await server.close();
    }
  });

  it('counts the roots when there are many', async () => {
    const roots = ['a', 'b', 'c', 'd'].map((d) => path.join(FIXTURES, d));
    const server = await startTestServer((c) => (c.sources.localRoots = roots));
    try {
      const r = await server.getJson<{ detail: string }>(`/cog/info?url=${q('/etc/hostname')}`);
      assert.equal(r.status, 403);
      assert.match(r.body.detail, /4 directories are allowed \(the server's --local-roots or RASTILE_LOCAL_ROOTS setting\)\.$/);
      assert.ok(!r.body.detail.includes(FIXTURES));
    } finally {
      await server.close();
    }
  });
});

describe('X-Rastile-Hint on images that look dark', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('the demo (wider than 8 bits, says gdalinfo) without rescale: hinted; with rescale or format: not', async () => {
    const type = (JSON.parse(execFileSync('gdalinfo', ['-json', DEMO], { encoding: 'utf8' })) as { bands: Array<{ type: string }> }).bands[0]!.type;
    assert.notEqual(type, 'Byte');
    const bare = await server.get(`/cog/preview?url=${q(DEMO)}&max_size=64`);
    await bare.arrayBuffer();
    assert.equal(bare.status, 200);
    assert.match(bare.headers.get('x-rastile-hint') ?? '', new RegExp(`^${type.toLowerCase()} data without rescale .*rescale=min,max`));
    for (const p of [`/cog/preview?url=${q(DEMO)}&max_size=64&rescale=0,3000`, `/cog/preview.png?url=${q(DEMO)}&max_size=64`]) {
      const r = await server.get(p);
      await r.arrayBuffer();
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-rastile-hint'), null, p);
    }
  });

  it('8-bit data is never hinted', async () => {
    const r = await server.get(`/cog/preview?url=${q(fixture('datasets', 'rgb_uint8_utm.tif'))}&max_size=64`);
    await r.arrayBuffer();
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-rastile-hint'), null);
  });
});
