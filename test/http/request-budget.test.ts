/**
 * Bounded work per request and per process, over HTTP: hostile headers answer 400 at open, a
 * request over its memory budget 400 before allocating, a request past its deadline 503, and
 * heavy requests beyond the process budget queue or get 503 + Retry-After while /healthz answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { estimateRequestBytes } from '../../src/http/admission.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const HOSTILE = (name: string): string => q(fixture('hostile', name));

/** WebMercatorQuad tile holding lon/lat at zoom z. */
function tileAt(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [x, y];
}

async function detail(r: Response): Promise<string> {
  const body = (await r.json()) as { detail: unknown };
  assert.equal(typeof body.detail, 'string', JSON.stringify(body));
  return body.detail as string;
}

describe('request budget over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("answers issue 9's SamplesPerPixel=65535 COG with a 400 naming the field, on every route", async () => {
    const url = HOSTILE('spp_65535.tif');
    for (const path of [
      `/cog/info?url=${url}`,
      `/cog/preview.png?url=${url}`,
      `/cog/statistics?url=${url}&max_size=256`,
      `/cog/tiles/WebMercatorQuad/14/8874/5556.png?url=${url}`,
    ]) {
      const r = await server.get(path);
      assert.equal(r.status, 400, path);
      assert.match(await detail(r), /BitsPerSample has 3 values for SamplesPerPixel=65535/, path);
    }
  });

  it('answers a ModelPixelScale of 5e-324 or 1e308 with a 400 naming the tag (issue 16)', async () => {
    for (const name of ['pixel_scale_tiny.tif', 'pixel_scale_huge.tif']) {
      for (const path of [`/cog/info?url=${HOSTILE(name)}`, `/cog/tiles/WebMercatorQuad/14/8874/5556.png?url=${HOSTILE(name)}`]) {
        const r = await server.get(path);
        assert.equal(r.status, 400, path);
        assert.match(await detail(r), /ModelPixelScale .* gives a geotransform that/, path);
      }
    }
  });

  it('refuses a tilesize=4096 tile of 16 float64 bands over the request budget, serves one band at 2048', async () => {
    const url = HOSTILE('many_bands.tif');
    const [x, y] = tileAt(15.0022, 50.5505, 16); // the middle of the 320 m square at UTM 33N (500160, 5599840)
    const tile = `/cog/tiles/WebMercatorQuad/16/${x}/${y}.npy?url=${url}`;
    assert.equal((await server.get(tile)).status, 200);
    const big = await server.get(`${tile}&tilesize=4096`);
    assert.equal(big.status, 400);
    assert.match(await detail(big), /^A 4096×4096 .* of 16 band\(s\) needs \d+ MiB, .* over its memory budget of \d+ MiB \(RASTILE_MAX_REQUEST_MB\)$/);
    // one band at 2048²: the warp's coordinates, band, masks and encoder fit in the budget
    const one = await server.get(`${tile}&tilesize=2048&bidx=1`);
    assert.equal(one.status, 200);
  });

  it('the default budget serves every documented tilesize: a 4096² PNG tile, with a colormap and with hillshade (buffer=3 as TiTiler asks)', async () => {
    const demo = q(fixture('../../demo/rastile-demo.tif'));
    for (const extra of ['rescale=0,3000', 'rescale=0,3000&colormap_name=terrain', 'algorithm=hillshade&buffer=3']) {
      const r = await server.get(`/cog/tiles/WebMercatorQuad/11/1072/724.png?url=${demo}&tilesize=4096&${extra}`);
      assert.equal(r.status, 200, `${extra}: ${r.status === 200 ? '' : await r.text()}`);
      const png = Buffer.from(await r.arrayBuffer());
      assert.equal(png.readUInt32BE(16), 4096, extra);
      assert.equal(png.readUInt32BE(20), 4096, extra);
    }
  });
});

describe('admission estimate', () => {
  it('reads output pixels × (bands + 2) × 4 bytes from the parameters', () => {
    assert.equal(estimateRequestBytes('/cog/tiles/WebMercatorQuad/1/2/3.png?x', {}), 256 * 256 * 5 * 4);
    assert.equal(estimateRequestBytes('/cog/tiles/WebMercatorQuad/1/2/3@2x.png', { tilesize: '4096', bidx: ['1', '2'] }), 8192 * 8192 * 4 * 4);
    assert.equal(estimateRequestBytes('/cog/tiles/WebMercatorQuad/1/2/3', { tilesize: '512', buffer: '2', expression: 'b1;b2;b3;b4' }), 516 * 516 * 6 * 4);
    assert.equal(estimateRequestBytes('/cog/preview/300x200.png', {}), 300 * 200 * 5 * 4);
    assert.equal(estimateRequestBytes('/cog/preview.png', { width: '100' }), 100 * 100 * 5 * 4);
    assert.equal(estimateRequestBytes('/cog/preview.png', {}), 1024 * 1024 * 5 * 4);
    assert.equal(estimateRequestBytes('/cog/statistics', { max_size: '2048', bidx: '1' }), 2048 * 2048 * 3 * 4);
    assert.equal(estimateRequestBytes('/healthz', {}), 0);
    assert.equal(estimateRequestBytes('/cog/info', { width: 'NaN' }), 0);
  });
});

describe('request deadline', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((c) => (c.limits.requestTimeoutMs = 1));
  });
  after(() => server.close());

  it('cuts a request past RASTILE_REQUEST_TIMEOUT_MS with 503, Retry-After and a detail', async () => {
    const r = await server.get(`/cog/statistics?url=${HOSTILE('many_bands.tif')}`);
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '2');
    assert.match(await detail(r), /ran longer than 1 ms \(RASTILE_REQUEST_TIMEOUT_MS\)/);
    assert.equal((await server.get('/healthz')).status, 200);
  });
});

describe('process budget', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((c) => {
      c.limits.maxInflightBytes = 64 * 1024 * 1024;
      c.limits.maxQueue = 2;
    });
  });
  after(() => server.close());

  it('queues concurrent heavy requests or answers 503 + Retry-After; /healthz answers meanwhile', async () => {
    // estimated at 2048² px × 5 × 4 B = 80 MiB each (heavy); the 160×120 file makes the work small
    const heavy = `/cog/preview.png?url=${HOSTILE('base_rgb.tif')}&max_size=2048`;
    const pending = Array.from({ length: 8 }, () => server.get(heavy));
    const health = await server.get('/healthz');
    assert.equal(health.status, 200);
    const answers = await Promise.all(pending);
    const statuses = answers.map((r) => r.status);
    assert.ok(
      statuses.every((s) => s === 200 || s === 503),
      String(statuses),
    );
    assert.ok(statuses.includes(200), String(statuses));
    for (const r of answers) {
      if (r.status !== 503) continue;
      assert.equal(r.headers.get('retry-after'), '2');
      assert.match(await detail(r), /Server busy: 2 large requests already wait for memory \(RASTILE_MAX_QUEUE=2\)/);
    }
    // everything was given back: a new heavy request is admitted at once
    assert.equal((await server.get(heavy)).status, 200);
  });
});
