/**
 * `rastile mosaic create`: the index cogeo-mosaic wrote for TiTiler's cog1/cog2 fixture
 * (../shared/fixtures/titiler/mosaic.json, when present) is reproduced from our own headers; a
 * document created from the committed COGs is served and its tiles equal rasterio.merge
 * (test/fixtures/mosaicjson/expected.json); bad arguments fail with a message.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mosaicMain } from '../../src/cli/mosaic-create.ts';
import { fixture, q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface Doc {
  minzoom: number;
  maxzoom: number;
  quadkey_zoom: number;
  bounds: number[];
  tiles: Record<string, string[]>;
}

describe('rastile mosaic create', () => {
  let tmp: string;
  let server: TestServer;
  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-mosaic-create-'));
    server = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tmp];
    });
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const T = path.join(SHARED, 'fixtures', 'titiler');
  it(
    "reproduces cogeo-mosaic's index of TiTiler's mosaic.json",
    { skip: !existsSync(path.join(T, 'mosaic.json')) && 'needs ../shared/fixtures/titiler' },
    async () => {
      const out = path.join(tmp, 'titiler.json');
      const cwd = process.cwd();
      process.chdir(T); // the reference lists the assets by their names relative to the folder
      try {
        assert.equal(await mosaicMain(['create', '-o', out, 'cog1.tif', 'cog2.tif']), 0);
      } finally {
        process.chdir(cwd);
      }
      const ours = JSON.parse(readFileSync(out, 'utf8')) as Doc;
      const ref = JSON.parse(readFileSync(path.join(T, 'mosaic.json'), 'utf8')) as Doc;
      assert.deepEqual([ours.minzoom, ours.maxzoom, ours.quadkey_zoom], [ref.minzoom, ref.maxzoom, ref.quadkey_zoom]);
      assert.deepEqual(Object.keys(ours.tiles).sort(), Object.keys(ref.tiles).sort());
      for (const [k, v] of Object.entries(ref.tiles)) assert.deepEqual(ours.tiles[k], v, k);
      ours.bounds.forEach((b, i) => assert.ok(Math.abs(b - ref.bounds[i]) < 1e-8, `bounds[${i}] ${b} vs ${ref.bounds[i]}`));
    },
  );

  it('a created document is served; its z10 tiles equal rasterio.merge(first)', async () => {
    const expected = JSON.parse(readFileSync(fixture('mosaicjson', 'expected.json'), 'utf8')) as {
      tiles: Array<{ z: number; x: number; y: number; order: string[]; sha256: string }>;
    };
    const a = fixture('mosaicjson', 'a.tif');
    const b = fixture('mosaicjson', 'b.tif');
    const list = path.join(tmp, 'list.txt');
    writeFileSync(list, `# COGs\n${a}\n${b}\n`);
    for (const extra of [[], ['--quadkey-zoom', '11'], ['--quadkey-zoom', '6', '--minzoom', '8', '--maxzoom', '12']]) {
      const out = path.join(tmp, `created-${extra.join('')}.json`);
      assert.equal(await mosaicMain(['create', '--input', list, '-o', out, ...extra]), 0);
      const doc = JSON.parse(readFileSync(out, 'utf8')) as Doc;
      if (extra.length === 0) assert.deepEqual([doc.minzoom, doc.maxzoom, doc.quadkey_zoom], [9, 10, 9]);
      if (extra.length === 6) assert.deepEqual([doc.minzoom, doc.maxzoom, doc.quadkey_zoom], [8, 12, 6]);
      for (const t of expected.tiles.filter((e) => e.order[0] === 'a.tif')) {
        const r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${q(out)}&return_mask=false`);
        const body = Buffer.from(await r.arrayBuffer());
        assert.equal(r.status, 200, body.toString().slice(0, 300));
        const data = body.subarray(10 + body.readUInt16LE(8));
        assert.equal(createHash('sha256').update(data).digest('hex'), t.sha256, `${extra.join(' ')} tile ${t.x},${t.y}`);
      }
    }
  });

  it('bad arguments', async () => {
    assert.equal(await mosaicMain(['create', '--quadkey-zoom', 'x', fixture('mosaicjson', 'a.tif')]), 1);
    assert.equal(await mosaicMain(['create']), 1);
    assert.equal(await mosaicMain(['create', path.join(tmp, 'missing.tif')]), 1);
    assert.equal(await mosaicMain(['nope']), 2);
    assert.equal(await mosaicMain(['create', '--bogus']), 2);
  });
});
