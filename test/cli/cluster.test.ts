/**
 * `rastile serve --workers 2` as real processes: two workers under one supervisor, /metrics
 * aggregated over both (the request count of a route equals the requests sent, whichever worker
 * served them), a killed worker restarted and counted, a request in flight at SIGTERM finished
 * before the tree exits 0. Also the per-worker share of the memory budgets.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { workerShare } from '../../src/cli/worker-share.ts';
import { childServerPids, connectionRefused, pipelined, startCli, startGatedUpstream } from '../helpers/cli-server.ts';
import { startRangeServer } from '../helpers/http-range-server.ts';
import { fixture, q } from '../helpers/test-server.ts';

const MiB = 1024 * 1024;

function metric(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('worker share of the budgets', () => {
  it('divides the memory budgets by the workers and keeps per-request limits and counts', () => {
    const c = configFromEnv({ RASTILE_BLOCK_CACHE_MB: '40', RASTILE_CACHE_BYTES: '64MiB', RASTILE_MAX_INFLIGHT_MB: '1024', RASTILE_WORKERS: '4' });
    assert.equal(c.workers, 4);
    const w = workerShare(c, 4);
    assert.equal(w.cache.decodedBytes, 10 * MiB);
    assert.equal(w.sources.cacheBytes, 16 * MiB);
    assert.equal(w.limits.maxInflightBytes, 256 * MiB);
    assert.equal(w.limits.maxRequestBytes, c.limits.maxRequestBytes);
    assert.equal(w.cache.datasets, c.cache.datasets);
    assert.equal(w.limits.maxQueue, c.limits.maxQueue);
    assert.equal(workerShare(c, 1), c);
    assert.equal(configFromEnv({}, { workers: '3' }).workers, 3, '--workers overrides');
    assert.throws(() => configFromEnv({ RASTILE_WORKERS: 'all' }), /RASTILE_WORKERS/);
  });
});

describe('rastile serve --workers 2', () => {
  it('aggregates metrics, restarts a dead worker, drains on SIGTERM and exits 0', async () => {
    const upstream = await startRangeServer({ root: fixture('datasets'), validators: 'etag' });
    const gated = await startGatedUpstream(upstream.url);
    const server = await startCli(['--workers', '2', '--worker-mode', 'processes', '--allow-private-hosts']);
    try {
      const pid = server.child.pid!;
      // Both workers listen (readiness came from one of them).
      let workers: number[] = [];
      for (let i = 0; i < 600 && (workers = childServerPids(pid)).length < 2; i++) await sleep(100);
      assert.equal(workers.length, 2, server.output());
      let text = '';
      for (let i = 0; i < 600; i++) {
        text = await (await fetch(`${server.url}/metrics`, { headers: { connection: 'close' } })).text();
        if (metric(text, 'rastile_workers') === 2 && text.includes('rastile_http_requests_total')) break;
        await sleep(100);
      }
      assert.equal(metric(text, 'rastile_workers'), 2);
      assert.equal(metric(text, 'rastile_worker_restarts_total'), 0);
      // Both workers run AsyncLocalStorage on async context frames (src/cli/async-context-frame.ts;
      // on Node 22 they inherit the flag from the primary's execArgv).
      for (let i = 0; i < 100 && (server.output().match(/"asyncContextFrame":true/g)?.length ?? 0) < 2; i++) await sleep(100);
      assert.equal(server.output().match(/"asyncContextFrame":true/g)?.length, 2, server.output());

      // 10 requests over fresh connections: round-robin spreads them; the scrape sums both workers.
      for (let i = 0; i < 10; i++) {
        const r = await fetch(`${server.url}/tileMatrixSets/WebMercatorQuad`, { headers: { connection: 'close' } });
        assert.equal(r.status, 200);
        await r.arrayBuffer();
      }
      text = await (await fetch(`${server.url}/metrics`, { headers: { connection: 'close' } })).text();
      const series = 'rastile_http_request_duration_seconds_count{method="GET",route="/tileMatrixSets/:tileMatrixSetId",status="200"}';
      assert.equal(
        metric(text, series),
        10,
        text
          .split('\n')
          .filter((l) => l.includes('tileMatrixSets'))
          .join('\n'),
      );
      const rss = metric(text, 'rastile_process_resident_bytes');
      const supervisor = metric(text, 'rastile_supervisor_resident_bytes');
      assert.ok(rss > 0 && supervisor > 0);

      // A worker killed outright is replaced and counted.
      process.kill(workers[0]!, 'SIGKILL');
      let restarted: number[] = [];
      for (let i = 0; i < 1200; i++) {
        restarted = childServerPids(pid);
        if (restarted.length === 2 && !restarted.includes(workers[0]!)) {
          // A fresh connection (a kept-alive one may be the killed worker's); a connection refused or reset
          // while the replacement starts is polled again — the assertions below are on what follows.
          text = await fetch(`${server.url}/metrics`, { headers: { connection: 'close' } })
            .then((r) => r.text())
            .catch(() => text);
          if (metric(text, 'rastile_worker_restarts_total') === 1 && metric(text, 'rastile_workers') === 2) break;
        }
        await sleep(100);
      }
      assert.equal(metric(text, 'rastile_worker_restarts_total'), 1);
      assert.ok(!restarted.includes(workers[0]!) && restarted.length === 2, `workers now ${restarted.join(',')}`);
      assert.match(server.output(), /died \(SIGKILL\)/);

      // SIGTERM to the supervisor: the request in flight completes, then everything exits 0.
      const slow = pipelined(server.port, [`GET /cog/info?url=${q(`${gated.url}/palette_3413.tif`)} HTTP/1.1\r\nHost: t\r\n\r\n`]);
      await slow.sent;
      while (gated.arrived() === 0) await sleep(20);
      server.child.kill('SIGTERM');
      assert.ok(await connectionRefused(server.port), 'new connections are refused once every worker stopped accepting');
      gated.open();
      const raw = await slow.received;
      assert.match(raw, /^HTTP\/1\.1 200 /);
      const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as { files: Record<string, { info: unknown }> };
      assert.deepEqual(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)), expected.files['palette_3413.tif']!.info);
      assert.equal(await server.exited, 0, server.output());
      assert.deepEqual(childServerPids(pid), []);
    } finally {
      server.child.kill('SIGKILL');
      for (const w of childServerPids(server.child.pid!)) process.kill(w, 'SIGKILL');
      gated.open();
      await gated.close();
      await upstream.close();
    }
  });
});
