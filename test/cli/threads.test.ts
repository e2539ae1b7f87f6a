/**
 * `rastile serve --workers 2 --worker-mode threads`: one process, two worker threads listening on
 * one port with SO_REUSEPORT. As a real process on `--port 0` (the main thread binds first, so
 * both threads share the one port the banner names): both threads answer (the x-rastile-thread
 * header over fresh connections), /metrics sums both threads' requests and counts the process's
 * memory once, SIGTERM drains — the request in flight completes with rasterio's answer, a request
 * being received gets /readyz 503 "draining", new connections are refused — and the process
 * exits 0. In-process, with a fixture thread (test/helpers/crashing-thread.ts): a thread that dies
 * of an uncaught exception is restarted on the same port, counted in /metrics, and the process
 * stays up.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runThreads } from '../../src/cli/threads.ts';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { connectionRefused, pipelined, startGatedUpstream } from '../helpers/cli-server.ts';
import { startRangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, REPO } from '../helpers/test-server.ts';

function metric(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}

/** The thread ids that answered `n` requests, each over a new connection. */
async function threadsSeen(url: string, n: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const r = await fetch(url, { headers: { connection: 'close' } });
    assert.equal(r.status, 200);
    await r.arrayBuffer();
    seen.add(r.headers.get('x-rastile-thread') ?? 'none');
  }
  return seen;
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

describe('rastile serve --workers 2 --worker-mode threads', () => {
  it('serves from both threads on the port 0 bound, aggregates metrics, drains on SIGTERM and exits 0', { timeout: 300_000 }, async () => {
    const upstream = await startRangeServer({ root: fixture('datasets'), validators: 'etag' });
    const gated = await startGatedUpstream(upstream.url);
    const child = spawn(
      process.execPath,
      [`${REPO}/bin/rastile.js`, 'serve', '--port', '0', '--workers', '2', '--worker-mode', 'threads', '--allow-private-hosts'],
      {
        cwd: REPO,
        env: { ...process.env, RASTILE_FROM_SOURCE: '1', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /rastile is ready on http:\/\/127\.0\.0\.1:(\d+) with 2 workers/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        void exited.then((code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      assert.notEqual(port, 0);
      const url = `http://127.0.0.1:${port}`;
      // The kernel hashes each new connection to one of the two listeners: 40 connections reach both.
      const seen = await threadsSeen(`${url}/tileMatrixSets/WebMercatorQuad`, 40);
      assert.equal(seen.size, 2, `threads seen: ${[...seen].join(', ')}`);
      // Each serving thread runs under the default old-generation growth (src/cli/v8-heap-growth.ts).
      assert.equal(out.match(/"v8Flags":"--heap-growing-percent=100"/g)?.length, 2, out);
      // And AsyncLocalStorage on async context frames (src/cli/async-context-frame.ts): threads share the process's flags.
      assert.equal(out.match(/"asyncContextFrame":true/g)?.length, 2, out);

      const text = await (await fetch(`${url}/metrics`)).text();
      assert.equal(metric(text, 'rastile_workers'), 2);
      assert.equal(metric(text, 'rastile_worker_restarts_total'), 0);
      const series = 'rastile_http_request_duration_seconds_count{method="GET",route="/tileMatrixSets/:tileMatrixSetId",status="200"}';
      assert.equal(metric(text, series), 40, 'the requests of both threads, summed');
      // Process-wide figures are the process's once, not once per thread.
      const rss = metric(text, 'rastile_process_resident_bytes');
      assert.ok(rss > 0 && rss < 1.5 * rssOf(child.pid!), `resident ${rss} vs VmRSS ${rssOf(child.pid!)}`);
      assert.ok(Number.isNaN(metric(text, 'rastile_supervisor_resident_bytes')), 'no separate supervisor process');

      // SIGTERM with one request in flight (held by its upstream) and one being received.
      const slow = pipelined(port, [`GET /cog/info?url=${q(`${gated.url}/palette_3413.tif`)} HTTP/1.1\r\nHost: t\r\n\r\n`]);
      await slow.sent;
      while (gated.arrived() === 0) await sleep(20);
      const probe = pipelined(port, [`GET /readyz HTTP/1.1\r\nHost: t\r\n`]);
      await probe.sent;
      await sleep(100);
      child.kill('SIGTERM');
      assert.ok(await connectionRefused(port), 'new connections are refused once both threads stopped accepting');
      await new Promise<void>((resolve) => probe.write('\r\n', resolve));
      gated.open();
      const raw = await slow.received;
      assert.match(raw, /^HTTP\/1\.1 200 /);
      const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as { files: Record<string, { info: unknown }> };
      assert.deepEqual(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)), expected.files['palette_3413.tif']!.info);
      const ready = await probe.received;
      assert.match(ready, /^HTTP\/1\.1 503 /);
      assert.match(ready, /"status":"draining"/);
      assert.equal(await exited, 0, out);
      assert.match(out, /every worker thread drained, exiting/);
      assert.equal(out.match(/"msg":"drained, exiting"/g)?.length, 2, 'both threads drained');
    } finally {
      child.kill('SIGKILL');
      gated.open();
      await gated.close();
      await upstream.close();
    }
  });

  it('restarts a thread that died of an uncaught exception; the process stays up and counts it', { timeout: 120_000 }, async () => {
    const config = { ...configFromEnv({}, { port: '0', workers: '2' }), shutdownTimeoutMs: 5000 };
    const stop = new AbortController();
    let ready!: (port: number) => void;
    const readyPort = new Promise<number>((resolve) => (ready = resolve));
    const errors: unknown[] = [];
    const origError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const done = runThreads(config, {
        entry: new URL('../helpers/crashing-thread.ts', import.meta.url),
        argv: [],
        onReady: ready,
        baseBackoffMs: 10,
        signal: stop.signal,
      });
      const port = await readyPort;
      const url = `http://127.0.0.1:${port}`;
      const before = await threadsSeen(url, 40);
      assert.equal(before.size, 2);
      // Crash whichever thread gets it; the process (this test's) keeps running.
      await (await fetch(`${url}/crash`, { headers: { connection: 'close' } })).text();
      let text = '';
      for (let i = 0; i < 600; i++) {
        // A connection the kernel queued on the dying thread's socket is reset (SO_REUSEPORT does not
        // move it to the other listener): retry until the new thread listens.
        text = await fetch(`${url}/metrics`, { headers: { connection: 'close' } }).then(
          (r) => r.text(),
          () => '',
        );
        if (metric(text, 'rastile_worker_restarts_total') === 1 && metric(text, 'rastile_workers') === 2) break;
        await sleep(50);
      }
      assert.equal(metric(text, 'rastile_worker_restarts_total'), 1, text);
      assert.equal(metric(text, 'rastile_workers'), 2);
      const after = await threadsSeen(url, 40);
      assert.equal(after.size, 2, 'the new thread serves on the same port');
      assert.ok(
        [...after].some((t) => !before.has(t)),
        `a new thread id: before ${[...before]}, after ${[...after]}`,
      );
      assert.ok(
        errors.some((e) => /died \(exit code 1\)/.test(String(e))),
        'the death is logged',
      );
      stop.abort();
      assert.equal(await done, 0);
    } finally {
      console.error = origError;
      stop.abort();
    }
  });
});
