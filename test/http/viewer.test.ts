/**
 * The dataset viewer (/cog/viewer, /stac/viewer) in real headless Chromium (MapLibre GL on
 * SwiftShader), on the real demo dataset (Landsat 7 over Olinda) and the STAC fixture item.
 *
 * Oracles: the API itself. The default rescale must be the p2–p98 that /cog/statistics gives for
 * the picked bands; every pick (band, colormap, rescale, algorithm, expression, asset) must show
 * in the tile requests MapLibre makes and in the tile URL shown; the WebGL canvas (read back with
 * toDataURL: the map keeps its drawing buffer) must hold data where the dataset is, in the
 * colormap's colours (from /colorMaps) once one is picked; a click must show what the point
 * endpoint answers for that place.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { browserSkipReason, launchBrowser, type HeadlessBrowser } from '../helpers/browser.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const DEMO = path.join(REPO, 'demo', 'olinda-landsat7.tif');
const ITEM = fixture('stac', 'item.json');
const BACKGROUND = [0xe8, 0xee, 0xf3];

interface Stats {
  percentile_2: number;
  percentile_98: number;
}

describe('viewer pages (no browser)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('/cog/viewer and /stac/viewer: one HTML page, its assets from our /static (no CDN), documented in /api', async () => {
    for (const p of ['/cog/viewer', `/cog/viewer?url=${q(DEMO)}`, '/stac/viewer']) {
      const r = await server.get(p);
      assert.equal(r.status, 200, p);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      const html = await r.text();
      const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((h) => !h.startsWith('data:'));
      assert.deepEqual(
        refs.filter((h) => /^(https?:)?\/\//.test(h)),
        [],
        'no external assets',
      );
      for (const ref of refs.filter((h) => h.startsWith('../static/'))) {
        const a = await server.get(new URL(ref, `${server.url}${p}`).pathname);
        assert.equal(a.status, 200, ref);
      }
      assert.ok(refs.includes('../static/rastile.css') && refs.includes('../static/viewer.js') && refs.includes('../static/maplibre-gl.js'), refs.join());
    }
    // the landing page's first link: the real demo in the viewer (true colour)
    const landing = await (await server.get('/?f=html')).text();
    const first = /<li><a href="([^"]+)">([^<]+)<\/a><\/li>/.exec(landing);
    assert.ok(first, landing);
    const link = new URL(first[1]!.replace(/&amp;/g, '&'));
    assert.equal(link.pathname, '/cog/viewer');
    assert.deepEqual(
      [...link.searchParams],
      [
        ['url', DEMO],
        ['bidx', '3'],
        ['bidx', '2'],
        ['bidx', '1'],
      ],
    );
    assert.match(first[2]!, /Landsat 7 over Olinda/);
    const api = await server.getJson<{ paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> }>('/api');
    for (const p of ['/cog/viewer', '/stac/viewer']) assert.ok(api.body.paths[p]?.get.responses['200']?.content['text/html'], p);
  });
});

describe('viewer in headless Chromium', { skip: browserSkipReason }, () => {
  let server: TestServer;
  let browser: HeadlessBrowser;
  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser({ width: 1000, height: 640 });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  interface Session {
    page: Page;
    problems: string[];
    tiles: URL[];
  }

  async function open(pathAndQuery: string): Promise<Session> {
    const page = await browser.context.newPage();
    const s: Session = { page, problems: [], tiles: [] };
    page.on('console', (m) => {
      if (m.type() === 'error') s.problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => s.problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) s.problems.push(`HTTP ${r.status()}: ${r.url()}`);
      if (/\/tiles\/WebMercatorQuad\/\d+\/\d+\/\d+\.png$/.test(new URL(r.url()).pathname)) s.tiles.push(new URL(r.url()));
    });
    const r = await page.goto(`${server.url}${pathAndQuery}`);
    assert.equal(r?.status(), 200);
    await settle(page);
    return s;
  }

  async function settle(page: Page): Promise<void> {
    await page.waitForFunction('window.__viewer.ready && window.__viewer.idle()', undefined, { timeout: 60_000, polling: 100 });
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  }

  /** Does a pick, then waits for a tile request that satisfies `want` and for the map to settle. */
  async function pick(s: Session, action: () => Promise<unknown>, want: (u: URL) => boolean): Promise<URL> {
    const seen = s.tiles.length;
    const waiting = s.page.waitForResponse((r) => /\/tiles\/WebMercatorQuad\//.test(r.url()) && want(new URL(r.url())), { timeout: 60_000 });
    await action();
    await waiting;
    await settle(s.page);
    const after = s.tiles.slice(seen);
    assert.ok(after.length > 0 && after.every(want), after.map(String).join('\n'));
    return after[0]!;
  }

  /** The WebGL canvas read back: how many pixels are not the background, and the colours of those. */
  async function canvasPixels(page: Page): Promise<{ data: number; total: number; colours: Array<[number, number, number]> }> {
    const png = await page.evaluate<string>('window.__viewer.map.getCanvas().toDataURL("image/png")');
    const { data, info } = await sharp(Buffer.from(png.split(',')[1]!, 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const colours: Array<[number, number, number]> = [];
    for (let o = 0; o < data.length; o += info.channels) {
      const px: [number, number, number] = [data[o]!, data[o + 1]!, data[o + 2]!];
      if (px.every((v, i) => Math.abs(v - BACKGROUND[i]!) <= 3)) continue;
      if (info.channels === 4 && data[o + 3] === 0) continue;
      colours.push(px);
    }
    return { data: colours.length, total: info.width * info.height, colours };
  }

  const params = (u: URL, k: string): string[] => u.searchParams.getAll(k);
  const value = (page: Page, sel: string): Promise<string> => page.locator(sel).inputValue();

  it(
    'COG viewer on the Landsat demo: default rescale from statistics, band / colormap / rescale / algorithm / expression picks, click',
    { timeout: 300_000 },
    async () => {
      const s = await open(`/cog/viewer?url=${q(DEMO)}`);
      const { page } = s;
      try {
        // the band list is /cog/info's; the first band by default, rescaled to its p2–p98
        const labels = await page.locator('#band option').allTextContents();
        assert.deepEqual(labels.slice(0, 4), [
          'b1 · ETM+ band 1 (blue)',
          'b2 · ETM+ band 2 (green)',
          'b3 · ETM+ band 3 (red)',
          'b4 · ETM+ band 4 (near infrared)',
        ]);
        const b1 = (await server.getJson<Record<string, Stats>>(`/cog/statistics?url=${q(DEMO)}&bidx=1`)).body['b1']!;
        assert.ok(s.tiles.length >= 1);
        for (const t of s.tiles) {
          assert.deepEqual(params(t, 'url'), [DEMO]);
          assert.deepEqual(params(t, 'bidx'), ['1']);
          assert.deepEqual(params(t, 'rescale'), [`${b1.percentile_2},${b1.percentile_98}`]);
          assert.deepEqual(params(t, 'tilesize'), ['256']);
        }
        assert.match((await page.locator('#rescale-note').textContent()) ?? '', /p2–p98 of b1/);
        // the URL shown is the template the map requests
        const template = await value(page, '#tile-url');
        assert.ok(template.includes('/cog/tiles/WebMercatorQuad/{z}/{x}/{y}.png?'), template);
        const asTemplate = (u: URL): string => `${u.origin}${u.pathname.replace(/\/\d+\/\d+\/\d+\.png$/, '/{z}/{x}/{y}.png')}${u.search}`;
        assert.equal(decodeURIComponent(asTemplate(s.tiles[0]!)), decodeURIComponent(template));
        const first = await canvasPixels(page);
        // the dataset fills most of the map (fitted with 20 px padding; the panel is outside the canvas)
        assert.ok(first.data > 0.5 * first.total, `${first.data} of ${first.total} canvas pixels hold data`);

        // band 4: new tiles, new default rescale (b4's percentiles)
        const b4 = (await server.getJson<Record<string, Stats>>(`/cog/statistics?url=${q(DEMO)}&bidx=4`)).body['b4']!;
        await pick(
          s,
          () => page.selectOption('#band', '4'),
          (u) => params(u, 'bidx').join() === '4' && params(u, 'rescale')[0] === `${b4.percentile_2},${b4.percentile_98}`,
        );
        assert.equal(await value(page, '#rescale-min'), String(b4.percentile_2));
        assert.equal(await value(page, '#rescale-max'), String(b4.percentile_98));

        // colormap: in the tile requests, its legend shown, the canvas in its colours
        await pick(
          s,
          () => page.selectOption('#colormap', 'viridis'),
          (u) => params(u, 'colormap_name').join() === 'viridis' && params(u, 'bidx').join() === '4',
        );
        const legend = await page.evaluate<{ src: string; w: number }>(
          "({ src: document.getElementById('legend').src, w: document.getElementById('legend').naturalWidth })",
        );
        assert.ok(new URL(legend.src).pathname === '/colorMaps/viridis' && legend.w === 256, JSON.stringify(legend));
        const viridis = Object.values((await server.getJson<Record<string, number[]>>('/colorMaps/viridis')).body).map((c) => c.slice(0, 3));
        const coloured = await canvasPixels(page);
        const near = coloured.colours.filter(([r, g, b]) => viridis.some(([cr, cg, cb]) => (r - cr!) ** 2 + (g - cg!) ** 2 + (b - cb!) ** 2 <= 144)).length;
        assert.ok(coloured.data > 0.5 * coloured.total && near > 0.95 * coloured.data, `${near} viridis of ${coloured.data}`);

        // rescale typed by hand
        await pick(
          s,
          async () => {
            await page.fill('#rescale-min', '20');
            await page.locator('#rescale-min').dispatchEvent('change');
          },
          (u) => params(u, 'rescale').join() === `20,${b4.percentile_98}`,
        );

        // algorithm: hillshade (uint8 output: no rescale)
        await pick(
          s,
          () => page.selectOption('#algorithm', 'hillshade'),
          (u) => params(u, 'algorithm').join() === 'hillshade' && !u.searchParams.has('rescale'),
        );
        await pick(
          s,
          () => page.selectOption('#algorithm', ''),
          (u) => !u.searchParams.has('algorithm') && params(u, 'rescale').length === 1,
        );

        // expression: replaces bidx; rescale from the expression's statistics
        const expr = '(b4-b3)/(b4+b3)';
        const ndvi = (await server.getJson<Record<string, Stats>>(`/cog/statistics?url=${q(DEMO)}&expression=${q(expr)}`)).body;
        const nb = Object.values(ndvi)[0]!;
        await pick(
          s,
          async () => {
            await page.fill('#expression', expr);
            await page.locator('#expression').dispatchEvent('change');
          },
          (u) =>
            params(u, 'expression').join() === expr && !u.searchParams.has('bidx') && params(u, 'rescale').join() === `${nb.percentile_2},${nb.percentile_98}`,
        );

        // click in the middle of the map: the values the point endpoint gives for that place, for the expression
        const box = (await page.locator('#map').boundingBox())!;
        const [x, y] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
        const waiting = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/cog/point/'));
        await page.mouse.click(x, y);
        const pr = await waiting;
        assert.equal(pr.status(), 200);
        assert.equal(new URL(pr.url()).searchParams.get('expression'), expr);
        const body = (await pr.json()) as { coordinates: [number, number]; values: number[]; band_names: string[] };
        await page.waitForFunction("/^[^\\n]+: /.test(document.getElementById('values').textContent)", undefined, { timeout: 30_000 });
        const text = await page.locator('#values').textContent();
        assert.equal(text!.split('\n')[0], `${body.band_names[0]}: ${body.values[0]}`);
        const again = await server.getJson<{ values: number[] }>(
          `/cog/point/${body.coordinates[0]},${body.coordinates[1]}?url=${q(DEMO)}&expression=${q(expr)}`,
        );
        assert.deepEqual(again.body.values, body.values);
        assert.deepEqual(s.problems, [], s.problems.join('\n'));
      } finally {
        await page.close();
      }
    },
  );

  it('COG viewer: picks given in the page URL (true colour) are the first tiles asked for', { timeout: 120_000 }, async () => {
    const s = await open(`/cog/viewer?url=${q(DEMO)}&bidx=3&bidx=2&bidx=1&rescale=20,120`);
    try {
      assert.equal(await s.page.locator('#band').inputValue(), '3,2,1');
      for (const t of s.tiles) {
        assert.deepEqual(params(t, 'bidx'), ['3', '2', '1']);
        assert.deepEqual(params(t, 'rescale'), ['20,120']);
      }
      assert.ok(await s.page.locator('#colormap').isDisabled(), 'no colormap for 3 bands');
      const px = await canvasPixels(s.page);
      assert.ok(px.data > 0.5 * px.total, `${px.data} of ${px.total}`);
      assert.deepEqual(s.problems, [], s.problems.join('\n'));
    } finally {
      await s.page.close();
    }
  });

  it('COG viewer without url: a box to type it in; a missing file: the API message on the page', { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${server.url}/cog/viewer`);
      await page.waitForFunction("document.getElementById('status').textContent !== ''", undefined, { timeout: 30_000 });
      assert.match((await page.locator('#status').textContent()) ?? '', /Give a dataset url/);
      await page.fill('#url', DEMO);
      await Promise.all([page.waitForURL((u) => u.searchParams.get('url') === DEMO), page.click('#open button')]);
      await settle(page);
      assert.ok((await page.locator('#tile-url').inputValue()).includes(`url=${q(DEMO)}`));

      const missing = fixture('datasets', 'missing.tif');
      await page.goto(`${server.url}/cog/viewer?url=${q(missing)}`);
      await page.waitForFunction("document.getElementById('status').textContent !== ''", undefined, { timeout: 30_000 });
      const want = await server.getJson<{ detail: string }>(`/cog/info?url=${q(missing)}`);
      assert.equal(want.status, 404);
      assert.equal(await page.locator('#status').textContent(), want.body.detail);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('STAC viewer: assets from /stac/assets, an asset pick changes the tiles, the canvas shows data', { timeout: 180_000 }, async () => {
    const s = await open(`/stac/viewer?url=${q(ITEM)}`);
    const { page } = s;
    try {
      const assets = (await server.getJson<string[]>(`/stac/assets?url=${q(ITEM)}`)).body;
      assert.deepEqual(await page.locator('#asset option').allTextContents(), assets);
      for (const t of s.tiles) assert.deepEqual(params(t, 'assets'), [assets[0]!]);
      const red = (await server.getJson<Record<string, Stats>>(`/stac/statistics?url=${q(ITEM)}&assets=${assets[0]!}`)).body;
      const r1 = Object.values(red)[0]!;
      assert.deepEqual(params(s.tiles[0]!, 'rescale'), [`${r1.percentile_2},${r1.percentile_98}`]);
      await pick(
        s,
        () => page.selectOption('#asset', 'nir'),
        (u) => params(u, 'assets').join() === 'nir',
      );
      const px = await canvasPixels(page);
      assert.ok(px.data > 0.3 * px.total, `${px.data} of ${px.total}`);
      // the visual asset has 3 bands: RGB by default, the whole asset (no per-asset bidx)
      await pick(
        s,
        () => page.selectOption('#asset', 'visual'),
        (u) => params(u, 'assets').join() === 'visual',
      );
      assert.equal(await page.locator('#bidx').inputValue(), '1,2,3');
      // a click: the STAC point endpoint for the picked asset, its values shown
      const box = (await page.locator('#map').boundingBox())!;
      const waiting = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/stac/point/'));
      await page.mouse.click(Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2));
      const pr = await waiting;
      assert.equal(pr.status(), 200);
      assert.deepEqual(new URL(pr.url()).searchParams.getAll('assets'), ['visual']);
      const body = (await pr.json()) as { values: number[]; band_names: string[] };
      await page.waitForFunction("/^[^\\n]+: /.test(document.getElementById('values').textContent)", undefined, { timeout: 30_000 });
      const shown = ((await page.locator('#values').textContent()) ?? '').split('\n');
      assert.deepEqual(
        shown.slice(0, body.values.length),
        body.band_names.map((n, i) => `${n}: ${body.values[i]}`),
      );
      assert.deepEqual(s.problems, [], s.problems.join('\n'));
    } finally {
      await page.close();
    }
  });
});
