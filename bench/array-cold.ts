/**
 * Arrays, cold first tile only (issue 10): the server CPU (utime+stime of its process from /proc,
 * all threads, in clock ticks) and wall time of the first /zarr `.npy` tile of bench/array.ts's
 * NetCDF-4, in a fresh server (`npm start`'s settings, dist/) and then for a second name of the
 * file in that server, and the event-loop thread's CPU up to the response's end (the latency path;
 * work the server defers until idle, such as refilling util/faulted-reserve.ts, is outside it).
 * `rounds` fresh servers; with `BASE=<another checkout with dist built>`
 * each round runs that checkout's server too, alternated, for a same-hour before/after.
 * Needs the data of bench/array.ts (bench/make-array-data.py, /tmp/rastile-bench-array).
 *
 *   node --import tsx bench/array-cold.ts [rounds=4] [delayMs=20]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { startRangeServer } from '../test/helpers/http-range-server.ts';
import { procCpuMs, RENDER_EVERY_TIME, startScriptSettings, threadCpuMs, waitForHealthz } from './load.ts';

const rounds = Number(process.argv[2] ?? 4);
const delayMs = Number(process.argv[3] ?? 20);
const DATA = '/tmp/rastile-bench-array';
const here = path.join(import.meta.dirname, '..');
const checkouts = process.env.BASE !== undefined ? [process.env.BASE, here] : [here];

interface Cold {
  wallMs: number;
  /** The whole process, until its threads settled (300 ms after the response). */
  cpuMs: number;
  /** The event-loop thread, until the response's end. */
  mainMs: number;
}

async function coldTiles(checkout: string, dataUrl: string): Promise<Cold[]> {
  const port = 20000 + Math.floor(Math.random() * 30000);
  const start = startScriptSettings();
  const proc = spawn(process.execPath, [...start.nodeArgs, path.join(checkout, 'bin', 'rastile.js'), 'serve', '--port', String(port)], {
    stdio: 'ignore',
    env: { LOG_LEVEL: 'warn', RASTILE_WORKERS: '1', RASTILE_ALLOW_PRIVATE_HOSTS: 'true', ...start.env, ...process.env, ...RENDER_EVERY_TIME },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealthz(base);
    await new Promise((r) => setTimeout(r, 500));
    const t = (JSON.parse(readFileSync(path.join(DATA, 'tiles.json'), 'utf8')) as Array<{ z: number; x: number; y: number }>)[0]!;
    const out: Cold[] = [];
    for (const file of ['sst.nc', 'sst-second.nc']) {
      const url = `${base}/zarr/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${encodeURIComponent(`${dataUrl}/${file}`)}&variable=analysed_sst`;
      const cpu0 = procCpuMs(proc.pid!);
      const main0 = threadCpuMs(proc.pid!).main;
      const t0 = performance.now();
      const r = await fetch(url);
      await r.arrayBuffer();
      const wallMs = performance.now() - t0;
      const mainMs = threadCpuMs(proc.pid!).main - main0;
      if (r.status !== 200) throw new Error(`${url} → ${r.status}`);
      await new Promise((res) => setTimeout(res, 300)); // let the server's threads settle before reading its CPU
      out.push({ wallMs, cpuMs: procCpuMs(proc.pid!) - cpu0, mainMs });
    }
    return out;
  } finally {
    proc.kill();
    await once(proc, 'exit');
  }
}

const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;

const server = await startRangeServer({ root: DATA, validators: 'etag', delayMs });
try {
  const results = new Map<string, Cold[][]>(checkouts.map((c) => [c, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of checkouts) {
      const cold = await coldTiles(c, server.url);
      results.get(c)!.push(cold);
      console.log(
        `${path.basename(c)} round ${r + 1} (load ${loadavg()[0]!.toFixed(1)}): new process ${cold[0]!.cpuMs} ms CPU (event loop to response ${cold[0]!.mainMs}) / ${cold[0]!.wallMs.toFixed(0)} ms wall; ` +
          `new file ${cold[1]!.cpuMs} ms CPU (event loop to response ${cold[1]!.mainMs}) / ${cold[1]!.wallMs.toFixed(0)} ms wall`,
      );
    }
  }
  console.log(
    '\n| checkout | new process: CPU / event loop to response / wall (medians) | new file, warm process: CPU / event loop to response / wall (medians) |\n|---|---|---|',
  );
  for (const [c, runs] of results) {
    const col = (k: 0 | 1): string =>
      `${median(runs.map((x) => x[k]!.cpuMs))} / ${median(runs.map((x) => x[k]!.mainMs))} / ${median(runs.map((x) => x[k]!.wallMs)).toFixed(0)} ms`;
    console.log(`| ${c} | ${col(0)} | ${col(1)} |`);
  }
} finally {
  await server.close();
}
