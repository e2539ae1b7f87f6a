/**
 * The response cache's fast path (src/http/response-cache/fast-path.ts): a repeat GET answered
 * before Fastify routes it. Oracles: the same server built without the fast path (the normal
 * path's raw header list, in order, and its bytes), the file's own read counters (SourceStats of
 * the opened source: a 304 and a hit read nothing), a fresh render of the new file at another path
 * (a changed file is a miss at once), and the request metrics (a fast answer is counted too).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { rename, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { buildApp } from '../../src/http/app.ts';
import { Lifecycle } from '../../src/http/lifecycle.ts';
import { fastPathOf, type CacheFastPath } from '../../src/http/response-cache/fast-path.ts';
import { createServices, type Services } from '../../src/http/services.ts';
import { FIXTURES, fixture, q } from '../helpers/test-server.ts';
import { makeTempTree, type TempTree } from '../sources/fixture-files.ts';

const TILE = '/cog/tiles/WebMercatorQuad/10/544/361.png';
const bytesOf = (name: string): Uint8Array => new Uint8Array(readFileSync(fixture('versions', name)));

interface Server {
  app: FastifyInstance;
  url: string;
  services: Services;
  fast: CacheFastPath | undefined;
  lifecycle: Lifecycle;
}

interface Answer {
  status: number;
  /** Raw header names and values in the order sent, without Date. */
  headers: string[];
  body: Buffer;
}

async function start(tree: string, fastPath: boolean): Promise<Server> {
  const config = configFromEnv({}, { localRoots: [FIXTURES, tree].join(':'), allowPrivateHosts: true });
  config.cacheControl = 'private, max-age=3600';
  config.corsOrigins = '*';
  const services = createServices(config);
  const lifecycle = new Lifecycle();
  const app = buildApp(config, { services, cacheFastPath: fastPath, lifecycle });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}`, services, fast: app.responseCache ? fastPathOf(app.responseCache) : undefined, lifecycle };
}

function get(server: Server, p: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${p}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() !== 'date') raw.push(res.rawHeaders[i], res.rawHeaders[i + 1]);
        resolve({ status: res.statusCode ?? 0, headers: raw, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The last value of header `name` (any case), or undefined. */
function header(a: Answer, name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < a.headers.length; i += 2) if (a.headers[i].toLowerCase() === name.toLowerCase()) value = a.headers[i + 1];
  return value;
}

describe('response cache fast path', () => {
  let tree: TempTree;
  let fast: Server;
  let normal: Server;

  before(async () => {
    tree = await makeTempTree({ 'a.tif': bytesOf('v1.tif'), 'b.tif': bytesOf('v1.tif'), 'c.tif': bytesOf('v1.tif') });
    fast = await start(tree.dir, true);
    normal = await start(tree.dir, false);
  });
  after(async () => {
    await fast.app.close();
    await normal.app.close();
    await tree.cleanup();
  });

  it("answers hits and 304s with the normal path's bytes and headers, in the same order", async () => {
    assert.ok(fast.fast, 'the fast path is installed');
    assert.equal(normal.fast, undefined);
    const fp: CacheFastPath = fast.fast;
    const file = q(path.join(tree.dir, 'a.tif'));
    for (const url of [`${TILE}?url=${file}&rescale=0,255`, `/cog/info?url=${file}`]) {
      const first = await get(fast, url);
      assert.equal(header(first, 'x-rastile-cache'), 'miss');
      await get(normal, url);
      const served = fp.served;
      const hit = await get(fast, url);
      assert.equal(fp.served, served + 1, `${url}: the hit was answered by the fast path`);
      const oracle = await get(normal, url);
      assert.equal(hit.status, 200);
      assert.equal(header(hit, 'x-rastile-cache'), 'hit');
      assert.deepEqual(hit.headers, oracle.headers, url);
      assert.deepEqual(hit.body, oracle.body);
      assert.deepEqual(hit.body, first.body);
      const etag = header(hit, 'etag')!;
      const notModified = await get(fast, url, { 'if-none-match': etag });
      assert.equal(fp.served, served + 2, `${url}: the 304 was answered by the fast path`);
      const notModifiedOracle = await get(normal, url, { 'if-none-match': etag });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.body.length, 0);
      assert.deepEqual(notModified.headers, notModifiedOracle.headers, url);
    }
    // Another spelling of the same parameters is a hit through the normal path (it routes and parses).
    const served = fp.served;
    const other = await get(fast, `${TILE}?rescale=0,255&url=${file}`);
    assert.equal(header(other, 'x-rastile-cache'), 'hit');
    assert.equal(fp.served, served);
    // HEAD takes the normal path.
    const head = await new Promise<number>((resolve, reject) =>
      httpRequest(`${fast.url}${TILE}?url=${file}&rescale=0,255`, { method: 'HEAD' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end(),
    );
    assert.equal(head, 200);
    assert.equal(fp.served, served);
  });

  it('a 304 and a hit read nothing from the source (its read counters)', async () => {
    const file = path.join(tree.dir, 'c.tif');
    const url = `${TILE}?url=${q(file)}`;
    const first = await get(fast, url);
    assert.equal(first.status, 200);
    const stats = (await fast.services.sources.open(file)).stats!;
    assert.ok(stats.reads > 0 && stats.requests > 0, 'the render read the file');
    const reads = { reads: stats.reads, requests: stats.requests, bytes: stats.bytesFetched };
    const served = fast.fast!.served;
    const etag = header(first, 'etag')!;
    assert.equal((await get(fast, url, { 'if-none-match': etag })).status, 304);
    assert.equal((await get(fast, url)).status, 200);
    assert.equal(fast.fast!.served, served + 2);
    assert.deepEqual({ reads: stats.reads, requests: stats.requests, bytes: stats.bytesFetched }, reads);
    assert.equal((await fast.services.sources.open(file)).stats, stats, 'still the same opened source');
  });

  it('a file changed in place is a miss at once: the new bytes, never the stale answer', async () => {
    const file = path.join(tree.dir, 'b.tif');
    const url = `${TILE}?url=${q(file)}`;
    const old = await get(fast, url);
    assert.equal(header(await get(fast, url), 'x-rastile-cache'), 'hit');
    const tmp = `${file}.part`;
    await writeFile(tmp, bytesOf('v2.tif'));
    const t = new Date(Date.now() - 30_000);
    await utimes(tmp, t, t);
    await rename(tmp, file);
    const served = fast.fast!.served;
    const fresh = await get(fast, url, { 'if-none-match': header(old, 'etag')! });
    assert.equal(fresh.status, 200, 'the old ETag must not validate the new file');
    assert.equal(header(fresh, 'x-rastile-cache'), 'miss');
    assert.equal(fast.fast!.served, served);
    const oracle = await get(normal, `${TILE}?url=${q(fixture('versions', 'v2.tif'))}`);
    assert.deepEqual(fresh.body, oracle.body);
    assert.notDeepEqual(fresh.body, old.body);
    // The new version's repeat is a fast hit again.
    assert.equal(header(await get(fast, url), 'x-rastile-cache'), 'hit');
    assert.equal(fast.fast!.served, served + 1);
    // A sidecar appearing changes the version at once too.
    await writeFile(`${file}.msk`, bytesOf('v1.tif'));
    await utimes(`${file}.msk`, t, t);
    const withMask = await get(fast, url);
    assert.notEqual(header(withMask, 'x-rastile-cache'), 'hit');
    assert.notEqual(header(withMask, 'etag'), header(fresh, 'etag'));
  });

  it('fast answers are counted in the request metrics under the route template', async () => {
    const url = `${TILE}?url=${q(path.join(tree.dir, 'a.tif'))}&rescale=0,255`;
    await get(fast, url);
    const count = async (): Promise<number> => {
      const text = (await get(fast, '/metrics')).body.toString();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('rastile_http_request_duration_seconds_count{') && l.includes('status="200"') && l.includes('/cog/tiles/'));
      return Number(line?.split(' ')[1] ?? 0);
    };
    const before = await count();
    const served = fast.fast!.served;
    await get(fast, url);
    await get(fast, url);
    assert.equal(fast.fast!.served, served + 2);
    // Both servers of this test share the process's registry: only these two requests ran since.
    assert.equal(await count(), before + 2);
  });

  it('a draining server answers through Fastify (Connection: close), not the fast path', async () => {
    const drainingApp = await start(tree.dir, true);
    try {
      const url = `${TILE}?url=${q(path.join(tree.dir, 'a.tif'))}&rescale=0,255`;
      await get(drainingApp, url);
      assert.equal(header(await get(drainingApp, url), 'x-rastile-cache'), 'hit');
      const served = drainingApp.fast!.served;
      drainingApp.lifecycle.startDraining();
      const hit = await get(drainingApp, url);
      assert.equal(header(hit, 'x-rastile-cache'), 'hit');
      assert.equal(header(hit, 'connection'), 'close');
      assert.equal(drainingApp.fast!.served, served);
    } finally {
      await drainingApp.app.close();
    }
  });
});
