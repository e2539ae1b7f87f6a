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
import { procCpuMs, RENDER_EVERY_TIME, rssMb, startScriptSettings, threadCpuMs, waitForHealthz, type ThreadCpu } from './load.ts';

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
  /** `cpuMs` by thread kind: the event loop, V8's helper threads (compiler, GC), libuv's pool. */
  threads: ThreadCpu;
}

interface Round {
  /** Server CPU from spawn until it answered /healthz (module loading, app set-up, start-up warm-up), and its RSS then. */
  startCpuMs: number;
  startRssMb: number;
  cold: Cold[];
}

const minus = (a: ThreadCpu, b: ThreadCpu): ThreadCpu => ({ main: a.main - b.main, pool: a.pool - b.pool, v8: a.v8 - b.v8, other: a.other - b.other });

async function coldTiles(checkout: string, dataUrl: string): Promise<Round> {
  const port = 20000 + Math.floor(Math.random() * 30000);
  const start = startScriptSettings();
  // BENCH_NODE_ARGS adds node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = [...start.nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const proc = spawn(process.execPath, [...nodeArgs, path.join(checkout, 'bin', 'rastile.js'), 'serve', '--port', String(port)], {
    stdio: 'ignore',
    env: { LOG_LEVEL: 'warn', RASTILE_WORKERS: '1', RASTILE_ALLOW_PRIVATE_HOSTS: 'true', ...start.env, ...process.env, ...RENDER_EVERY_TIME },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealthz(base);
    const startCpuMs = procCpuMs(proc.pid!);
    const startRssMb = rssMb(proc.pid!);
    await new Promise((r) => setTimeout(r, 500));
    const t = (JSON.parse(readFileSync(path.join(DATA, 'tiles.json'), 'utf8')) as Array<{ z: number; x: number; y: number }>)[0]!;
    const out: Cold[] = [];
    for (const file of ['sst.nc', 'sst-second.nc']) {
      const url = `${base}/zarr/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${encodeURIComponent(`${dataUrl}/${file}`)}&variable=analysed_sst`;
      const cpu0 = procCpuMs(proc.pid!);
      const threads0 = threadCpuMs(proc.pid!);
      const t0 = performance.now();
      const r = await fetch(url);
      await r.arrayBuffer();
      const wallMs = performance.now() - t0;
      const mainMs = threadCpuMs(proc.pid!).main - threads0.main;
      if (r.status !== 200) throw new Error(`${url} → ${r.status}`);
      await new Promise((res) => setTimeout(res, 300)); // let the server's threads settle before reading its CPU
      out.push({ wallMs, cpuMs: procCpuMs(proc.pid!) - cpu0, mainMs, threads: minus(threadCpuMs(proc.pid!), threads0) });
    }
    return { startCpuMs, startRssMb, cold: out };
  } finally {
    proc.kill();
    await once(proc, 'exit');
  }
}

const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;

const split = (t: ThreadCpu): string => `main ${t.main} / V8 helpers ${t.v8} / pool ${t.pool}`;

const server = await startRangeServer({ root: DATA, validators: 'etag', delayMs });
try {
  const results = new Map<string, Round[]>(checkouts.map((c) => [c, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of checkouts) {
      const round = await coldTiles(c, server.url);
      results.get(c)!.push(round);
      const [np, nf] = round.cold as [Cold, Cold];
      console.log(
        `${path.basename(c)} round ${r + 1} (load ${loadavg()[0]!.toFixed(1)}): start ${round.startCpuMs} ms CPU, ${round.startRssMb.toFixed(1)} MiB RSS; ` +
          `new process ${np.cpuMs} ms CPU (${split(np.threads)}; event loop to response ${np.mainMs}) / ${np.wallMs.toFixed(0)} ms wall; ` +
          `new file ${nf.cpuMs} ms CPU (${split(nf.threads)}; event loop to response ${nf.mainMs}) / ${nf.wallMs.toFixed(0)} ms wall`,
      );
    }
  }
  console.log(
    '\n| checkout | start-up: CPU / RSS (medians) | new process: CPU / event loop to response / wall (medians) | its main thread CPU | new file, warm process: CPU / event loop to response / wall (medians) | its main thread CPU |\n|---|---|---|---|---|---|',
  );
  for (const [c, runs] of results) {
    const col = (k: 0 | 1): string =>
      `${median(runs.map((x) => x.cold[k]!.cpuMs))} / ${median(runs.map((x) => x.cold[k]!.mainMs))} / ${median(runs.map((x) => x.cold[k]!.wallMs)).toFixed(0)} ms | ${median(runs.map((x) => x.cold[k]!.threads.main))} ms`;
    console.log(`| ${c} | ${median(runs.map((x) => x.startCpuMs))} ms / ${median(runs.map((x) => x.startRssMb)).toFixed(1)} MiB | ${col(0)} | ${col(1)} |`);
  }
} finally {
  await server.close();
}
