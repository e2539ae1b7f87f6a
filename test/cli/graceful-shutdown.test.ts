/**
 * Graceful shutdown of a real `rastile serve` process: a request in flight at SIGTERM (held by a
 * gated upstream until the test lets it go) completes with the right answer (rasterio's info of
 * the file), new connections are refused meanwhile, a request already being received on another
 * connection is answered `/readyz` 503 "draining", and the process exits 0. Past
 * RASTILE_SHUTDOWN_TIMEOUT_MS the held request is cut and the exit code is 1. In-process: the
 * draining state of /healthz, /readyz and `Connection: close`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Lifecycle } from '../../src/http/lifecycle.ts';
import { connectionRefused, pipelined, startCli, startGatedUpstream } from '../helpers/cli-server.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, startTestServer } from '../helpers/test-server.ts';

const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { info: unknown }>;
};

/** Splits raw HTTP/1.1 responses received on one connection (Content-Length bodies). */
function parseResponses(raw: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const out: Array<{ status: number; headers: Record<string, string>; body: string }> = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const lines = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    const body = Buffer.from(rest.slice(end + 4), 'latin1')
      .subarray(0, length)
      .toString('utf8');
    out.push({ status: Number(lines[0]!.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + Buffer.from(body, 'utf8').length);
  }
  return out;
}

let upstream: RangeServer;
before(async () => {
  upstream = await startRangeServer({ root: fixture('datasets'), validators: 'etag' });
});
after(async () => {
  await upstream.close();
});

describe('graceful shutdown of rastile serve --workers 1', () => {
  it('finishes the request in flight, refuses new connections, answers /readyz "draining", exits 0', async () => {
    const gated = await startGatedUpstream(upstream.url);
    const server = await startCli(['--workers', '1', '--allow-private-hosts']);
    try {
      const slow = pipelined(server.port, [`GET /cog/info?url=${q(`${gated.url}/palette_3413.tif`)} HTTP/1.1\r\nHost: t\r\n\r\n`]);
      await slow.sent;
      while (gated.arrived() === 0) await sleep(20); // the request is in flight, waiting for its upstream
      // A second connection in the middle of sending its request (headers not finished): busy, not idle.
      const probe = pipelined(server.port, [`GET /readyz HTTP/1.1\r\nHost: t\r\n`]);
      await probe.sent;
      await sleep(100);
      server.child.kill('SIGTERM');
      assert.ok(await connectionRefused(server.port), 'new connections are refused after SIGTERM');
      await new Promise<void>((resolve) => probe.write('\r\n', resolve));
      gated.open();
      const [info] = parseResponses(await slow.received);
      assert.equal(info?.status, 200, 'the request accepted before SIGTERM completed');
      assert.deepEqual(JSON.parse(info.body), expected.files['palette_3413.tif']!.info);
      assert.equal(info.headers['connection'], 'close');
      const [ready] = parseResponses(await probe.received);
      assert.equal(ready?.status, 503);
      assert.deepEqual(JSON.parse(ready.body), { status: 'draining' });
      assert.equal(await server.exited, 0, server.output());
      assert.match(server.output(), /draining/);
    } finally {
      server.child.kill('SIGKILL');
      await gated.close();
    }
  });

  it('cuts a request still running at RASTILE_SHUTDOWN_TIMEOUT_MS and exits 1', async () => {
    const gated = await startGatedUpstream(upstream.url);
    const server = await startCli(['--workers', '1', '--allow-private-hosts'], { RASTILE_SHUTDOWN_TIMEOUT_MS: '300' });
    try {
      const slow = pipelined(server.port, [`GET /cog/info?url=${q(`${gated.url}/palette_3413.tif`)} HTTP/1.1\r\nHost: t\r\n\r\n`]);
      await slow.sent;
      while (gated.arrived() === 0) await sleep(20);
      server.child.kill('SIGTERM');
      assert.equal(await slow.received, '', 'the connection was closed without an answer');
      assert.equal(await server.exited, 1, server.output());
      assert.match(server.output(), /RASTILE_SHUTDOWN_TIMEOUT_MS/);
    } finally {
      server.child.kill('SIGKILL');
      gated.open();
      await gated.close();
    }
  });
});

describe('draining state (in-process)', () => {
  it('/readyz 503 and /healthz "draining" with Connection: close once draining', async () => {
    const lifecycle = new Lifecycle();
    const server = await startTestServer(undefined, { lifecycle });
    try {
      const ready = await server.getJson<{ status: string }>('/readyz');
      assert.deepEqual([ready.status, ready.body], [200, { status: 'serving' }]);
      assert.equal(ready.headers.get('cache-control'), null);
      assert.equal((await server.getJson<{ status: string }>('/healthz')).body.status, 'serving');
      lifecycle.startDraining();
      const draining = await server.getJson<{ status: string }>('/readyz');
      assert.deepEqual([draining.status, draining.body], [503, { status: 'draining' }]);
      assert.equal(draining.headers.get('connection'), 'close');
      const health = await server.getJson<{ status: string; versions: Record<string, string> }>('/healthz');
      assert.equal(health.status, 200, 'still healthy: it finishes its requests');
      assert.equal(health.body.status, 'draining');
      assert.ok(health.body.versions['rastile']);
    } finally {
      await server.close();
    }
  });
});
