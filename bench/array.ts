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
 *   node --import tsx bench/array.ts [passes=3] [delayMs=20]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, linkSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { getTileMatrixSet } from '../src/geo/tms.ts';
import { startRangeServer, type RangeServer } from '../test/helpers/http-range-server.ts';
import { peakRssMb, procCpuMs, RENDER_EVERY_TIME, sampleTiles, startScriptSettings, waitForHealthz } from './load.ts';

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

interface Side {
  /** Open + first tile in a fresh process. */
  coldProcess: Cold;
  /** Open + first tile of another file (the same bytes under another name) in the warmed process. */
  coldFile: Cold;
  cpuMsPerTile: number;
  peakRssMb: number;
}

type Tile = { z: number; x: number; y: number };

async function ours(server: RangeServer, size: number, urls: [string, string], tiles: Tile[]): Promise<Side> {
  const start = startScriptSettings();
  // BENCH_NODE_ARGS adds node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = [...start.nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const proc = spawn(process.execPath, [...nodeArgs, path.join(here, '..', 'bin', 'rastile.js'), 'serve', '--port', String(PORT)], {
    stdio: ['ignore', 'ignore', 'ignore'],
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
    const cpu0 = procCpuMs(proc.pid!);
    for (let p = 0; p < passes; p++) for (const t of tiles) await get(t);
    const cpuMsPerTile = (procCpuMs(proc.pid!) - cpu0) / (passes * tiles.length);
    return { coldProcess, coldFile, cpuMsPerTile, peakRssMb: peakRssMb(proc.pid!) };
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
    const py = await xarray(server, size, urls, tilesFile);
    console.log(`load average after xarray: ${load()}`);
    const us = await ours(server, size, urls, tiles);
    console.log(`load average after rastile: ${load()}`);
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
  } finally {
    await server.close();
  }
}

await main();
