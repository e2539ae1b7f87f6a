/**
 * The HTML list pages build links from the client's Host / X-Forwarded-Host (trusted proxy): those must be
 * escaped (a forged header must not inject markup into a cacheable page). Also the route-level
 * cache opt-out of /healthz and the JSON 404 of unknown static files.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
before(async () => {
  // A trusted proxy forwarding a hostile Host: the links must still be escaped.
  server = await startTestServer((c) => {
    c.trustProxy = true;
  });
});
after(async () => {
  await server.close();
});

const EVIL_HOST = 'x"><script>alert(1)</script>';

describe('HTML list pages escape links built from forwarded headers', () => {
  for (const path of ['/tileMatrixSets?f=html', '/algorithms?f=html', '/colorMaps?f=html', '/?f=html']) {
    it(path, async () => {
      const r = await server.get(path, { headers: { 'x-forwarded-host': EVIL_HOST } });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      const html = await r.text();
      assert.ok(!html.includes('<script>'), `raw script in ${path}`);
      assert.ok(html.includes('href="http://x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/'), `escaped href in ${path}`);
    });
  }

  it('the TileMatrixSets page still lists every set with its link', async () => {
    const html = await (await server.get('/tileMatrixSets?f=html')).text();
    assert.ok(html.includes(`<li><a href="${server.url}/tileMatrixSets/WebMercatorQuad">WebMercatorQuad</a></li>`), html);
    assert.equal(html.match(/<li>/g)?.length, 13);
  });
});

describe('cache and 404 behaviour of non-declared routes', () => {
  it('/healthz opts out of Cache-Control; other GETs get it; 404s are no-store (issue 12)', async () => {
    assert.equal((await server.get('/healthz')).headers.get('cache-control'), null);
    const nf = await server.get('/healthzz');
    assert.equal(nf.status, 404);
    assert.equal(nf.headers.get('cache-control'), 'no-store');
  });

  it('unknown static files are the JSON 404', async () => {
    for (const path of ['/static/nope.js', '/api.html/static/nope.css']) {
      const r = await server.get(path);
      assert.equal(r.status, 404, path);
      assert.deepEqual(await r.json(), { detail: 'Not Found' }, path);
    }
    const ok = await server.get('/static/maplibre-gl.css');
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.equal(ok.headers.get('cache-control'), 'public, max-age=86400');
  });

  it('a combined path segment that does not match is the JSON 404', async () => {
    const r = await server.get('/cog/bbox/1,2,3.png');
    assert.equal(r.status, 404);
    assert.deepEqual(await r.json(), { detail: 'Not Found' });
  });
});
