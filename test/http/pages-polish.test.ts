/**
 * The HTML pages look finished: /favicon.ico is an ICO holding a 32×32 PNG (decoded by sharp), the
 * landing page links to the demo map, the API docs and the tile sets, and in headless Chromium
 * the landing, conformance, tile matrix sets and tile sets pages load with no 4xx/5xx at all (the
 * favicon included) and no console errors.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { browserSkipReason, launchBrowser, type HeadlessBrowser } from '../helpers/browser.ts';
import { q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

describe('favicon and landing page', () => {
  it('/favicon.ico is an icon whose PNG is 32×32', async () => {
    const r = await server.get('/favicon.ico');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/x-icon');
    const ico = Buffer.from(await r.arrayBuffer());
    assert.deepEqual([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4), ico[6], ico[7]], [0, 1, 1, 32, 32]);
    const png = ico.subarray(ico.readUInt32LE(18), ico.readUInt32LE(18) + ico.readUInt32LE(14));
    const meta = await sharp(png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 32, 32]);
  });

  it('the landing page links the demo map, the API docs and the tile sets', async () => {
    const html = await (await server.get('/?f=html')).text();
    assert.ok(html.includes(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}`), html);
    assert.match(html, /href="[^"]*\/api\.html"/);
    assert.match(html, /href="[^"]*\/tileMatrixSets\?f=html"/);
    assert.match(html, /<link rel="icon" href="\/favicon\.ico">/);
  });
});

describe('pages in headless Chromium', { skip: browserSkipReason }, () => {
  let browser: HeadlessBrowser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser?.close());

  for (const p of ['/?f=html', '/conformance?f=html', '/tileMatrixSets?f=html', `/cog/tiles?f=html&url=${q(DEMO)}`]) {
    it(`${p.split('&')[0]} loads without any 4xx/5xx or console error`, async () => {
      const page = await browser.context.newPage();
      const problems: string[] = [];
      let favicon = 0;
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      page.on('response', (r) => {
        if (new URL(r.url()).pathname === '/favicon.ico') favicon = r.status();
        if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
      });
      const r = await page.goto(`${server.url}${p}`);
      assert.equal(r?.status(), 200);
      await page.waitForLoadState('networkidle');
      // Headless Chromium may or may not fetch the icon; when it does, it must be there.
      assert.ok(favicon === 0 || favicon === 200, `favicon ${favicon}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
