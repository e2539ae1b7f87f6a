/**
 * Shared pieces of the HTTP load benchmarks: waiting for the server, a deterministic tile sample,
 * /proc CPU and memory of the server, and a fixed-concurrency URL loop.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bounds } from '../src/geo/bounds.ts';
import type { TileMatrixSet } from '../src/geo/tms.ts';

export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString());

/** utime + stime of every thread of `pid`, in ms. */
export function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** Where one process's CPU goes, ms by thread kind: the event loop (main), libuv's pool, V8's helpers (GC, compiler: "node"/"DelayedTask…" threads), the rest. */
export type ThreadCpu = Record<'main' | 'pool' | 'v8' | 'other', number>;

/** utime + stime of every live thread of `pid` by kind (a thread's kind from its name; the main thread's id is the process's). */
export function threadCpuMs(pid: number): ThreadCpu {
  const split: ThreadCpu = { main: 0, pool: 0, v8: 0, other: 0 };
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
      const kind: keyof ThreadCpu =
        Number(tid) === pid ? 'main' : comm === 'libuv-worker' ? 'pool' : comm === 'node' || comm.startsWith('DelayedTask') ? 'v8' : 'other';
      split[kind] += ms;
    } catch {
      // the thread ended
    }
  }
  return split;
}

/** Minor page faults of `pid` so far (all threads): each first touch of a freshly mapped page is one. */
export function minorFaults(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[7]);
}

/** A kB field of `/proc/<pid>/status` (VmRSS, VmHWM…), in MiB. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Peak resident set (VmHWM) of `pid`, in MiB. */
export const peakRssMb = (pid: number): number => statusMb(pid, 'VmHWM');

/** Resident set now (VmRSS) of `pid`, in MiB. */
export const rssMb = (pid: number): number => statusMb(pid, 'VmRSS');

/** Fetches every URL of `queue` with `connections` concurrent loops; returns wall ms and sorted latencies. */
export async function runLoad(queue: readonly string[], connections: number): Promise<{ wallMs: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < queue.length) {
        const u = queue[next++];
        const s = performance.now();
        const r = await fetch(u);
        await r.arrayBuffer();
        latencies.push(performance.now() - s);
      }
    }),
  );
  return { wallMs: performance.now() - t0, latencies: latencies.sort((a, b) => a - b) };
}

/**
 * Polls `${baseUrl}/healthz` until it answers 2xx, sleeping `intervalMs` between tries (after a
 * refused connection and after a non-ok answer alike). Throws when it is not up within `timeoutMs`.
 */
export async function waitForHealthz(baseUrl: string, timeoutMs = 30_000, intervalMs = 100): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    try {
      const r = await fetch(`${baseUrl}/healthz`);
      await r.arrayBuffer();
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (performance.now() + intervalMs > deadline) throw new Error(`${baseUrl}/healthz not ok after ${timeoutMs} ms (last: ${last})`);
    await sleep(intervalMs);
  }
}

/**
 * A deterministic sample of the tiles over `geographicBounds` at zooms minZoom..maxZoom: per zoom,
 * at most `perZoom` tiles taken at an even step through the row-major list of the covering tiles.
 */
export function sampleTiles(
  tms: TileMatrixSet,
  geographicBounds: Bounds,
  minZoom: number,
  maxZoom: number,
  perZoom: number,
): Array<{ z: number; x: number; y: number }> {
  const out: Array<{ z: number; x: number; y: number }> = [];
  for (const lim of tms.limits(geographicBounds, minZoom, maxZoom)) {
    const z = Number(lim.tileMatrix);
    const cols = lim.maxTileCol - lim.minTileCol + 1;
    const count = cols * (lim.maxTileRow - lim.minTileRow + 1);
    const step = Math.max(1, Math.floor(count / perZoom));
    for (let i = 0, taken = 0; i < count && taken < perZoom; i += step, taken++) {
      out.push({ z, x: lim.minTileCol + (i % cols), y: lim.minTileRow + Math.floor(i / cols) });
    }
  }
  return out;
}

/**
 * The server's response cache off (RASTILE_RESPONSE_CACHE_MB=0): a benchmark that repeats a
 * request measures rendering it, not a cache hit. Spread it after process.env so that it wins;
 * bench/response-cache.ts measures the cache itself.
 */
export const RENDER_EVERY_TIME = { RASTILE_RESPONSE_CACHE_MB: '0' } as const;

/**
 * The environment and node flags of `npm start` (package.json's start script), so that the
 * benchmarks run the server exactly as users start it.
 */
export function startScriptSettings(): { env: Record<string, string>; nodeArgs: string[] } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  const nodeArgs: string[] = [];
  let i = 0;
  for (; i < words.length && words[i] !== 'node'; i++) {
    const eq = words[i].indexOf('='); // the value may hold '=' itself (GLIBC_TUNABLES=glibc.malloc.hugetlb=1)
    if (eq > 0) env[words[i].slice(0, eq)] = words[i].slice(eq + 1);
  }
  for (i++; i < words.length && words[i].startsWith('--'); i++) nodeArgs.push(words[i]);
  return { env, nodeArgs };
}

/**
 * The server of the granule benches (mosaic, time series): this checkout, one worker, private hosts
 * allowed (the data host is on loopback), CMR at `cmrUrl`, the response cache off. From source
 * (tsx) by default; with `dist: true` the build in dist/ with `npm start`'s node flags and malloc
 * settings (`startFlags: false`: node's defaults; the caller builds it first: `node scripts/build.js`),
 * so no tsx start-up or disk-cache scan lands in the measured windows.
 */
export async function startGranuleServer(
  port: number,
  cmrUrl: string,
  healthzTimeoutMs?: number,
  options: { dist?: boolean; startFlags?: boolean } = {},
): Promise<ChildProcess> {
  const bin = path.join(import.meta.dirname, '..', 'bin', 'rastile.js');
  const dist = options.dist === true;
  const start = dist && options.startFlags !== false ? startScriptSettings() : { env: {}, nodeArgs: [] };
  const env: NodeJS.ProcessEnv = {
    RASTILE_WORKERS: '1',
    ...process.env,
    LOG_LEVEL: 'warn',
    MALLOC_ARENA_MAX: '2',
    ...start.env,
    RASTILE_CMR_URL: cmrUrl,
    ...RENDER_EVERY_TIME,
  };
  if (dist) delete env['RASTILE_FROM_SOURCE'];
  else env['RASTILE_FROM_SOURCE'] = '1';
  const server = spawn(process.execPath, [...start.nodeArgs, bin, 'serve', '--port', String(port), '--allow-private-hosts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  try {
    await waitForHealthz(`http://127.0.0.1:${port}`, healthzTimeoutMs);
  } catch (err) {
    server.kill('SIGTERM');
    throw err;
  }
  return server;
}

/** SIGTERM, then wait for the exit. */
export async function stopServer(server: ChildProcess): Promise<void> {
  const done = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await done;
}
