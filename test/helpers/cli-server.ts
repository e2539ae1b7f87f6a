/**
 * `rastile serve` as a real child process (the TypeScript sources through tsx) on a free loopback
 * port, for tests of process-level behaviour: workers, signals, graceful shutdown. Also a gated
 * upstream: an HTTP server that holds every request until the test opens the gate, then answers
 * it from a range server (a "slow request" whose end the test decides, no wall-clock waits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenOnLoopback, type LocalServer } from './local-server.ts';
import { REPO } from './test-server.ts';

export interface CliServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

/** A port that was free a moment ago (bound to port 0, then released). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Starts `rastile serve --port <free> …args` and waits until /readyz answers 200 (startup under load is slow). */
export async function startCli(args: string[], env: Record<string, string> = {}, readyTimeoutMs = 120_000): Promise<CliServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'rastile.js'), 'serve', '--port', String(port), ...args], {
    cwd: REPO,
    env: { ...process.env, RASTILE_FROM_SOURCE: '1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let dead = false;
  void exited.then(() => (dead = true));
  for (;;) {
    if (dead) throw new Error(`rastile serve exited before it was ready:\n${out}`);
    try {
      const r = await fetch(`${url}/readyz`);
      await r.arrayBuffer();
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`rastile serve not ready after ${readyTimeoutMs} ms:\n${out}`);
    }
    await sleep(200);
  }
  return { url, port, child, output: () => out, exited };
}

/** Resolves true once a new TCP connection to `port` is refused (polling), false at the deadline. */
export async function connectionRefused(port: number, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    await sleep(50);
  }
  return false;
}

/** Pids of the `rastile.js serve` processes whose parent is `ppid` (a cluster's workers). */
export function childServerPids(ppid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === ppid && cmd.includes('rastile.js')) pids.push(Number(entry));
    } catch {
      // the process went away while we looked
    }
  }
  return pids.sort((a, b) => a - b);
}

export interface GatedUpstream extends LocalServer {
  /** Requests that arrived (held or answered). */
  arrived(): number;
  /** Answers every held request and every later one. */
  open(): void;
}

/** Holds each request until `open()`, then forwards it (with its Range) to `target` and relays the answer. */
export async function startGatedUpstream(target: string): Promise<GatedUpstream> {
  let arrived = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const server = createServer((req, res) => {
    arrived++;
    void gate
      .then(async () => {
        const headers: Record<string, string> = {};
        if (req.headers.range !== undefined) headers['range'] = req.headers.range;
        const r = await fetch(`${target}${req.url}`, { headers });
        const body = Buffer.from(await r.arrayBuffer());
        const out: Record<string, string> = {};
        for (const name of ['content-type', 'content-range', 'etag', 'last-modified']) {
          const v = r.headers.get(name);
          if (v !== null) out[name] = v;
        }
        res.writeHead(r.status, { ...out, 'content-length': String(body.length) });
        res.end(body);
      })
      .catch(() => res.destroy()); // the test ended (its range server closed) while the gate opened: nobody waits
  });
  const local = await listenOnLoopback(server);
  return { ...local, arrived: () => arrived, open };
}

/**
 * Sends raw HTTP/1.1 requests pipelined on one connection and collects the raw bytes received
 * until the server closes it.
 */
export function pipelined(port: number, requests: string[]): { sent: Promise<void>; received: Promise<string>; write(more: string, done: () => void): void } {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  const sent = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => socket.write(requests.join(''), () => resolve()));
    socket.once('error', reject);
  });
  const received = new Promise<string>((resolve) => socket.once('close', () => resolve(data)));
  return { sent, received, write: (more, done) => socket.write(more, () => done()) };
}
