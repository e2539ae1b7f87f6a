/**
 * A fleet on one machine (issue 12): Debian's nginx balancing two `rastile serve --workers 2`
 * instances that share one redis-server, all on loopback. A tile rendered through one instance
 * is a Redis hit on the other (their /metrics, summed over workers); ETag/304 through nginx; one
 * instance SIGTERMed under load loses no request (every answer 200, it exits 0 after draining);
 * Redis killed under load → every answer still 200.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startCli, type CliServer } from '../helpers/cli-server.ts';
import { nginxSkipReason, startNginx } from '../helpers/nginx-server.ts';
import { redisSkipReason, startRedis } from '../helpers/redis-server.ts';
import { fixture, q } from '../helpers/test-server.ts';
import { makeTempTree } from '../sources/fixture-files.ts';

const TILE = '/cog/tiles/WebMercatorQuad/10/544/361.png';

function metric(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const scrape = async (s: CliServer): Promise<string> => (await fetch(`${s.url}/metrics`)).text();
const REDIS_HITS = 'rastile_response_cache_total{outcome="hit_redis"}';

/** `clients` loops of GETs through `url` until `stop()`; every status seen, and failures (network errors). */
function load(base: string, paths: () => string, clients: number): { stop(): Promise<{ statuses: Map<number, number>; failures: string[] }> } {
  let running = true;
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      try {
        const r = await fetch(`${base}${paths()}`);
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      } catch (err) {
        failures.push(String(err));
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { statuses, failures };
    },
  };
}

const skip = redisSkipReason ?? nginxSkipReason;

describe('fleet: nginx → two rastile instances (2 workers each) → one redis-server', { skip }, () => {
  it('shares the cache across instances, 304s through nginx, survives SIGTERM of one instance and a Redis outage', async () => {
    const v1 = new Uint8Array(readFileSync(fixture('versions', 'v1.tif')));
    const tree = await makeTempTree({ 'a.tif': v1 });
    const file = q(`${tree.dir}/a.tif`);
    const redis = await startRedis();
    const env = { RASTILE_CACHE_URL: redis.url, LOG_LEVEL: 'warn', RASTILE_SHUTDOWN_TIMEOUT_MS: '30000' };
    const args = ['--workers', '2', '--local-roots', tree.dir];
    const [a, b] = await Promise.all([startCli(args, env), startCli(args, env)]);
    const nginx = await startNginx([a.port, b.port]);
    const instanceOf = (r: Response): CliServer => (r.headers.get('x-upstream')?.endsWith(`:${a.port}`) ? a : b);
    try {
      // Workers connect to Redis in the background: wait until all four report it up.
      for (let i = 0; i < 300; i++) {
        const up = metric(await scrape(a), 'rastile_response_cache_redis_connected') + metric(await scrape(b), 'rastile_response_cache_redis_connected');
        if (up === 4) break;
        await new Promise((r) => setTimeout(r, 100));
      }

      // 1. Rendered through one instance, a Redis hit on the other.
      const url = `${TILE}?url=${file}&rescale=0,200`;
      const first = await fetch(`${nginx.url}${url}`);
      const body = Buffer.from(await first.arrayBuffer());
      assert.equal(first.status, 200, nginx.log());
      assert.equal(first.headers.get('x-rastile-cache'), 'miss');
      const renderer = instanceOf(first);
      const other = renderer === a ? b : a;
      const hitsBefore = metric(await scrape(other), REDIS_HITS);
      let second: Response | undefined;
      for (let i = 0; i < 8; i++) {
        const r = await fetch(`${nginx.url}${url}`);
        if (instanceOf(r) === other) {
          second = r;
          break;
        }
        await r.arrayBuffer();
      }
      assert.ok(second !== undefined, 'nginx never sent the repeat to the other instance');
      assert.equal(second.status, 200);
      assert.deepEqual(Buffer.from(await second.arrayBuffer()), body);
      assert.equal(second.headers.get('etag'), first.headers.get('etag'));
      assert.equal(metric(await scrape(other), REDIS_HITS), hitsBefore + 1, 'the other instance answered from Redis');

      // 2. ETag / 304 through nginx, on both instances.
      for (let i = 0; i < 4; i++) {
        const r = await fetch(`${nginx.url}${url}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
        assert.equal(r.status, 304);
        assert.equal(r.headers.get('etag'), first.headers.get('etag'));
      }

      // 3. SIGTERM one instance mid-load: every request answered 200 (nginx retries refused
      //    connections on the other instance; requests the draining one accepted complete).
      let n = 0;
      const spin = load(nginx.url, () => `${TILE}?url=${file}&rescale=0,${300 + (n++ % 40)}`, 6);
      await new Promise((r) => setTimeout(r, 1500));
      a.child.kill('SIGTERM');
      const code = await a.exited;
      await new Promise((r) => setTimeout(r, 500));
      const drained = await spin.stop();
      assert.deepEqual(drained.failures, []);
      assert.deepEqual([...drained.statuses.keys()], [200], JSON.stringify([...drained.statuses]));
      assert.equal(code, 0, `the SIGTERMed instance did not drain cleanly:\n${a.output()}`);

      // 4. Redis killed under load: slower, not failed.
      const spin2 = load(nginx.url, () => `${TILE}?url=${file}&rescale=0,${400 + (n++ % 40)}`, 4);
      await new Promise((r) => setTimeout(r, 500));
      redis.kill();
      await new Promise((r) => setTimeout(r, 1500));
      const outage = await spin2.stop();
      assert.deepEqual(outage.failures, []);
      assert.deepEqual([...outage.statuses.keys()], [200], JSON.stringify([...outage.statuses]));
      assert.equal(metric(await scrape(b), 'rastile_response_cache_redis_connected'), 0);
    } finally {
      await nginx.stop();
      for (const s of [a, b]) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await redis.stop();
      await tree.cleanup();
    }
  });
});
