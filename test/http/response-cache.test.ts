/**
 * The in-process response cache and HTTP caching (issue 12): a repeat is served from the cache
 * with a strong ETag derived from the versions read; If-None-Match answers 304 without reading
 * (a loopback HTTP server's request log, the block cache's decode count); a file changed in place
 * is a new key (its answer equals a fresh render of the new bytes at another path); parameters
 * are normalised; errors are not kept (no-store); documents with links key on the host.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { rename, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { makeTempTree, type TempTree } from '../sources/fixture-files.ts';

const TILE = '/cog/tiles/WebMercatorQuad/10/544/361.png';
const bytesOf = (name: string): Uint8Array => new Uint8Array(readFileSync(fixture('versions', name)));

async function get(server: TestServer, p: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const r = await server.get(p, { headers });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

/** A GET with an explicit Host header (fetch cannot set one). */
function getWithHost(server: TestServer, p: string, host: string): Promise<{ status: number; body: string; cache: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${p}`, { headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), cache: res.headers['x-rastile-cache'] as string | undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('response cache (in process)', () => {
  let tree: TempTree;
  let server: TestServer;
  let ranges: RangeServer;

  before(async () => {
    tree = await makeTempTree({
      'a.tif': bytesOf('v1.tif'),
      'b.tif': bytesOf('v1.tif'),
      'c.tif': bytesOf('v1.tif'),
      'c.tif.aux.xml': '<PAMDataset></PAMDataset>\n',
      'remote/r.tif': bytesOf('v1.tif'),
    });
    ranges = await startRangeServer({ root: path.join(tree.dir, 'remote'), validators: 'etag' });
    server = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tree.dir];
      c.sources.headerBytes = 4096;
      c.sources.revalidateMs = 3_600_000;
    });
  });
  after(async () => {
    await server.close();
    await ranges.close();
    await tree.cleanup();
  });

  it('serves a repeat tile from the cache with the same strong ETag and bytes', async () => {
    const url = `${TILE}?url=${q(path.join(tree.dir, 'a.tif'))}&rescale=0,255`;
    const first = await get(server, url);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-rastile-cache'), 'miss');
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]{32}"$/);
    assert.equal(first.headers.get('cache-control'), 'public, max-age=86400');
    const second = await get(server, url);
    assert.equal(second.headers.get('x-rastile-cache'), 'hit');
    assert.equal(second.headers.get('etag'), etag);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get('content-type'), first.headers.get('content-type'));
  });

  it('normalises parameters: order, defaults and unknown parameters give one key', async () => {
    const file = q(path.join(tree.dir, 'a.tif'));
    const a = await get(server, `${TILE}?url=${file}&rescale=0,255&bidx=1`);
    const b = await get(server, `${TILE}?bidx=1&foo=bar&rescale=0,255&url=${file}&resampling=nearest`);
    assert.equal(a.status, 200);
    assert.equal(b.headers.get('x-rastile-cache'), 'hit');
    assert.equal(b.headers.get('etag'), a.headers.get('etag'));
    const other = await get(server, `${TILE}?url=${file}&rescale=0,100&bidx=1`);
    assert.equal(other.headers.get('x-rastile-cache'), 'miss');
    assert.notEqual(other.headers.get('etag'), a.headers.get('etag'));
  });

  it('If-None-Match answers 304 without reading: no upstream request, no block decode', async () => {
    const url = `${TILE}?url=${q(`${ranges.url}/r.tif`)}&rescale=0,255`;
    const first = await get(server, url);
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag')!;
    const upstream = ranges.requests.length;
    const metrics = async (): Promise<string> => (await get(server, '/metrics')).body.toString();
    const count = (text: string, re: RegExp): number => Number(re.exec(text)?.[1] ?? 0);
    const before = await metrics();
    const decodes = count(before, /^rastile_block_decodes_total (\d+)$/m);
    const notModified = count(before, /^rastile_response_cache_total\{outcome="not_modified"\} (\d+)$/m);
    const conditional = await get(server, url, { 'if-none-match': etag });
    assert.equal(conditional.status, 304);
    assert.equal(conditional.body.length, 0);
    assert.equal(conditional.headers.get('etag'), etag);
    assert.equal(conditional.headers.get('cache-control'), 'public, max-age=86400');
    const other = await get(server, url, { 'if-none-match': '"something-else"' });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-rastile-cache'), 'hit');
    assert.equal(ranges.requests.length, upstream, 'a 304 or a hit sent a request upstream');
    const after = await metrics();
    assert.equal(count(after, /^rastile_block_decodes_total (\d+)$/m), decodes);
    assert.equal(count(after, /^rastile_response_cache_total\{outcome="not_modified"\} (\d+)$/m), notModified + 1);
  });

  it('a file changed in place is a new key: the new bytes, never the stale answer', async () => {
    const file = path.join(tree.dir, 'b.tif');
    const url = `${TILE}?url=${q(file)}`;
    const old = await get(server, url);
    assert.equal((await get(server, url)).headers.get('x-rastile-cache'), 'hit');
    const tmp = `${file}.part`;
    await writeFile(tmp, bytesOf('v2.tif'));
    const t = new Date(Date.now() - 30_000);
    await utimes(tmp, t, t);
    await rename(tmp, file);
    const fresh = await get(server, url, { 'if-none-match': old.headers.get('etag')! });
    assert.equal(fresh.status, 200, 'the old ETag must not validate the new file');
    assert.equal(fresh.headers.get('x-rastile-cache'), 'miss');
    assert.notEqual(fresh.headers.get('etag'), old.headers.get('etag'));
    const oracle = await get(server, `${TILE}?url=${q(fixture('versions', 'v2.tif'))}`);
    assert.deepEqual(fresh.body, oracle.body);
    assert.notDeepEqual(fresh.body, old.body);
  });

  it('a sidecar is part of the version: a hit while it stays, a new key once another appears', async () => {
    const file = path.join(tree.dir, 'c.tif');
    const url = `/cog/info?url=${q(file)}`;
    const first = await get(server, url);
    assert.equal(first.status, 200);
    assert.equal((await get(server, url)).headers.get('x-rastile-cache'), 'hit', 'the per-hit stat check agrees with the open');
    await writeFile(`${file}.msk`, bytesOf('v1.tif'));
    const t = new Date(Date.now() - 30_000);
    await utimes(`${file}.msk`, t, t);
    const after = await get(server, url);
    assert.notEqual(after.headers.get('etag'), first.headers.get('etag'));
    assert.notEqual(after.headers.get('x-rastile-cache'), 'hit');
  });

  it('info and statistics are cached; errors are not, and are sent no-store', async () => {
    const url = `/cog/info?url=${q(path.join(tree.dir, 'a.tif'))}`;
    const a = await get(server, url);
    const b = await get(server, url);
    assert.equal(b.headers.get('x-rastile-cache'), 'hit');
    assert.deepEqual(JSON.parse(b.body.toString()), JSON.parse(a.body.toString()));
    assert.equal(b.headers.get('cache-control'), server.config.cacheControl);
    const missing = await get(server, `/cog/info?url=${q(path.join(tree.dir, 'nope.tif'))}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), 'no-store');
    assert.equal(missing.headers.get('etag'), null);
    const outside = await get(server, `/cog/tiles/WebMercatorQuad/1/0/0.png?url=${q(path.join(tree.dir, 'a.tif'))}`);
    assert.equal(outside.status, 404);
    assert.equal(outside.headers.get('cache-control'), 'no-store');
    const stats = `/cog/statistics?url=${q(path.join(tree.dir, 'a.tif'))}`;
    await get(server, stats);
    assert.equal((await get(server, stats)).headers.get('x-rastile-cache'), 'hit');
  });

  it('documents with links key on the host; Vary: Accept where the answer is negotiated', async () => {
    const url = `/cog/WebMercatorQuad/tilejson.json?url=${q(path.join(tree.dir, 'a.tif'))}`;
    const one = await getWithHost(server, url, 'one.example');
    const two = await getWithHost(server, url, 'two.example');
    assert.equal(one.status, 200);
    assert.match(one.body, /http:\/\/one\.example\/cog\/tiles/);
    assert.match(two.body, /http:\/\/two\.example\/cog\/tiles/);
    assert.equal(two.cache, 'miss');
    assert.equal((await getWithHost(server, url, 'one.example')).cache, 'hit');
    const listing = await get(server, `/cog/tiles?url=${q(path.join(tree.dir, 'a.tif'))}`);
    assert.equal(listing.headers.get('vary'), 'accept');
  });

  it('array datasets (NetCDF through /zarr) are validated by their own cache: a repeat is a hit', async () => {
    const url = `/zarr/bbox/-180,-90,180,90/36x18.npy?url=${q(fixture('array', 'sst-nc3.nc'))}&variable=sst&sel=time=2000-02-01`;
    const a = await get(server, url);
    assert.equal(a.status, 200);
    const b = await get(server, url);
    assert.equal(b.headers.get('x-rastile-cache'), 'hit');
    assert.deepEqual(b.body, a.body);
  });

  it('POST statistics with a small body is cached by its canonical body', async () => {
    const feature = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [0, 0] } };
    const url = `/cog/statistics?url=${q(path.join(tree.dir, 'a.tif'))}`;
    const a = await server.post(url, feature);
    const b = await server.post(url, { geometry: feature.geometry, properties: {}, type: 'Feature' });
    assert.equal(b.status, a.status);
    if (a.status === 200) assert.equal(b.headers.get('x-rastile-cache'), 'hit');
  });
});
