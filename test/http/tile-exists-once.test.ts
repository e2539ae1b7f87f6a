/**
 * A tile request tests whether the tile exists once (a 21-point densified bounds transform):
 * not again in the route, nor per asset of a STAC item.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it, mock } from 'node:test';
import { getTileMatrixSet } from '../../src/geo/tms.ts';
import { GridReader } from '../../src/readers/grid/grid-reader.ts';
import { StacReader } from '../../src/readers/stac/stac-reader.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const datasets = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { wgs84_bounds: number[] }>;
};
const stac = JSON.parse(readFileSync(fixture('stac', 'expected.json'), 'utf8')) as { tile: { z: number; x: number; y: number } };

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

/** Counts tileExists calls of both reader kinds while `run` runs. */
async function countTileExists(run: () => Promise<void>): Promise<number> {
  const grid = mock.method(GridReader.prototype, 'tileExists');
  const item = mock.method(StacReader.prototype, 'tileExists');
  try {
    await run();
    return grid.mock.callCount() + item.mock.callCount();
  } finally {
    grid.mock.restore();
    item.mock.restore();
  }
}

describe('tileExists runs once per tile', () => {
  it('/cog: one test for a tile inside, one for a tile outside (404)', async () => {
    const [w, s, e, n] = datasets.files['uint16_nodata_utm.tif']!.wgs84_bounds;
    const t = getTileMatrixSet('WebMercatorQuad').tileAt((w + e) / 2, (s + n) / 2, 12, true);
    const url = q(fixture('datasets', 'uint16_nodata_utm.tif'));
    const inside = await countTileExists(async () => {
      const r = await server.get(`/cog/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.png?url=${url}&rescale=0,40000`);
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    });
    assert.equal(inside, 1);
    const outside = await countTileExists(async () => {
      const r = await server.get(`/cog/tiles/WebMercatorQuad/12/0/0.png?url=${url}`);
      assert.equal(r.status, 404);
      await r.arrayBuffer();
    });
    assert.equal(outside, 1);
  });

  it('/stac: one test for the item, none per asset', async () => {
    const { z, x, y } = stac.tile;
    const n = await countTileExists(async () => {
      const r = await server.get(
        `/stac/tiles/WebMercatorQuad/${z}/${x}/${y}.png?url=${q(fixture('stac', 'item.json'))}&assets=red&assets=green&assets=nir&rescale=0,4000`,
      );
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    });
    assert.equal(n, 1);
  });
});
