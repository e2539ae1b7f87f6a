/**
 * A MosaicJSON document behind real nginx (Debian nginx-light), rewritten with the same size
 * within one second: nginx's ETag is `"<mtime seconds hex>-<size hex>"` and its Last-Modified
 * counts seconds, so both validators stay the same; rastile must not trust such a recent version
 * (src/sources/remote-version.ts) and answers from the new document. Oracle: the z10 tile's sha256
 * from rasterio.merge(method='first') (test/fixtures/mosaicjson/expected.json). Skipped without nginx.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nginxSkipReason, startNginxStatic, type NginxProcess } from '../helpers/nginx-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface ExpectedTile {
  x: number;
  y: number;
  order: string[];
  sha256: string;
}
const expected = (JSON.parse(readFileSync(fixture('mosaicjson', 'expected.json'), 'utf8')) as { tiles: ExpectedTile[] }).tiles;
const shaOf = (order: string): string => expected.find((t) => t.x === 541 && t.y === 368 && t.order.join() === order)!.sha256;
const sha = (b: Buffer): string =>
  createHash('sha256')
    .update(b.subarray(10 + b.readUInt16LE(8)))
    .digest('hex');

describe('a MosaicJSON behind nginx, rewritten within one second', { skip: nginxSkipReason ?? false }, () => {
  let tmp: string;
  let nginx: NginxProcess;
  let server: TestServer;
  const writeDoc = (order: string[]): void => {
    const doc = JSON.parse(readFileSync(fixture('mosaicjson', 'mosaic-qz8.json'), 'utf8')) as { tiles: Record<string, string[]>; asset_prefix?: string };
    doc.asset_prefix = `${nginx.url}/`;
    for (const k of Object.keys(doc.tiles)) doc.tiles[k] = order;
    writeFileSync(path.join(tmp, 'mosaic.json'), JSON.stringify(doc), { mode: 0o644 });
  };
  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-mosaic-nginx-'));
    chmodSync(tmp, 0o755); // nginx's worker user reads it
    for (const f of ['a.tif', 'b.tif']) {
      copyFileSync(fixture('mosaicjson', f), path.join(tmp, f));
      chmodSync(path.join(tmp, f), 0o644);
    }
    writeFileSync(path.join(tmp, 'healthz'), 'ok', { mode: 0o644 });
    nginx = await startNginxStatic(tmp);
    server = await startTestServer((c) => {
      c.sources.revalidateMs = 0;
    });
  });
  after(async () => {
    await server?.close();
    await nginx?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('each request answers from the document as it is now (nginx ETag and Last-Modified unchanged)', async () => {
    const tile = async (): Promise<{ status: number; sha: string }> => {
      const r = await server.get(`/mosaicjson/tiles/WebMercatorQuad/10/541/368.npy?url=${q(`${nginx.url}/mosaic.json`)}&return_mask=false`);
      return { status: r.status, sha: sha(Buffer.from(await r.arrayBuffer())) };
    };
    for (const order of [
      ['a.tif', 'b.tif'],
      ['b.tif', 'a.tif'],
      ['a.tif', 'b.tif'],
    ]) {
      writeDoc(order);
      const t = await tile();
      assert.equal(t.status, 200);
      assert.equal(t.sha, shaOf(order.join()), `order ${order.join()}`);
    }
  });
});
