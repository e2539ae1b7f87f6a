/**
 * The real demo dataset, demo/olinda-landsat7.tif (Landsat 7 ETM+ bands 1-4 over Olinda, Brazil;
 * scripts/make-real-demo.py): /cog/info, /cog/statistics and WebMercatorQuad tiles against
 * rasterio/rio-tiler (expected values: scripts/fixtures/real_demo.py, rasterio 1.3 / GDAL 3.6.2).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { assertClose } from '../helpers/assert-close.ts';
import { fetchNpy } from '../helpers/npy.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface OracleTile {
  z: number;
  x: number;
  y: number;
  tilesize: number;
  offset: number;
}

interface Expected {
  info: Record<string, unknown>;
  statistics: Record<string, Record<string, unknown>>;
  maxzoom: number;
  tiles: OracleTile[];
}

const DEMO = q(path.join(REPO, 'demo', 'olinda-landsat7.tif'));
const expected = JSON.parse(readFileSync(fixture('realdemo', 'expected.json'), 'utf8')) as Expected;
const BANDS = 4;

describe('real demo dataset: Landsat 7 over Olinda', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("/cog/info equals rasterio's", async () => {
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${DEMO}`);
    assert.equal(r.status, 200);
    assertClose(r.body['bounds'], expected.info['bounds'], 1e-12, 'bounds');
    assert.deepEqual({ ...r.body, bounds: null }, { ...expected.info, bounds: null });
  });

  it("/cog/statistics equals rio-tiler's, percentiles and histograms included", async () => {
    const r = await server.getJson<Record<string, Record<string, unknown>>>(`/cog/statistics?url=${DEMO}`);
    assert.equal(r.status, 200);
    assertClose(r.body, expected.statistics, 1e-9, 'statistics');
  });

  const blob = inflateSync(readFileSync(fixture('realdemo', 'tiles.bin.z')));
  for (const t of expected.tiles) {
    it(`WebMercatorQuad ${t.z}/${t.x}/${t.y} @${t.tilesize} px (native zoom ${expected.maxzoom}): every band equals rio-tiler's`, async () => {
      const npy = await fetchNpy(server, `/cog/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${DEMO}&tilesize=${t.tilesize}`);
      const n = t.tilesize * t.tilesize;
      assert.deepEqual(npy.shape, [BANDS + 1, t.tilesize, t.tilesize]);
      const maskAt = t.offset + BANDS * n;
      let either = 0;
      let equal = 0;
      for (let i = 0; i < n; i++) {
        const ok = blob[maskAt + i] === 1;
        const ours = npy.data[BANDS * n + i] !== 0;
        if (!ok && !ours) continue;
        either++;
        let same = ok === ours;
        for (let b = 0; same && b < BANDS; b++) same = npy.data[b * n + i] === blob[t.offset + b * n + i];
        if (same) equal++;
      }
      // nearest sampling may pick a neighbour where a pixel centre falls on a source pixel edge
      const share = (100 * equal) / either;
      assert.ok(either > 0 && share >= 99, `${share.toFixed(2)} % of ${either} pixels valid in either tile equal`);
    });
  }
});
