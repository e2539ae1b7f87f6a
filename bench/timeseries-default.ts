/**
 * What RASTILE_TIMESERIES_THREADS=auto costs a server against `0`, with the threads started on
 * demand (RASTILE_TIMESERIES_THREADS_COLD=inline, the default) and stopped when idle: the figures
 * the default is chosen on (notes/decisions.md, time series). Per setting, on a fresh server from
 * dist/ (`npm start`'s flags; built first), over bench/timeseries.ts' granules:
 *
 *   1. resident memory when idle after start-up;
 *   2. a single 512² PNG (GET /raster/bbox/…png, one step, blocks cached after its first) ×5;
 *   3. three 10-step GIF series in a row (days 1–10, 11–20, 21–30): with `auto` the first two run
 *      on the calling thread (cold) and the second one's end starts the threads;
 *      the single PNG ×5 right after the second one (while the threads start and warm up);
 *   4. the start's CPU (until the process is idle), the memory with the threads, the single PNG ×5
 *      with the threads alive; the third series (on the threads with `auto`: their first real
 *      one), then the first two again (blocks of sets read by no other set were dropped);
 *   5. the memory after the idle stop (RASTILE_TIMESERIES_THREADS_IDLE_S=IDLE_S, 20 here).
 *
 *   node --import tsx bench/timeseries-default.ts [rounds=1]     # `0` and `auto` alternated
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCmrStandin, type UmmItem } from '../test/helpers/cmr-standin.ts';
import { startRangeServer } from '../test/helpers/http-range-server.ts';
import { procCpuMs, rssMb, startGranuleServer, stopServer } from './load.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, 'out', 'timeseries');
const rounds = Number(process.argv[2] ?? 1);
const PORT = 20000 + Math.floor(Math.random() * 20000);
const IDLE_S = 20;
const BOX = '15.05,44.93,15.3,45.1';

const threadsOf = (pid: number): number => Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function timed(url: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(url);
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${url} → ${r.status}`);
  return performance.now() - t0;
}

async function measure(setting: '0' | 'auto', cmrUrl: string): Promise<string> {
  process.env['RASTILE_TIMESERIES_THREADS'] = setting;
  process.env['RASTILE_TIMESERIES_THREADS_IDLE_S'] = String(IDLE_S);
  delete process.env['RASTILE_TIMESERIES_THREADS_COLD'];
  const server = await startGranuleServer(PORT, cmrUrl, 120_000, { dist: true });
  const pid = server.pid!;
  const u = (p: string) => `http://127.0.0.1:${PORT}${p}`;
  const base = `collection_concept_id=C910000001-BENCH&assets=0&exitwhenfull=false&rescale=2000,6000&colormap_name=viridis`;
  const day = (d: number) => String(d).padStart(2, '0');
  const png = u(`/raster/bbox/${BOX}/512x512.png?${base}&temporal=${encodeURIComponent('2024-06-01T00:00:00Z/2024-06-01T23:59:59Z')}`);
  const gif = (from: number) =>
    u(
      `/raster/timeseries/bbox/${BOX}/512x512.gif?${base}&step=P1D&temporal=${encodeURIComponent(`2024-06-${day(from)}T00:00:00Z/2024-06-${day(from + 9)}T23:59:59Z`)}`,
    );
  const pngs = async () => {
    const xs: number[] = [];
    for (let i = 0; i < 5; i++) xs.push(await timed(png));
    return xs;
  };
  const untilIdle = async (): Promise<number> => {
    // the process's CPU until it stops growing (< 20 ms in 1 s; at most 30 s)
    const c0 = procCpuMs(pid);
    let last = c0;
    for (let i = 0; i < 30; i++) {
      await sleep(1000);
      const c = procCpuMs(pid);
      if (c - last < 20) break;
      last = c;
    }
    return procCpuMs(pid) - c0;
  };
  try {
    await sleep(2000);
    const rssIdle = rssMb(pid);
    const threadsIdle = threadsOf(pid);
    await timed(png); // its granule's blocks cached: the later PNGs are CPU only
    const pngCold = await pngs();
    const seriesMs: number[] = [];
    const seriesCpu: number[] = [];
    const series = async (from: number) => {
      const c0 = procCpuMs(pid);
      seriesMs.push(await timed(gif(from)));
      seriesCpu.push(procCpuMs(pid) - c0);
    };
    await series(1);
    const rssAfterOne = rssMb(pid);
    await series(11);
    const pngStarting = await pngs();
    const startCpu = await untilIdle();
    const rssThreads = rssMb(pid);
    const threadsAlive = threadsOf(pid);
    const pngThreads = await pngs();
    await series(21);
    const rssAfterThird = rssMb(pid);
    await series(1);
    await series(11);
    await sleep((IDLE_S + 3) * 1000);
    const rssStopped = rssMb(pid);
    const threadsStopped = threadsOf(pid);
    const pngAfter = await pngs();
    const f = (xs: number[]) => `${xs.map((x) => x.toFixed(0)).join(' ')} (median ${median(xs).toFixed(0)})`;
    return [
      `RASTILE_TIMESERIES_THREADS=${setting} (load ${load()}):`,
      `  RSS idle ${rssIdle.toFixed(0)} MB (${threadsIdle} threads); after series 1 ${rssAfterOne.toFixed(0)}; threads started ${rssThreads.toFixed(0)} (${threadsAlive} threads); after series 3 ${rssAfterThird.toFixed(0)}; after the idle stop ${rssStopped.toFixed(0)} (${threadsStopped} threads)`,
      `  10-step GIF series 1 / 2 / 3 / 4 / 5: wall ${seriesMs.map((x) => x.toFixed(0)).join(' / ')} ms, CPU ${seriesCpu.map((x) => x.toFixed(0)).join(' / ')} ms; CPU after series 2 until idle (the threads' start) ${startCpu.toFixed(0)} ms`,
      `  single PNG ms: before ${f(pngCold)}; right after series 2 ${f(pngStarting)}; threads alive ${f(pngThreads)}; after the idle stop ${f(pngAfter)}`,
    ].join('\n');
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(here, '..', 'scripts', 'build.js')], { stdio: 'ignore' });
  const doc = JSON.parse(readFileSync(path.join(dir, 'granules.json'), 'utf8')) as { collection: UmmItem; items: UmmItem[] };
  const data = await startRangeServer({ root: path.join(dir, 'data'), validators: 'etag' });
  const items = JSON.parse(JSON.stringify(doc.items).replaceAll('{DATA_HOST}', data.url)) as UmmItem[];
  const cmr = await startCmrStandin({ granules: items, collections: [doc.collection] });
  try {
    console.log(`Time-series threads, default cost ${new Date().toISOString().slice(0, 16)}Z, ${rounds} round(s), load ${load()}`);
    for (let r = 0; r < rounds; r++) {
      for (const setting of ['0', 'auto'] as const) console.log(await measure(setting, cmr.url));
    }
  } finally {
    await cmr.close();
    await data.close();
  }
}

await main();
