/**
 * A MosaicJSON document served over HTTP (the local Range server) and rewritten between two
 * requests: the next answer is the new document's, never the old one's. The parsed-document
 * cache and the response cache key on the document's version (its ETag, or Last-Modified; a
 * server without either gets no reuse at all), re-validated after RASTILE_REVALIDATE_MS (0 here:
 * on every use; the default 10 s bound is the one every remote dataset has, README "Versions").
 * The rewrites keep the size and fall within one second: a Last-Modified that recent is not
 * trusted as a version (src/sources/remote-version.ts), or the second answer would be the old one.
 * Oracle: the z10 tile's sha256 from rasterio.merge(method='first') for [a, b] and [b, a]
 * (test/fixtures/mosaicjson/expected.json).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface ExpectedTile {
  x: number;
  y: number;
  order: string[];
  sha256: string;
}
const expected = (JSON.parse(readFileSync(fixture('mosaicjson', 'expected.json'), 'utf8')) as { tiles: ExpectedTile[] }).tiles;
const shaOf = (order: string): string => expected.find((t) => t.x === 541 && t.y === 368 && t.order.join() === order)!.sha256;
const npyData = (buf: Buffer): Buffer => buf.subarray(10 + buf.readUInt16LE(8));
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

for (const validators of ['etag', 'last-modified', 'none'] as const) {
  describe(`a MosaicJSON over HTTP rewritten between requests (validators: ${validators})`, () => {
    let tmp: string;
    let http: RangeServer;
    let server: TestServer;
    const writeDoc = (order: string[]): void => {
      const doc = JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')) as { tiles: Record<string, string[]>; asset_prefix?: string };
      doc.asset_prefix = `${http.url}/`;
      for (const k of Object.keys(doc.tiles)) doc.tiles[k] = order;
      writeFileSync(path.join(tmp, 'mosaic.json'), JSON.stringify(doc)); // the same size for both orders
    };
    before(async () => {
      tmp = mkdtempSync(path.join(tmpdir(), 'rastile-mosaic-http-'));
      copyFileSync(fixture('mosaicjson', 'a.tif'), path.join(tmp, 'a.tif'));
      copyFileSync(fixture('mosaicjson', 'b.tif'), path.join(tmp, 'b.tif'));
      http = await startRangeServer({ root: tmp, validators });
      server = await startTestServer((c) => {
        c.sources.revalidateMs = 0;
      });
    });
    after(async () => {
      await server.close();
      await http.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    const tile = async (): Promise<{ status: number; sha: string }> => {
      const r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.npy?url=${q(`${http.url}/mosaic.json`)}&return_mask=false`);
      return { status: r.status, sha: sha(npyData(Buffer.from(await r.arrayBuffer()))) };
    };

    it('each request answers from the document as it is now', async () => {
      for (const order of [
        ['a.tif', 'b.tif'],
        ['b.tif', 'a.tif'],
        ['a.tif', 'b.tif'],
      ]) {
        writeDoc(order);
        const first = await tile();
        assert.equal(first.status, 200);
        assert.equal(first.sha, shaOf(order.join()), `order ${order.join()}`);
        assert.equal((await tile()).sha, shaOf(order.join()), `order ${order.join()}, repeated`);
      }
    });
  });
}
