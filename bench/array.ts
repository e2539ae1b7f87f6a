/**
 * Arrays (issue 10): rastile's /zarr tiles of a remote NetCDF-4 against titiler-cmr's own stack
 * (Debian's python3-xarray + h5netcdf + fsspec HTTP, bench/array_xarray.py) in the same run, both
 * reading the same 125 MB chunked, deflated file (bench/make-array-data.py, written to /tmp) from
 * one loopback HTTP Range server that counts the requests and bytes it serves (with `delayMs` per
 * answer, default 20 ms, an in-region object store's latency).
 *
 * For each side: cold = open + first tile (wall time, requests and bytes), once in a fresh process
 * (Python: after its imports) and once for a second name of the file in the warmed process; warm = after one pass over all tiles, `passes` timed
 * passes, one request at a time, CPU ms per tile (ours: the server's utime+stime from /proc;
 * xarray: process_time of its process, all threads), and peak RSS. Both sides produce .npy tiles
 * (no image encoding); ours goes through HTTP with the response cache off (RENDER_EVERY_TIME).
 *
 * Then, per timed warm pass of ours, per tile: CPU by thread (/proc/<pid>/task: event loop, libuv
 * pool, V8's helpers), block decodes (decoded-chunk cache misses), minor page faults, buffer-pool
 * allocations and GC (from /metrics), so that a trend over passes shows where it comes from.
 *
 *   node --import tsx bench/array.ts [passes=3] [delayMs=20]
 *
 * BENCH_OURS_ONLY=1 skips the xarray side; BENCH_NODE_ARGS adds node flags to our server;
 * BENCH_SERVER_LOG=<file> keeps its output (e.g. BENCH_NODE_ARGS=--trace-gc).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, linkSync, openSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { getTileMatrixSet } from '../src/geo/tms.ts';
import { startRangeServer, type RangeServer } from '../test/helpers/http-range-server.ts';
import { minorFaults, peakRssMb, procCpuMs, RENDER_EVERY_TIME, sampleTiles, startScriptSettings, threadCpuMs, waitForHealthz, type ThreadCpu } from './load.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const passes = Number(process.argv[2] ?? 3);
const delayMs = Number(process.argv[3] ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));
const VARIABLE = 'analysed_sst';

/** Requests and body bytes the range server answered since `from` (bytes from each request's Range and the file size). */
function served(server: RangeServer, size: number, from: number): { requests: number; bytes: number } {
  let bytes = 0;
  const list = server.requests.slice(from);
  for (const r of list) {
    if (r.method === 'HEAD') continue;
    const m = /^bytes=(\d*)-(\d*)$/.exec(r.range ?? '');
    if (m === null) bytes += size;
    else if (m[1] === '') bytes += Math.min(size, Number(m[2]));
    else bytes += Math.max(0, Math.min(size - 1, m[2] === '' ? size - 1 : Number(m[2])) - Number(m[1]) + 1);
  }
  return { requests: list.length, bytes };
}

interface Cold {
  ms: number;
  requests: number;
  bytes: number;
}

/** One timed warm pass of our server, per tile: CPU (all, and by thread kind), block decodes, GC. */
interface Pass {
  cpuMsPerTile: number;
  threads: ThreadCpu;
  decodesPerTile: number;
  /** Minor page faults (first touches of freshly mapped pages). */
  faultsPerTile: number;
  /** New buffers the buffer pool had to allocate (its kept ones could not serve the take). */
  poolAllocationsPerTile: number;
  majorGcs: number;
  gcMsPerTile: number;
}

/** Block decodes (decoded-chunk cache misses) and garbage collections of the server so far, from /metrics. */
async function counters(
  base: string,
): Promise<{ decodes: number; poolAllocations: number; majorGcs: number; gcS: number; gcByKind: Record<string, [number, number]> }> {
  const m = await (await fetch(`${base}/metrics`)).text();
  const gcByKind: Record<string, [number, number]> = {};
  for (const x of m.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{[^}]*kind="(\w+)"[^}]*\} ([\d.e+-]+)/gm)) {
    const e = (gcByKind[x[2]!] ??= [0, 0]);
    e[x[1] === 'count' ? 0 : 1] += Number(x[3]);
  }
  const gcS = [...m.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} ([\d.e+-]+)/gm)].reduce((a, x) => a + Number(x[1]), 0);
  return {
    decodes: Number(/^rastile_block_decodes_total (\d+)/m.exec(m)?.[1] ?? NaN),
    poolAllocations: Number(/^rastile_buffer_pool_allocations (\d+)/m.exec(m)?.[1] ?? NaN),
    majorGcs: Number(/^nodejs_gc_duration_seconds_count\{[^}]*kind="major"[^}]*\} (\d+)/m.exec(m)?.[1] ?? 0),
    gcS,
    gcByKind,
  };
}

interface Side {
  /** Open + first tile in a fresh process. */
  coldProcess: Cold;
  /** Open + first tile of another file (the same bytes under another name) in the warmed process. */
  coldFile: Cold;
  cpuMsPerTile: number;
  peakRssMb: number;
  /** Ours only: each timed warm pass. */
  perPass?: Pass[];
}

type Tile = { z: number; x: number; y: number };

async function ours(server: RangeServer, size: number, urls: [string, string], tiles: Tile[]): Promise<Side> {
  const start = startScriptSettings();
  // BENCH_NODE_ARGS adds node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = [...start.nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const proc = spawn(process.execPath, [...nodeArgs, path.join(here, '..', 'bin', 'rastile.js'), 'serve', '--port', String(PORT)], {
    // BENCH_SERVER_LOG=<file>: the server's output there (e.g. with BENCH_NODE_ARGS=--trace-gc).
    stdio: process.env.BENCH_SERVER_LOG === undefined ? 'ignore' : ['ignore', openSync(process.env.BENCH_SERVER_LOG, 'w'), 'inherit'],
    env: { LOG_LEVEL: 'warn', RASTILE_WORKERS: '1', RASTILE_ALLOW_PRIVATE_HOSTS: 'true', ...start.env, ...process.env, ...RENDER_EVERY_TIME },
  });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitForHealthz(base);
    const url = (t: Tile, file: string): string =>
      `${base}/zarr/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${encodeURIComponent(file)}&variable=${VARIABLE}`;
    const get = async (t: Tile, file = urls[0]): Promise<void> => {
      const r = await fetch(url(t, file));
      await r.arrayBuffer();
      if (r.status !== 200 && r.status !== 404) throw new Error(`${url(t, file)} → ${r.status}`);
    };
    const cold = async (file: string): Promise<Cold> => {
      const from = server.requests.length;
      const t0 = performance.now();
      await get(tiles[0]!, file);
      return { ms: performance.now() - t0, ...served(server, size, from) };
    };
    const coldProcess = await cold(urls[0]);
    const coldFile = await cold(urls[1]);
    for (const t of tiles) await get(t);
    const perPass: Pass[] = [];
    const cpu0 = procCpuMs(proc.pid!);
    for (let p = 0; p < passes; p++) {
      const [m0, f0, c0, t0] = [await counters(base), minorFaults(proc.pid!), procCpuMs(proc.pid!), threadCpuMs(proc.pid!)];
      for (const t of tiles) await get(t);
      const [c1, t1, f1, m1] = [procCpuMs(proc.pid!), threadCpuMs(proc.pid!), minorFaults(proc.pid!), await counters(base)];
      const n = tiles.length;
      perPass.push({
        cpuMsPerTile: (c1 - c0) / n,
        threads: { main: (t1.main - t0.main) / n, pool: (t1.pool - t0.pool) / n, v8: (t1.v8 - t0.v8) / n, other: (t1.other - t0.other) / n },
        decodesPerTile: (m1.decodes - m0.decodes) / n,
        faultsPerTile: (f1 - f0) / n,
        poolAllocationsPerTile: (m1.poolAllocations - m0.poolAllocations) / n,
        majorGcs: m1.majorGcs - m0.majorGcs,
        gcMsPerTile: ((m1.gcS - m0.gcS) * 1000) / n,
      });
      if (process.env.BENCH_GC_KINDS !== undefined)
        console.error(
          Object.entries(m1.gcByKind)
            .map(([k, [c, s]]) => `${k}: ${c - (m0.gcByKind[k]?.[0] ?? 0)} × → ${((s - (m0.gcByKind[k]?.[1] ?? 0)) * 1000).toFixed(0)} ms`)
            .join('; '),
        );
    }
    // The /metrics scrapes between passes cost a little CPU too: the mean is over the passes' own CPU.
    const cpuMsPerTile = perPass.reduce((a, p) => a + p.cpuMsPerTile, 0) / passes;
    void cpu0;
    return { coldProcess, coldFile, cpuMsPerTile, peakRssMb: peakRssMb(proc.pid!), perPass };
  } finally {
    proc.kill();
    await once(proc, 'exit');
  }
}

async function xarray(server: RangeServer, size: number, urls: [string, string], tilesFile: string): Promise<Side> {
  const proc: ChildProcess = spawn('/usr/bin/python3', [path.join(here, 'array_xarray.py'), ...urls, VARIABLE, tilesFile, String(passes)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, Record<string, number>>> => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error('bench/array_xarray.py ended early');
    return JSON.parse(value as string) as Record<string, Record<string, number>>;
  };
  // Python's interpreter start and imports are not counted (the script times from the open on);
  // the requests are counted from here: none are sent before the open.
  const cold = async (): Promise<Cold> => {
    const from = server.requests.length;
    const c = (await next()).cold!;
    const counted = served(server, size, from);
    proc.stdin!.write('\n');
    return { ms: c.first_tile_ms!, ...counted };
  };
  const coldProcess = await cold();
  const coldFile = await cold();
  const warm = (await next()).warm!;
  proc.stdin!.end();
  return { coldProcess, coldFile, cpuMsPerTile: warm.cpu_ms_per_tile!, peakRssMb: warm.peak_rss_mb! };
}

/** The same-run table of both sides. */
function printComparison(us: Side, py: Side): void {
  const row = (name: string, a: number, b: number, unit: string, digits = 1): string =>
    `| ${name} | ${a.toFixed(digits)} ${unit} | ${b.toFixed(digits)} ${unit} | ${(a / b).toFixed(2)}× |`;
  console.log('\n| | rastile /zarr | xarray + h5netcdf + fsspec | ratio |\n|---|---|---|---|');
  for (const [label, k] of [
    ['new process', 'coldProcess'],
    ['new file, warm process', 'coldFile'],
  ] as const) {
    console.log(row(`cold first tile (open + tile), ${label}`, us[k].ms, py[k].ms, 'ms', 0));
    console.log(row(`requests, open + first tile, ${label}`, us[k].requests, py[k].requests, '', 0));
    console.log(row(`bytes, open + first tile, ${label}`, us[k].bytes / 1e6, py[k].bytes / 1e6, 'MB', 2));
  }
  console.log(row('warm CPU per tile', us.cpuMsPerTile, py.cpuMsPerTile, 'ms', 1));
  console.log(row('peak RSS', us.peakRssMb, py.peakRssMb, 'MiB', 0));
}

async function main(): Promise<void> {
  const file = execFileSync('/usr/bin/python3', [path.join(here, 'make-array-data.py')], { encoding: 'utf8' }).trim();
  const size = statSync(file).size;
  execFileSync(process.execPath, [path.join(here, '..', 'scripts', 'build.js')], { stdio: 'ignore' }); // as `npm start` does
  const tms = getTileMatrixSet('WebMercatorQuad');
  // The North Atlantic, zooms 4–7 (a z4 tile is ~900×1000 grid pixels, 1–4 chunks).
  const tiles = sampleTiles(tms, [-60, 10, -10, 50], 4, 7, 8);
  const tilesFile = path.join('/tmp', 'rastile-bench-array', 'tiles.json');
  writeFileSync(tilesFile, JSON.stringify(tiles));
  const server = await startRangeServer({ root: path.dirname(file), validators: 'etag', delayMs });
  // The same bytes under a second name: a file neither side has opened, once the process is warm.
  const second = path.join(path.dirname(file), 'sst-second.nc');
  if (!existsSync(second)) linkSync(file, second);
  const urls: [string, string] = [`${server.url}/${path.basename(file)}`, `${server.url}/${path.basename(second)}`];
  try {
    const load = (): string =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
    console.log(`file ${file}: ${(size / 1e6).toFixed(1)} MB; ${tiles.length} tiles z4–7; ${passes} warm passes; ${delayMs} ms per range answer`);
    console.log(`load average before: ${load()}`);
    // BENCH_OURS_ONLY=1: rastile's side only (to iterate on it; the ratios need both sides).
    const oursOnly = process.env.BENCH_OURS_ONLY === '1';
    const py = oursOnly ? null : await xarray(server, size, urls, tilesFile);
    console.log(`load average after xarray: ${load()}`);
    const us = await ours(server, size, urls, tiles);
    console.log(`load average after rastile: ${load()}`);
    if (py === null) console.log(`\nwarm CPU per tile ${us.cpuMsPerTile.toFixed(1)} ms, peak RSS ${us.peakRssMb.toFixed(0)} MiB`);
    else printComparison(us, py);
    console.log('\nrastile, each timed warm pass, per tile (CPU ms: all threads = event loop + libuv pool + V8 helpers + other):\n');
    console.log(
      '| pass | CPU ms | event loop | pool | V8 helpers | other | decodes | page faults | pool allocations | GC ms | major GCs |\n|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const [i, p] of (us.perPass ?? []).entries()) {
      const t = p.threads;
      console.log(
        `| ${i + 1} | ${p.cpuMsPerTile.toFixed(1)} | ${t.main.toFixed(1)} | ${t.pool.toFixed(1)} | ${t.v8.toFixed(1)} | ${t.other.toFixed(1)} | ${p.decodesPerTile.toFixed(2)} | ${p.faultsPerTile.toFixed(0)} | ${p.poolAllocationsPerTile.toFixed(2)} | ${p.gcMsPerTile.toFixed(2)} | ${p.majorGcs} |`,
      );
    }
  } finally {
    await server.close();
  }
}

await main();
