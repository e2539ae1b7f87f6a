/**
 * The shared response cache against a real redis-server (issue 12): a response rendered by one
 * app instance is a hit on another; entries expire (TTL); a response over the entry cap is not
 * stored; concurrent misses across instances render once (one holds the lock, the other waits
 * for its result) and a lock whose holder died is waited out, then rendered; Redis killed →
 * requests still answer 200 (rendered), and caching resumes when it is back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { redisSkipReason, startRedis, type RedisProcess } from '../helpers/redis-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { makeTempTree, type TempTree } from '../sources/fixture-files.ts';
import type { ResponseCacheConfig } from '../../src/config.ts';

const TILE = '/cog/tiles/WebMercatorQuad/10/544/361.png';
const v1 = new Uint8Array(readFileSync(fixture('versions', 'v1.tif')));

interface Answer {
  status: number;
  cache: string | null;
  etag: string | null;
  body: Buffer;
}

async function get(server: TestServer, p: string, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await server.get(p, { headers });
  return { status: r.status, cache: r.headers.get('x-rastile-cache'), etag: r.headers.get('etag'), body: Buffer.from(await r.arrayBuffer()) };
}

/** A metric of the test process (the registry is process-wide: every instance here adds to it). */
async function metric(server: TestServer, name: string): Promise<number> {
  const text = await (await server.get('/metrics')).text();
  const m = new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

/** Waits until `n` response caches of this process have their Redis connection up. */
async function connected(server: TestServer, n: number): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if ((await metric(server, 'rastile_response_cache_redis_connected')) === n) return;
    await sleep(20);
  }
  assert.fail(`expected ${n} Redis connections up`);
}

describe('response cache shared through redis-server', { skip: redisSkipReason }, () => {
  let redis: RedisProcess;
  let client: Redis;
  let tree: TempTree;
  let ranges: RangeServer;
  let slow: RangeServer;
  const servers: TestServer[] = [];

  /** Response entries in Redis once no store is in flight: two equal counts 50 ms apart. */
  const settledResponseKeys = async (): Promise<number> => {
    let last = -1;
    for (let i = 0; i < 40; i++) {
      const n = (await client.keys('rastile:r:*')).length;
      if (n === last) return n;
      last = n;
      await sleep(50);
    }
    return last;
  };

  const start = async (cache: Partial<ResponseCacheConfig> = {}): Promise<TestServer> => {
    const s = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, tree.dir];
      c.sources.headerBytes = 4096;
      c.sources.revalidateMs = 3_600_000;
      c.responseCache = { ...c.responseCache!, url: redis.url, memoryBytes: 0, lockMs: 3000, ...cache };
    });
    servers.push(s);
    await connected(s, servers.length); // the client connects in the background
    return s;
  };

  before(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    await client.connect();
    const files: Record<string, Uint8Array> = {};
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) files[`${n}.tif`] = v1;
    files['remote/s.tif'] = v1;
    files['remote/t.tif'] = v1;
    tree = await makeTempTree(files);
    ranges = await startRangeServer({ root: path.join(tree.dir, 'remote'), validators: 'etag' });
    slow = await startRangeServer({ root: path.join(tree.dir, 'remote'), validators: 'etag', delayMs: 150 });
  });
  after(async () => {
    for (const s of servers) await s.close();
    client.disconnect();
    await redis.stop();
    await ranges.close();
    await slow.close();
    await tree.cleanup();
  });

  it('a tile rendered by one instance is a hit on another, with the same ETag; 304 there too', async () => {
    const [a, b] = [await start(), await start()];
    const url = `${TILE}?url=${q(path.join(tree.dir, 'a.tif'))}`;
    const redisHits = await metric(a, 'rastile_response_cache_total{outcome="hit_redis"}');
    const first = await get(a, url);
    assert.equal(first.status, 200);
    assert.equal(first.cache, 'miss');
    const second = await get(b, url);
    assert.equal(await metric(b, 'rastile_response_cache_total{outcome="hit_redis"}'), redisHits + 1);
    assert.equal(second.cache, 'hit');
    assert.equal(second.etag, first.etag);
    assert.deepEqual(second.body, first.body);
    const conditional = await get(b, url, { 'if-none-match': first.etag! });
    assert.equal(conditional.status, 304);
  });

  it('entries expire after the TTL', async () => {
    const a = await start({ ttlMs: 400 });
    const url = `${TILE}?url=${q(path.join(tree.dir, 'b.tif'))}`;
    assert.equal((await get(a, url)).cache, 'miss');
    const keys = await client.keys('rastile:r:*');
    const ttls = await Promise.all(keys.map((k) => client.pttl(k)));
    assert.ok(
      ttls.some((t) => t > 0 && t <= 400),
      `PTTLs ${ttls.join(',')}`,
    );
    assert.equal((await get(a, url)).cache, 'hit');
    await sleep(500);
    assert.equal((await get(a, url)).cache, 'miss');
  });

  it('a response over the entry cap is not stored (its record is: 304 still works)', async () => {
    const a = await start({ maxEntryBytes: 64 });
    const url = `${TILE}?url=${q(path.join(tree.dir, 'c.tif'))}`;
    // earlier tests' entries (one with a 400 ms TTL, its store maybe still in flight) would move the count
    await settledResponseKeys();
    const old = await client.keys('rastile:r:*');
    if (old.length > 0) await client.del(...old);
    const first = await get(a, url);
    assert.equal(first.status, 200);
    assert.ok(first.body.length > 64);
    assert.equal(first.cache, 'miss');
    assert.equal(await settledResponseKeys(), 0);
    const again = await get(a, url);
    assert.equal(again.cache, 'miss');
    assert.deepEqual(again.body, first.body);
    assert.equal((await get(a, url, { 'if-none-match': first.etag! })).status, 304);
  });

  it('concurrent misses on two instances render once: one holds the lock, the other waits for its result', async () => {
    const [a, b] = [await start(), await start()];
    const url = `${TILE}?url=${q(`${slow.url}/s.tif`)}`;
    await get(a, `/cog/info?url=${q(`${slow.url}/s.tif`)}`); // opened on a (header read) so only the render is slow
    await get(b, `/cog/info?url=${q(`${slow.url}/s.tif`)}`);
    const tileRequests = (): number => slow.requests.length;
    const before = tileRequests();
    const waits = await metric(a, 'rastile_response_cache_total{outcome="lock_wait"}');
    const pa = get(a, url);
    await sleep(30);
    const pb = get(b, url);
    const [ra, rb] = await Promise.all([pa, pb]);
    assert.equal(ra.cache, 'miss');
    assert.equal(rb.cache, 'wait-hit');
    assert.deepEqual(rb.body, ra.body);
    assert.equal(await metric(b, 'rastile_response_cache_total{outcome="lock_wait"}'), waits + 1);
    const oneRender = tileRequests() - before;
    // b read nothing: a second render would have repeated a's block reads
    assert.ok(oneRender >= 1);
    assert.equal((await get(a, url)).cache, 'hit');
    assert.equal(tileRequests() - before, oneRender);
  });

  it('a lock whose holder died is waited out, then the waiter renders', async () => {
    const [a, b] = [await start({ lockMs: 600 }), await start({ lockMs: 600 })];
    const url = `${TILE}?url=${q(`${slow.url}/t.tif`)}`;
    await get(a, url); // a renders: its request key is the lock key we fake below
    const waits = await metric(a, 'rastile_response_cache_total{outcome="lock_wait"}');
    const metaKeys = await client.keys('rastile:m:*');
    const respKeys = await client.keys('rastile:r:*');
    // forget every stored answer and take every request key's lock for a holder that will never finish
    await client.del(...respKeys);
    for (const k of metaKeys) await client.set(k.replace('rastile:m:', 'rastile:l:'), 'dead-holder', 'PX', 500);
    const waited = await get(b, url);
    assert.equal(waited.status, 200);
    assert.equal(waited.cache, 'miss', 'the waiter renders itself once the dead lock expired');
    assert.equal(await metric(b, 'rastile_response_cache_total{outcome="lock_wait"}'), waits + 1);
  });

  it('Redis killed: requests are rendered (200), never failed; caching resumes when it is back', async () => {
    const [a, b] = [await start(), await start()];
    const tiles = ['d', 'e'].map((n) => `${TILE}?url=${q(path.join(tree.dir, `${n}.tif`))}`);
    assert.equal((await get(a, tiles[0])).cache, 'miss');
    redis.kill();
    await sleep(100);
    for (const s of [a, b]) {
      for (const url of tiles) {
        const r = await get(s, url);
        assert.equal(r.status, 200);
        assert.notEqual(r.cache, 'hit');
      }
    }
    assert.equal(await metric(a, 'rastile_response_cache_redis_connected'), 0);
    await redis.start();
    await connected(a, servers.length);
    const url = `${TILE}?url=${q(path.join(tree.dir, 'f.tif'))}`;
    assert.equal((await get(a, url)).cache, 'miss');
    assert.equal((await get(b, url)).cache, 'hit');
  });
});
