/**
 * /mosaicjson through the response cache (issue 12): the key holds the MosaicJSON document's
 * version and the version of every COG the answer read, so a repeat tile is a hit (counted on
 * /metrics), and a COG or the document changed in place is a miss with the new answer. Oracle:
 * the z10 tile's sha256 from rasterio.merge(method='first') in the fixture's expected.json, for
 * the assets in index order [a, b] and, once a.tif and b.tif swapped their bytes, [b, a].
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface ExpectedTile {
  z: number;
  x: number;
  y: number;
  order: string[];
  sha256: string;
}

const expected = (JSON.parse(readFileSync(fixture('mosaicjson', 'expected.json'), 'utf8')) as { tiles: ExpectedTile[] }).tiles;
const tileOf = (order: string): ExpectedTile => expected.find((t) => t.x === 541 && t.y === 368 && t.order.join() === order)!;

/** Writes `bytes` at `file` in place, dated `agoMs` in the past (outside the racy window). */
function writeDated(file: string, bytes: Uint8Array | string, agoMs: number): void {
  writeFileSync(file, bytes);
  const t = new Date(Date.now() - agoMs);
  utimesSync(file, t, t);
}

/** The uint16 data of a .npy body (v1 header). */
function npyData(buf: Buffer): Buffer {
  return buf.subarray(10 + buf.readUInt16LE(8));
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('/mosaicjson in the response cache', () => {
  let server: TestServer;
  let tmp: string;
  let docPath: string;
  const A = readFileSync(fixture('mosaicjson', 'a.tif'));
  const B = readFileSync(fixture('mosaicjson', 'b.tif'));

  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-mosaic-cache-'));
    writeDated(path.join(tmp, 'a.tif'), A, 60_000);
    writeDated(path.join(tmp, 'b.tif'), B, 60_000);
    const doc = JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')) as Record<string, unknown>;
    doc.asset_prefix = `${tmp}/`;
    docPath = path.join(tmp, 'mosaic.json');
    writeDated(docPath, JSON.stringify(doc), 60_000);
    server = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tmp];
    });
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const tile = async (): Promise<{ cache: string | null; etag: string | null; sha: string; status: number }> => {
    const r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.npy?url=${q(docPath)}&return_mask=false`);
    const body = Buffer.from(await r.arrayBuffer());
    return { cache: r.headers.get('x-rastile-cache'), etag: r.headers.get('etag'), sha: sha(npyData(body)), status: r.status };
  };
  const hits = async (): Promise<number> => {
    const text = await (await server.get('/metrics')).text();
    return Number(/^rastile_response_cache_total\{outcome="hit_memory"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  it('a repeat tile is a hit (on /metrics), with the same bytes', async () => {
    const first = await tile();
    assert.equal(first.status, 200);
    assert.equal(first.cache, 'miss');
    assert.equal(first.sha, tileOf('a.tif,b.tif').sha256);
    const hits0 = await hits();
    const second = await tile();
    assert.equal(second.cache, 'hit');
    assert.equal(second.etag, first.etag);
    assert.equal(second.sha, first.sha);
    assert.equal(await hits(), hits0 + 1);
    const info = `/mosaicjson/info?url=${q(docPath)}`;
    await server.get(info);
    assert.equal((await server.get(info)).headers.get('x-rastile-cache'), 'hit');
  });

  it('a COG changed in place is a miss with the new pixels', async () => {
    const before = await tile();
    writeDated(path.join(tmp, 'a.tif'), B, 30_000);
    writeDated(path.join(tmp, 'b.tif'), A, 30_000);
    const after = await tile();
    assert.equal(after.status, 200);
    assert.equal(after.cache, 'miss');
    assert.notEqual(after.etag, before.etag);
    assert.equal(after.sha, tileOf('b.tif,a.tif').sha256, 'the new bytes, as rasterio.merge(first) of [b, a]');
    assert.equal((await tile()).cache, 'hit');
  });

  it('a rewritten document is a miss', async () => {
    const before = await tile();
    const doc = JSON.parse(readFileSync(docPath, 'utf8')) as { tiles: Record<string, string[]> };
    for (const k of Object.keys(doc.tiles)) doc.tiles[k] = [...doc.tiles[k]].reverse();
    writeDated(docPath, JSON.stringify(doc), 20_000);
    const after = await tile();
    assert.equal(after.cache, 'miss');
    assert.notEqual(after.etag, before.etag);
    // a.tif holds b's bytes and b.tif a's since the previous test: reversed, the order is [a, b] again.
    assert.equal(after.sha, tileOf('a.tif,b.tif').sha256);
  });
});
