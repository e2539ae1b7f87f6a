/**
 * The map page (/cog/{tms}/map.html) in real headless Chromium: MapLibre GL JS (WebGL on
 * SwiftShader) for WebMercatorQuad, the canvas tile-grid viewer for other TMSs.
 *
 * Oracles: the page must load without console errors or failed requests; every tile request must
 * be a 200 with the map page's default tilesize (256); the screenshot must show the terrain
 * colormap (from /colorMaps/terrain) where the dataset is and the background elsewhere; the data
 * must sit where the dataset bounds project on screen (for the LAEA fixture, whose native CRS is
 * the TMS CRS, to 2 px + one tile pixel of its exact bounds in expected.json); a click must show the values the
 * point endpoint returned for the clicked coordinates.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { browserSkipReason, launchBrowser, type HeadlessBrowser } from '../helpers/browser.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');
const LAEA = fixture('datasets', 'int16_scale_laea.tif');
const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { info: { bounds: number[]; width: number; height: number } }>;
};

const expectedStats = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')).files as Record<
  string,
  { statistics_default: { stats: Record<string, { percentile_2: number; percentile_98: number }> } }
>;

/** The text of the page's rescale note, tags removed, entities decoded. */
const noteText = (html: string): string => {
  const m = /<div id="rescale-note">(.*?)<\/div>/s.exec(html);
  assert.ok(m, 'no rescale note in the page');
  return m[1]!
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
};

const VIEWPORT = { width: 800, height: 600 };
const BACKGROUND = [0xe8, 0xee, 0xf3]; // #map background of the page
const RENDER = 'rescale=0,3000&colormap_name=terrain';

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface PointResponse {
  coordinates: [number, number];
  values: Array<number | null>;
  band_names: string[];
}

interface Session {
  page: Page;
  problems: string[];
  tiles: Array<{ url: string; status: number; body: Promise<Buffer> }>;
}

interface PixelCensus {
  /** Pixels that are not the page background. */
  data: number;
  /** Of those, pixels within distance 12 of a terrain colormap entry. */
  terrain: number;
  /** Bounding box of the non-background pixels. */
  box: Rect;
}

/** The viewer configuration the server embeds in the page. */
interface PageConfig {
  tilejsonUrl: string;
  pointUrl: string;
  tms: { id: string; crs: string; tileMatrices: unknown[] };
  datasetBounds: number[] | null;
  limits: Array<{ tileMatrix: string }>;
}

const pageConfig = (html: string): PageConfig => {
  const m = /<script type="application\/json" id="config">(.*?)<\/script>/s.exec(html);
  assert.ok(m, 'no config in the page');
  return JSON.parse(m[1]!) as PageConfig;
};

describe('map page HTML (no browser)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('WebMercatorQuad: MapLibre from our /static, TileJSON URL with every parameter and tilesize=256, point URL without render parameters', async () => {
    const r = await server.get(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}&${RENDER}&bidx=1&minzoom=9`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    const html = await r.text();
    assert.ok(html.includes(`src="${server.url}/static/maplibre-gl.js"`));
    assert.ok(html.includes(`href="${server.url}/static/maplibre-gl.css"`));
    for (const asset of ['maplibre-gl.js', 'maplibre-gl.css']) assert.equal((await server.get(`/static/${asset}`)).status, 200);
    const c = pageConfig(html);
    assert.equal(c.tms.id, 'WebMercatorQuad');
    const tj = new URL(c.tilejsonUrl);
    assert.equal(tj.pathname, '/cog/WebMercatorQuad/tilejson.json');
    assert.deepEqual(
      [...tj.searchParams],
      [
        ['url', DEMO],
        ['rescale', '0,3000'],
        ['colormap_name', 'terrain'],
        ['bidx', '1'],
        ['minzoom', '9'],
        ['tilesize', '256'],
      ],
    );
    assert.ok(c.pointUrl.startsWith(`${server.url}/cog/point/{lon},{lat}?`), c.pointUrl);
    assert.deepEqual(
      [...new URL(c.pointUrl.replace('{lon},{lat}', '0,0')).searchParams],
      [
        ['url', DEMO],
        ['bidx', '1'],
      ],
    );
    // the grid limits honour the minzoom override and match the tile set's
    const ts = await server.getJson<{ tileMatrixSetLimits: unknown[] }>(`/cog/tiles/WebMercatorQuad?url=${q(DEMO)}&minzoom=9`);
    assert.deepEqual(c.limits, ts.body.tileMatrixSetLimits);
  });

  it('/cog/map.html defaults to WebMercatorQuad and takes tileMatrixSetId; a given tilesize is kept', async () => {
    const a = pageConfig(await (await server.get(`/cog/map.html?url=${q(DEMO)}`)).text());
    assert.equal(a.tms.id, 'WebMercatorQuad');
    // the demo is uint16: without rescale the page takes the default one from the statistics
    const demoStats = await server.getJson<Record<string, { percentile_2: number; percentile_98: number }>>(`/cog/statistics?url=${q(DEMO)}`);
    const { percentile_2: p2, percentile_98: p98 } = demoStats.body['b1']!;
    assert.equal(a.tilejsonUrl, `${server.url}/cog/WebMercatorQuad/tilejson.json?url=${q(DEMO)}&tilesize=256&rescale=${q(`${p2},${p98}`)}`);
    const r = await server.get(`/cog/map.html?url=${q(LAEA)}&tileMatrixSetId=EuropeanETRS89_LAEAQuad&tilesize=512`);
    const html = await r.text();
    assert.ok(!html.includes('maplibre-gl.js'), 'the grid viewer needs no MapLibre');
    const b = pageConfig(html);
    assert.equal(b.tms.id, 'EuropeanETRS89_LAEAQuad');
    assert.equal(b.tms.crs, 'http://www.opengis.net/def/crs/EPSG/0/3035');
    // int16: the default rescale from rio-tiler's p2/p98 (expected.json)
    const laea = expectedStats['int16_scale_laea.tif']!.statistics_default.stats['b1']!;
    assert.equal(
      b.tilejsonUrl,
      `${server.url}/cog/EuropeanETRS89_LAEAQuad/tilejson.json?url=${q(LAEA)}&tilesize=512&rescale=${q(`${laea.percentile_2},${laea.percentile_98}`)}`,
    );
    // dataset bounds in the TMS CRS: the fixture is EPSG:3035 natively
    assert.deepEqual(b.datasetBounds, expected.files['int16_scale_laea.tif']!.info.bounds);
    const ts = await server.getJson<{ tileMatrixSetLimits: unknown[] }>(`/cog/tiles/EuropeanETRS89_LAEAQuad?url=${q(LAEA)}`);
    assert.deepEqual(b.limits, ts.body.tileMatrixSetLimits);
  });

  it('default rescale: non-8-bit data without rescale gets p2–p98 of its first band (rio-tiler statistics) and a note; not 8-bit data, not a given rescale', async () => {
    const page = async (file: string, extra = ''): Promise<{ html: string; tilejson: URL }> => {
      const r = await server.get(`/cog/WebMercatorQuad/map.html?url=${q(fixture('datasets', file))}${extra}`);
      assert.equal(r.status, 200);
      const html = await r.text();
      return { html, tilejson: new URL(pageConfig(html).tilejsonUrl) };
    };
    for (const file of ['uint16_nodata_utm.tif', 'float32_nan_4326.tif']) {
      // oracle: rio-tiler's statistics of the fixture at generation time (expected.json)
      const stats = expectedStats[file]!.statistics_default.stats['b1']!;
      const { html, tilejson } = await page(file);
      assert.equal(tilejson.searchParams.get('rescale'), `${stats.percentile_2},${stats.percentile_98}`, file);
      const note = noteText(html);
      assert.ok(
        note.startsWith(
          `Rescaled to ${stats.percentile_2}–${stats.percentile_98} from the dataset's statistics (2nd–98th percentile of b1); add &rescale=min,max to change.`,
        ),
        note,
      );
      const dtype = file.startsWith('uint16') ? 'uint16' : 'float32';
      assert.ok(note.includes(`Without it, ${dtype} values are drawn over the whole ${dtype} range, so tiles look almost black.`), note);
      const link = /<div id="rescale-note">[^]*?<a href="([^"]+)">statistics<\/a>/.exec(html)![1]!.replace(/&amp;/g, '&');
      const viaLink = await server.getJson<Record<string, { percentile_2: number; percentile_98: number }>>(link.slice(server.url.length));
      assert.equal(viaLink.body['b1']!.percentile_2, stats.percentile_2);
      assert.equal(viaLink.body['b1']!.percentile_98, stats.percentile_98);
    }
    // a given rescale is kept as it is, without a note
    const given = await page('uint16_nodata_utm.tif', '&rescale=0,1000');
    assert.deepEqual(given.tilejson.searchParams.getAll('rescale'), ['0,1000']);
    assert.ok(!given.html.includes('id="rescale-note"'));
    // 8-bit data needs none
    const rgb = await page('rgb_uint8_utm.tif');
    assert.equal(rgb.tilejson.searchParams.get('rescale'), null);
    assert.ok(!rgb.html.includes('id="rescale-note"'));
    // an algorithm whose output is 8-bit (hillshade) needs none either
    const hs = await page('uint16_nodata_utm.tif', '&algorithm=hillshade');
    assert.equal(hs.tilejson.searchParams.get('rescale'), null);
  });

  it('errors: unknown TMS and bad parameters are 422, a missing file 404 (no page of broken tiles)', async () => {
    assert.equal((await server.get(`/cog/NZTM2000/map.html?url=${q(DEMO)}`)).status, 422);
    assert.equal((await server.get(`/cog/map.html?url=${q(DEMO)}&tileMatrixSetId=NZTM2000`)).status, 422);
    assert.equal((await server.get(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}&rescale=0`)).status, 422);
    assert.equal((await server.get(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}&tilesize=32`)).status, 422);
    assert.equal((await server.get(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}&colormap_name=nope`)).status, 422);
    assert.equal((await server.get(`/cog/WebMercatorQuad/map.html`)).status, 422);
    assert.equal((await server.get(`/cog/WebMercatorQuad/map.html?url=${q(fixture('datasets', 'missing.tif'))}`)).status, 404);
  });
});

describe('map page in headless Chromium', { skip: browserSkipReason }, () => {
  let server: TestServer;
  let browser: HeadlessBrowser;
  let terrain: number[][];

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser(VIEWPORT);
    const cm = await server.getJson<Record<string, number[]>>('/colorMaps/terrain');
    assert.equal(cm.status, 200);
    terrain = Object.values(cm.body).map((c) => c.slice(0, 3));
    assert.equal(terrain.length, 256);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the page, records every problem, waits until the viewer's first tiles have settled. */
  async function open(pathAndQuery: string): Promise<Session> {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    const tiles: Session['tiles'] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
      if (new URL(r.url()).pathname.startsWith('/cog/tiles/')) tiles.push({ url: r.url(), status: r.status(), body: r.body() });
    });
    const r = await page.goto(`${server.url}${pathAndQuery}`);
    assert.equal(r?.status(), 200);
    assert.match(r?.headers()['content-type'] ?? '', /^text\/html/);
    await page.waitForFunction('window.__mapIdle()', undefined, { timeout: 60_000, polling: 100 });
    // two animation frames: the last tile is drawn, not only loaded
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    return { page, problems, tiles };
  }

  /** Screenshot without the info box, classified pixel by pixel. */
  async function census(page: Page): Promise<PixelCensus> {
    await page.evaluate("document.getElementById('info').style.visibility = 'hidden'");
    const png = await page.screenshot({ type: 'png' });
    await page.evaluate("document.getElementById('info').style.visibility = 'visible'");
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.width, VIEWPORT.width);
    assert.equal(info.height, VIEWPORT.height);
    const near = new Map<number, boolean>();
    const isTerrain = (r: number, g: number, b: number): boolean => {
      const key = (r << 16) | (g << 8) | b;
      let hit = near.get(key);
      if (hit === undefined) {
        hit = terrain.some(([cr, cg, cb]) => (r - cr!) ** 2 + (g - cg!) ** 2 + (b - cb!) ** 2 <= 144);
        near.set(key, hit);
      }
      return hit;
    };
    const out: PixelCensus = { data: 0, terrain: 0, box: { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity } };
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const o = (y * info.width + x) * info.channels;
        const r = data[o]!,
          g = data[o + 1]!,
          b = data[o + 2]!;
        if (Math.abs(r - BACKGROUND[0]!) <= 3 && Math.abs(g - BACKGROUND[1]!) <= 3 && Math.abs(b - BACKGROUND[2]!) <= 3) continue;
        out.data++;
        if (isTerrain(r, g, b)) out.terrain++;
        out.box = { x0: Math.min(out.box.x0, x), y0: Math.min(out.box.y0, y), x1: Math.max(out.box.x1, x + 1), y1: Math.max(out.box.y1, y + 1) };
      }
    }
    return out;
  }

  /** Every tile request answered 200 with a 256×256 image (map.html default tilesize) and the render parameters. */
  async function checkTiles(s: Session, tms: string): Promise<void> {
    assert.ok(s.tiles.length >= 2, `only ${s.tiles.length} tile responses`);
    for (const t of s.tiles) {
      assert.equal(t.status, 200, t.url);
      const u = new URL(t.url);
      assert.ok(u.pathname.startsWith(`/cog/tiles/${tms}/`), u.pathname);
      assert.equal(u.searchParams.get('tilesize'), '256', t.url);
      assert.equal(u.searchParams.get('rescale'), '0,3000', t.url);
      assert.equal(u.searchParams.get('colormap_name'), 'terrain', t.url);
    }
    const meta = await sharp(await s.tiles[0]!.body).metadata();
    assert.equal(meta.width, 256);
    assert.equal(meta.height, 256);
    const stats = await s.page.evaluate<{ requested: number; loaded: number; failed: number }>('window.__tileStats');
    assert.equal(stats.failed, 0);
    assert.ok(stats.loaded >= 2, JSON.stringify(stats));
  }

  /** Clicks at (x, y) and returns the point response and the text the page shows. */
  async function click(page: Page, x: number, y: number): Promise<{ body: PointResponse; url: string; text: string }> {
    const waiting = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/cog/point/'), { timeout: 30_000 });
    await page.mouse.click(x, y);
    const r = await waiting;
    assert.equal(r.status(), 200, r.url());
    const body = (await r.json()) as PointResponse;
    await page.waitForFunction("/^b1: /.test(document.getElementById('values').textContent)", undefined, { timeout: 30_000 });
    const text = await page.evaluate<string>("document.getElementById('values').textContent");
    return { body, url: r.url(), text };
  }

  const assertNoProblems = (s: Session): void => assert.deepEqual(s.problems, [], s.problems.join('\n'));

  it('WebMercatorQuad (MapLibre GL JS): tiles, fit, terrain colours, point values on click', { timeout: 180_000 }, async () => {
    const s = await open(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}&${RENDER}`);
    try {
      await checkTiles(s, 'WebMercatorQuad');
      // MapLibre got its tiles from our TileJSON and fitted the map to the TileJSON bounds
      const tj = await server.getJson<{ bounds: number[] }>(`/cog/WebMercatorQuad/tilejson.json?url=${q(DEMO)}`);
      const [w, so, e, n] = tj.body.bounds as [number, number, number, number];
      const [ul, lr] = await s.page.evaluate<Array<{ x: number; y: number }>, number[]>(
        ([w, s, e, n]) => {
          const map = (globalThis as unknown as { __map: { project(p: number[]): { x: number; y: number } } }).__map;
          return [map.project([w!, n!]), map.project([e!, s!])];
        },
        [w, so, e, n],
      );
      const fit: Rect = { x0: ul!.x, y0: ul!.y, x1: lr!.x, y1: lr!.y };
      // fitBounds with 20 px padding: inside the viewport, filling it in the limiting dimension
      assert.ok(fit.x0 >= 19 && fit.y0 >= 19 && fit.x1 <= VIEWPORT.width - 19 && fit.y1 <= VIEWPORT.height - 19, JSON.stringify(fit));
      const fill = Math.max((fit.x1 - fit.x0) / (VIEWPORT.width - 40), (fit.y1 - fit.y0) / (VIEWPORT.height - 40));
      assert.ok(fill > 0.98 && fill < 1.02, `fit fills ${fill}`);

      const c = await census(s.page);
      // the demo is a disc of data inside its (UTM) bounds: drawn inside the projected bounds,
      // spanning most of them, in terrain colours
      assert.ok(c.box.x0 >= fit.x0 - 2 && c.box.y0 >= fit.y0 - 2 && c.box.x1 <= fit.x1 + 2 && c.box.y1 <= fit.y1 + 2, JSON.stringify({ box: c.box, fit }));
      assert.ok(c.box.x1 - c.box.x0 > 0.85 * (fit.x1 - fit.x0) && c.box.y1 - c.box.y0 > 0.85 * (fit.y1 - fit.y0), JSON.stringify({ box: c.box, fit }));
      const area = (fit.x1 - fit.x0) * (fit.y1 - fit.y0);
      assert.ok(c.data > 0.6 * area, `data pixels ${c.data} of ${area}`);
      assert.ok(c.terrain > 0.95 * c.data, `terrain-coloured ${c.terrain} of ${c.data}`);

      // click in the middle of the dataset
      const cx = (fit.x0 + fit.x1) / 2,
        cy = (fit.y0 + fit.y1) / 2;
      const lngLat = await s.page.evaluate<{ lng: number; lat: number }, number[]>(
        ([x, y]) => (globalThis as unknown as { __map: { unproject(p: number[]): { lng: number; lat: number } } }).__map.unproject([x!, y!]),
        [Math.round(cx), Math.round(cy)],
      );
      const p = await click(s.page, Math.round(cx), Math.round(cy));
      assert.ok(Math.abs(p.body.coordinates[0] - lngLat.lng) < 1e-9 && Math.abs(p.body.coordinates[1] - lngLat.lat) < 1e-9, JSON.stringify(p.body));
      const u = new URL(p.url);
      assert.equal(u.searchParams.get('url'), DEMO);
      assert.equal(u.searchParams.get('coord_crs'), null);
      assert.equal(typeof p.body.values[0], 'number');
      assert.deepEqual(p.body.band_names, ['b1']);
      assert.equal(p.text.split('\n')[0], `b1: ${p.body.values[0]}`);
      // the page shows what the server says for that place
      const again = await server.getJson<PointResponse>(`/cog/point/${lngLat.lng},${lngLat.lat}?url=${q(DEMO)}`);
      assert.deepEqual(again.body.values, p.body.values);
      assertNoProblems(s);
    } finally {
      await s.page.close();
    }
  });

  it(
    'a uint16 DEM without rescale (the demo): tiles rescaled to p2–p98 of /cog/statistics, grey levels not black, the note on the page',
    { timeout: 180_000 },
    async () => {
      const stats = (await server.getJson<Record<string, { percentile_2: number; percentile_98: number }>>(`/cog/statistics?url=${q(DEMO)}`)).body['b1']!;
      const s = await open(`/cog/WebMercatorQuad/map.html?url=${q(DEMO)}`);
      try {
        assert.ok(s.tiles.length >= 2, `only ${s.tiles.length} tile responses`);
        for (const t of s.tiles) {
          assert.equal(t.status, 200, t.url);
          assert.equal(new URL(t.url).searchParams.get('rescale'), `${stats.percentile_2},${stats.percentile_98}`, t.url);
        }
        const note = await s.page.evaluate<string>("document.getElementById('rescale-note').innerText");
        assert.match(note, new RegExp(`^Rescaled to ${stats.percentile_2}–${stats.percentile_98} from the dataset's statistics`));
        assert.match(note, /uint16 values are drawn over the whole uint16 range, so tiles look almost black/);
        // the screenshot: the disc of data is drawn in grey levels spread over the range, not black
        await s.page.evaluate("document.getElementById('info').style.visibility = 'hidden'");
        const { data, info } = await sharp(await s.page.screenshot({ type: 'png' }))
          .raw()
          .toBuffer({ resolveWithObject: true });
        let shown = 0,
          dark = 0,
          bright = 0;
        for (let o = 0; o < data.length; o += info.channels) {
          const r = data[o]!,
            g = data[o + 1]!,
            b = data[o + 2]!;
          if (Math.abs(r - BACKGROUND[0]!) <= 3 && Math.abs(g - BACKGROUND[1]!) <= 3 && Math.abs(b - BACKGROUND[2]!) <= 3) continue;
          shown++;
          if (Math.max(r, g, b) < 32) dark++;
          if (Math.max(r, g, b) > 128) bright++;
        }
        assert.ok(shown > 0.3 * VIEWPORT.width * VIEWPORT.height, `data pixels ${shown}`);
        // rasterio, the demo's valid pixels stretched over their p2..p98: 40 % below grey 32, 20 %
        // above 128; drawn over the raw uint16 range, every one is below grey 12
        assert.ok(dark < 0.55 * shown, `${dark} of ${shown} data pixels nearly black`);
        assert.ok(bright > 0.12 * shown, `${bright} of ${shown} data pixels bright`);
        assertNoProblems(s);
      } finally {
        await s.page.close();
      }
    },
  );

  /** Screen rectangle of TMS-CRS bounds in the grid viewer's current view. */
  async function gridRect(page: Page, b: number[]): Promise<Rect> {
    const v = await page.evaluate<{ cx: number; cy: number; res: number; width: number; height: number }>('window.__grid.view()');
    const left = v.cx - (v.width / 2) * v.res,
      top = v.cy + (v.height / 2) * v.res;
    return { x0: (b[0]! - left) / v.res, x1: (b[2]! - left) / v.res, y0: (top - b[3]!) / v.res, y1: (top - b[1]!) / v.res };
  }

  it('EuropeanETRS89_LAEAQuad (grid viewer): data exactly at the dataset bounds, terrain colours, click', { timeout: 180_000 }, async () => {
    const s = await open(`/cog/EuropeanETRS89_LAEAQuad/map.html?url=${q(LAEA)}&${RENDER}`);
    try {
      await checkTiles(s, 'EuropeanETRS89_LAEAQuad');
      // the fixture's native CRS is EPSG:3035, the TMS CRS: its bounds (GDAL) are exact on screen
      const info = expected.files['int16_scale_laea.tif']!.info;
      const rect = await gridRect(s.page, info.bounds);
      assert.ok(rect.x0 > 0 && rect.y0 > 0 && rect.x1 < VIEWPORT.width && rect.y1 < VIEWPORT.height, JSON.stringify(rect));
      const fill = Math.max((rect.x1 - rect.x0) / VIEWPORT.width, (rect.y1 - rect.y0) / VIEWPORT.height);
      assert.ok(fill > 0.85 && fill < 0.95, `fit fills ${fill}`); // the viewer leaves a 10 % margin
      const c = await census(s.page);
      // Edge tolerance: 2 screen px (canvas smoothing) plus one pixel of the finest tiles drawn,
      // since rio-tiler's tile read (a warped VRT at the native resolution, then read at the tile
      // size) can mark a tile pixel valid whose centre is just outside the dataset.
      const limits = (await server.getJson<{ tileMatrixSetLimits: Array<{ tileMatrix: string }> }>(`/cog/tiles/EuropeanETRS89_LAEAQuad?url=${q(LAEA)}`)).body
        .tileMatrixSetLimits;
      const finest = limits[limits.length - 1]!.tileMatrix;
      const doc = await server.getJson<{ tileMatrices: Array<{ id: string; cellSize: number }> }>('/tileMatrixSets/EuropeanETRS89_LAEAQuad');
      const tilePx = doc.body.tileMatrices.find((m) => m.id === finest)!.cellSize / ((info.bounds[2]! - info.bounds[0]!) / (rect.x1 - rect.x0));
      assert.ok(tilePx > 1 && tilePx < 4, `tile pixel = ${tilePx} screen px`);
      for (const k of ['x0', 'y0', 'x1', 'y1'] as const)
        assert.ok(Math.abs(c.box[k] - rect[k]) <= 2 + tilePx, `${k}: ${JSON.stringify({ box: c.box, rect, tilePx })}`);
      const area = (rect.x1 - rect.x0) * (rect.y1 - rect.y0);
      // 1500 of the 320×300 pixels are nodata (a lower-left block): the rest is data
      const validShare = 1 - 1500 / (info.width * info.height);
      assert.ok(c.data > (validShare - 0.02) * area && c.data < (validShare + 0.02) * area, `data pixels ${c.data} of ${area}`);
      assert.ok(c.terrain > 0.95 * c.data, `terrain-coloured ${c.terrain} of ${c.data}`);

      // click in the middle: coordinates in the TMS CRS (coord_crs), values as the point endpoint says
      const x = Math.round((rect.x0 + rect.x1) / 2),
        y = Math.round((rect.y0 + rect.y1) / 2);
      const p = await click(s.page, x, y);
      const u = new URL(p.url);
      assert.equal(u.searchParams.get('coord_crs'), 'http://www.opengis.net/def/crs/EPSG/0/3035');
      const [bx0, , bx1, by1] = info.bounds as [number, number, number, number];
      const res = (bx1 - bx0) / (rect.x1 - rect.x0); // metres per screen pixel
      const wantX = bx0 + (x + 0.5 - rect.x0) * res,
        wantY = by1 - (y + 0.5 - rect.y0) * res;
      assert.ok(
        Math.abs(p.body.coordinates[0] - wantX) <= res && Math.abs(p.body.coordinates[1] - wantY) <= res,
        JSON.stringify({ got: p.body.coordinates, wantX, wantY }),
      );
      assert.equal(typeof p.body.values[0], 'number');
      assert.equal(p.text.split('\n')[0], `b1: ${p.body.values[0]}`);
      const again = await server.getJson<PointResponse>(
        `/cog/point/${p.body.coordinates[0]},${p.body.coordinates[1]}?url=${q(LAEA)}&coord_crs=${q('EPSG:3035')}`,
      );
      assert.deepEqual(again.body.values, p.body.values);
      assertNoProblems(s);
    } finally {
      await s.page.close();
    }
  });

  // WorldCRS84Quad (lon/lat) and GNOSISGlobalGrid (EPSG:4326 in lat/lon axis order, coalesced
  // tiles at this latitude): the TMS CRS is its own geographic CRS, so the TileJSON bounds are
  // TMS-CRS bounds.
  for (const [tms, crs] of [
    ['WorldCRS84Quad', 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'],
    ['GNOSISGlobalGrid', 'http://www.opengis.net/def/crs/EPSG/0/4326'],
  ] as const) {
    it(`${tms} (grid viewer) on the demo COG: tiles, fit, terrain colours, click`, { timeout: 180_000 }, async () => {
      const s = await open(`/cog/${tms}/map.html?url=${q(DEMO)}&${RENDER}`);
      try {
        await checkTiles(s, tms);
        const tj = await server.getJson<{ bounds: number[] }>(`/cog/${tms}/tilejson.json?url=${q(DEMO)}`);
        const rect = await gridRect(s.page, tj.body.bounds);
        assert.ok(rect.x0 > 0 && rect.y0 > 0 && rect.x1 < VIEWPORT.width && rect.y1 < VIEWPORT.height, JSON.stringify(rect));
        const c = await census(s.page);
        assert.ok(
          c.box.x0 >= rect.x0 - 2 && c.box.y0 >= rect.y0 - 2 && c.box.x1 <= rect.x1 + 2 && c.box.y1 <= rect.y1 + 2,
          JSON.stringify({ box: c.box, rect }),
        );
        assert.ok(c.box.x1 - c.box.x0 > 0.85 * (rect.x1 - rect.x0) && c.box.y1 - c.box.y0 > 0.85 * (rect.y1 - rect.y0), JSON.stringify({ box: c.box, rect }));
        assert.ok(c.data > 0.6 * (rect.x1 - rect.x0) * (rect.y1 - rect.y0), `data pixels ${c.data}`);
        assert.ok(c.terrain > 0.95 * c.data, `terrain-coloured ${c.terrain} of ${c.data}`);

        const p = await click(s.page, Math.round((rect.x0 + rect.x1) / 2), Math.round((rect.y0 + rect.y1) / 2));
        assert.equal(new URL(p.url).searchParams.get('coord_crs'), crs);
        const [w, so, e, n] = tj.body.bounds as [number, number, number, number];
        const deg = (e - w) / (rect.x1 - rect.x0);
        assert.ok(Math.abs(p.body.coordinates[0] - (w + e) / 2) <= deg && Math.abs(p.body.coordinates[1] - (so + n) / 2) <= deg, JSON.stringify(p.body));
        assert.equal(typeof p.body.values[0], 'number');
        assert.equal(p.text.split('\n')[0], `b1: ${p.body.values[0]}`);
        const again = await server.getJson<PointResponse>(`/cog/point/${p.body.coordinates[0]},${p.body.coordinates[1]}?url=${q(DEMO)}`);
        assert.deepEqual(again.body.values, p.body.values);
        assertNoProblems(s);
      } finally {
        await s.page.close();
      }
    });
  }
});
