/**
 * A STAC item rewritten between two requests is answered from its new version: items are kept
 * per version of their bytes (src/readers/stac/item-loader.ts), not for TiTiler's 300 s, over
 * HTTP (the local Range server, ETag validators, RASTILE_REVALIDATE_MS=0) and locally; and
 * answers built on an item go through the response cache keyed by its version (a repeat is a
 * hit, a rewrite a miss with the new answer).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const ITEM = JSON.parse(readFileSync(fixture('stac', 'item.json'), 'utf8')) as { assets: Record<string, unknown> };
const ALL = Object.keys(ITEM.assets);

describe('a STAC item rewritten between requests', () => {
  let tmp: string;
  let http: RangeServer;
  let server: TestServer;
  /** Writes the item with only `names` among its assets (dated `agoMs` back: past the racy window). */
  const writeItem = (names: string[], agoMs: number): void => {
    const assets = Object.fromEntries(Object.entries(ITEM.assets).filter(([k]) => names.includes(k)));
    const file = path.join(tmp, 'item.json');
    writeFileSync(file, JSON.stringify({ ...ITEM, assets }));
    const t = new Date(Date.now() - agoMs);
    utimesSync(file, t, t);
  };
  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'rastile-stac-versions-'));
    for (const f of ['red.tif', 'green.tif']) copyFileSync(fixture('stac', f), path.join(tmp, f));
    http = await startRangeServer({ root: tmp, validators: 'etag' });
    server = await startTestServer((c) => {
      c.sources.revalidateMs = 0;
      c.sources.localRoots = [...c.sources.localRoots, tmp];
    });
  });
  after(async () => {
    await server.close();
    await http.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  for (const where of ['http', 'local'] as const) {
    it(`${where}: /stac/assets and /stac/info answer from the item as it is now`, async () => {
      const url = where === 'http' ? `${http.url}/item.json` : path.join(tmp, 'item.json');
      const assets = async (): Promise<{ names: string[]; cache: string | null }> => {
        const r = await server.get(`/stac/assets?url=${q(url)}`);
        assert.equal(r.status, 200);
        return { names: (await r.json()) as string[], cache: r.headers.get('x-rastile-cache') };
      };
      writeItem(ALL, 60_000);
      const first = (await assets()).names;
      assert.ok(
        ['red', 'green', 'nir', 'swir'].every((n) => first.includes(n)),
        JSON.stringify(first),
      );
      assert.equal((await assets()).cache, 'hit');
      writeItem(['red', 'green'], 30_000);
      const after = await assets();
      assert.deepEqual(after.names, ['red', 'green']);
      assert.equal(after.cache, 'miss');
      const info = await server.getJson<Record<string, unknown>>(`/stac/info?url=${q(url)}&assets=green`);
      assert.equal(info.status, 200, JSON.stringify(info.body));
      const gone = await server.getJson<{ detail: string }>(`/stac/info?url=${q(url)}&assets=nir`);
      assert.equal(gone.status, 404, JSON.stringify(gone.body)); // InvalidAssetName: no longer in the item
    });
  }
});
