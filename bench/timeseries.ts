/**
 * Time-series benchmark: a 30-step P1D statistics series and a 30-frame GIF over 10 generated
 * granules (bench/make-timeseries-data.py; each granule spans 3 days, so 3 steps read it), found
 * through an in-process CMR stand-in and read over HTTP from an in-process range server, against
 * titiler-cmr's design: the same 30 single-step requests (POST /raster/statistics, GET
 * /raster/bbox/….png) made one by one over HTTP to our own server.
 *
 * Each measurement runs on a fresh server process from dist/ (built by this script first, started
 * with `npm start`'s node flags and malloc settings: no tsx in the server), cold caches, first warmed up on a granule outside
 * the series (one single-step statistics and PNG, one 3-step statistics series and GIF: code
 * compiled and JIT-warm, the measured granules untouched), then measured, in two server states
 * (BENCH_WARM=first|steady picks one; default both):
 * - `first`: the measured scenario is the first of its size in the process;
 * - `steady`: the same scenario ran once before over another month's granules (May, G10–G19: a
 *   30-step series, or 30 single requests), as on a server that has served such requests: the
 *   first one pays ~100 ms more (the process's first touch of that much memory, V8 compiling the
 *   series' code at 4 sets at once, its heap limits still low: BENCHMARKS.md, twelfth session).
 * Both: wall
 * time, server CPU (utime+stime from /proc), data-host requests and byte ranges requested more
 * than once (0 = every block of every granule fetched once), CMR requests. The median of `passes`
 * runs is printed. The client's own work in the sub-request design (decoding 30 PNGs, writing the
 * GIF) is not counted, which favours the sub-request side.
 *
 *   /usr/bin/python3 bench/make-timeseries-data.py      # once
 *   node --import tsx bench/timeseries.ts [passes=3]
 *
 * RASTILE_TIMESERIES_THREADS is the server's (unset: the default, `0`). With threads (`auto`) the
 * bench sets RASTILE_TIMESERIES_THREADS_COLD=wait unless given: the threads start and warm up with
 * the server, so the measured series is a warm server's steady state, as the single requests are.
 * The default mode (`inline`) would run the measured series on the calling thread, or on threads
 * started a moment before, depending on timing; what that path costs (the threads' start, the
 * first series on them, memory, a tile's latency meanwhile) is bench/timeseries-default.ts'.
 *
 * BENCH_DATA_DELAY_MS=<ms> delays every data-host answer (a remote host's latency; default 0).
 * BENCH_START_FLAGS=0: the servers from dist/ with node's defaults instead of `npm start`'s flags and
 * malloc settings (as the benches before the tenth session ran them, from source).
 * BENCH_PERF=<file> records `perf record -g` of the server (every thread) during each measured run.
 * BENCH_SERVER_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/x`) is given to the
 * servers only, as NODE_OPTIONS.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCmrStandin, type UmmItem } from '../test/helpers/cmr-standin.ts';
import { startRangeServer, type RecordedRequest } from '../test/helpers/http-range-server.ts';
import { CLK_TCK, procCpuMs, startGranuleServer, stopServer } from './load.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, 'out', 'timeseries');
const passes = Number(process.argv[2] ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));
const BOX = [15.05, 44.93, 15.3, 45.1];
const FEATURE = {
  type: 'Feature',
  properties: {},
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [BOX[0], BOX[1]],
        [BOX[2], BOX[1]],
        [BOX[2], BOX[3]],
        [BOX[0], BOX[3]],
        [BOX[0], BOX[1]],
      ],
    ],
  },
};

function duplicates(reqs: RecordedRequest[]): number {
  const seen = new Set<string>();
  let n = 0;
  for (const r of reqs) {
    const key = `${r.path} ${r.range ?? 'all'}`;
    if (seen.has(key)) n++;
    seen.add(key);
  }
  return n;
}

interface Run {
  wallMs: number;
  cpuMs: number;
  dataRequests: number;
  duplicateRanges: number;
  cmrRequests: number;
}

/** Thread names (/proc/<pid>/task/<tid>/comm: "node" = V8's platform workers, "libuv-worker", …) by tid. */
const threadNames = new Map<number, string>();

/** CPU ms and run-queue wait ms (runnable, no core free) of each thread of `pid` (main thread = `pid`), from /proc/<pid>/task/<tid>/{stat,schedstat}. */
function threadCpuMs(pid: number): Map<number, { cpu: number; wait: number }> {
  const out = new Map<number, { cpu: number; wait: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const sched = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
      out.set(Number(tid), { cpu: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK, wait: Number(sched[1]) / 1e6 });
      if (!threadNames.has(Number(tid))) threadNames.set(Number(tid), readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim());
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

type ThreadTimes = ReturnType<typeof threadCpuMs>;

/**
 * "main N (w wait), other threads a (w …) + b (w …)" for the threads that used ≥ 20 ms between two
 * snapshots; wait = time runnable but not running (no core free: the machine's load, the bench's own data host).
 */
/** The process's minor page faults so far (/proc stat field 10): fresh pages, ~8 µs each on this VM. */
function minorFaults(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7]);
}

function threadSplit(pid: number, before: ThreadTimes, after: ThreadTimes): string {
  const delta = [...after]
    .map(([tid, t]) => [tid, t.cpu - (before.get(tid)?.cpu ?? 0), t.wait - (before.get(tid)?.wait ?? 0)] as const)
    .filter(([, ms]) => ms >= 20);
  const show = (d: (typeof delta)[number] | undefined) => `${(d?.[1] ?? 0).toFixed(0)} (w ${(d?.[2] ?? 0).toFixed(0)})`;
  const main = delta.find(([tid]) => tid === pid);
  const others = delta.filter(([tid]) => tid !== pid).map((d) => `${show(d)} ${threadNames.get(d[0]) ?? '?'}`);
  return `main ${show(main)}${others.length > 0 ? `, other threads ${others.join(' + ')}` : ''}`;
}

/**
 * BENCH_PERF=<file>: `perf record -g` of the server process during each measured run (all its
 * threads: V8's platform workers too, which --cpu-prof does not see), into <file>.<pid>.
 */
async function startPerf(pid: number): Promise<ChildProcess | undefined> {
  const out = process.env['BENCH_PERF'];
  if (out === undefined || out === '') return undefined;
  // BENCH_PERF_CALLGRAPH=dwarf: stacks through libc and node's C++ (frame pointers stop there)
  const callGraph = process.env['BENCH_PERF_CALLGRAPH'];
  const graph = callGraph === undefined || callGraph === '' ? ['-g'] : ['--call-graph', callGraph];
  const perf = spawn('perf', ['record', ...graph, '-F', '2000', '-p', String(pid), '-o', `${out}.${pid}`], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500)); // attached to every thread
  return perf;
}

async function stopPerf(perf: ChildProcess | undefined): Promise<void> {
  if (perf === undefined) return;
  const done = new Promise((r) => perf.once('exit', r));
  perf.kill('SIGINT');
  await done;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Waits until the process used no CPU for two 100 ms polls in a row (clock ticks), at most 3 s. */
async function untilIdle(pid: number): Promise<void> {
  let quiet = 0;
  let last = procCpuMs(pid);
  for (let t = 0; t < 30 && quiet < 2; t++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = procCpuMs(pid);
    quiet = now - last <= 10 ? quiet + 1 : 0;
    last = now;
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(here, '..', 'scripts', 'build.js')], { stdio: 'ignore' }); // the servers run dist/, as `npm start` does
  const doc = JSON.parse(readFileSync(path.join(dir, 'granules.json'), 'utf8')) as { collection: UmmItem; items: UmmItem[] };
  // ETags as real data hosts send them: a dataset opened once is reused (without validators every
  // use re-opens it: src/sources/open-source.ts).
  // BENCH_DATA_DELAY_MS: each data-host answer delayed this long (a remote host's round trip; the
  // in-process host answers at once, so by default only CPU contention shows in the wall time)
  const dataDelay = Number(process.env['BENCH_DATA_DELAY_MS'] ?? 0);
  const data = await startRangeServer({ root: path.join(dir, 'data'), validators: 'etag', delayMs: dataDelay });
  const items = JSON.parse(JSON.stringify(doc.items).replaceAll('{DATA_HOST}', data.url)) as UmmItem[];
  const cmr = await startCmrStandin({ granules: items, collections: [doc.collection] });
  const base = `collection_concept_id=C910000001-BENCH&assets=0&exitwhenfull=false`;
  // the measured month (June: G00–G09) and the steady-state warm-up's (May: G10–G19, BENCH_WARM=full)
  const series = (m: string) => encodeURIComponent(`2024-${m}-01T00:00:00Z/2024-${m}-30T23:59:59Z`);
  const steps = (m: string) =>
    Array.from({ length: 30 }, (_, i) => {
      const d = String(i + 1).padStart(2, '0');
      return encodeURIComponent(`2024-${m}-${d}T00:00:00+00:00/2024-${m}-${d}T23:59:59+00:00`);
    });
  const bbox = BOX.join(',');
  const render = 'rescale=2000,6000&colormap_name=viridis';
  const u = (p: string) => `http://127.0.0.1:${PORT}${p}`;
  const ok = async (r: Response, what: string) => {
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${what} → ${r.status}`);
  };
  const post = (p: string) => fetch(u(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(FEATURE) });

  const kinds: Array<{ name: string; run: (m: string) => Promise<void> }> = [
    {
      name: 'statistics: 1 series request (in-process steps)',
      run: async (m) => ok(await post(`/raster/timeseries/statistics?${base}&temporal=${series(m)}&step=P1D`), 'series'),
    },
    {
      name: 'statistics: 30 single-step requests over HTTP',
      run: async (m) => {
        for (const s of steps(m)) await ok(await post(`/raster/statistics?${base}&temporal=${s}`), 'step');
      },
    },
    {
      name: 'GIF 512×512: 1 series request',
      run: async (m) => ok(await fetch(u(`/raster/timeseries/bbox/${bbox}/512x512.gif?${base}&${render}&temporal=${series(m)}&step=P1D`)), 'gif'),
    },
    {
      name: 'GIF 512×512: 30 single-step PNGs over HTTP',
      run: async (m) => {
        for (const s of steps(m)) await ok(await fetch(u(`/raster/bbox/${bbox}/512x512.png?${base}&${render}&temporal=${s}`)), 'png');
      },
    },
  ];
  // BENCH_ONLY=statistics|gif: that pair of scenarios only
  const only = process.env['BENCH_ONLY'];
  if (only !== undefined && only !== '') {
    const keep = kinds.filter((s) => s.name.toLowerCase().startsWith(only.toLowerCase()));
    if (keep.length === 0) throw new Error(`BENCH_ONLY=${only}: no such scenario`);
    kinds.splice(0, kinds.length, ...keep);
  }
  // BENCH_WARM=first|steady: one of the two server states (default: both, first then steady)
  const warmModes = (process.env['BENCH_WARM'] ?? '') === '' ? ['first', 'steady'] : [process.env['BENCH_WARM']!];
  for (const m of warmModes) if (m !== 'first' && m !== 'steady') throw new Error(`BENCH_WARM=${m}: first or steady`);
  if (warmModes.includes('steady') && doc.items.length < 20) {
    throw new Error('bench/out/timeseries has no warm-up month (G10–G19): re-run /usr/bin/python3 bench/make-timeseries-data.py');
  }
  const scenarios = warmModes.flatMap((mode) => kinds.map((k) => ({ ...k, mode, name: `${k.name} [${mode}]` })));
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `Time-series benchmark ${new Date().toISOString().slice(0, 16)}Z: 30 daily steps over 10 granules (1024² uint16 COGs, 3 steps each), median of ${passes} runs on fresh, warmed-up servers in each state; load average ${load()}`,
  );
  console.log('| scenario | wall ms | server CPU ms | data-host requests | duplicate byte ranges | CMR requests |');
  console.log('|---|---|---|---|---|---|');
  const results: Record<string, Run> = {};
  const splits: string[] = [];
  try {
    for (const s of scenarios) {
      const runs: Run[] = [];
      const split: string[] = [];
      for (let i = 0; i < passes; i++) {
        const serverOptions = process.env['BENCH_SERVER_NODE_OPTIONS'];
        const ownOptions = process.env['NODE_OPTIONS'];
        if (serverOptions !== undefined) process.env['NODE_OPTIONS'] = `${ownOptions ?? ''} ${serverOptions}`.trim();
        // threads (if any) started with the server and warm before the warm-up below, as before
        // RASTILE_TIMESERIES_THREADS_COLD existed: the measured series is a warm server's
        process.env['RASTILE_TIMESERIES_THREADS_COLD'] ??= 'wait';
        const server = await startGranuleServer(PORT, cmr.url, 120_000, { dist: true, startFlags: process.env['BENCH_START_FLAGS'] !== '0' }).finally(() => {
          if (ownOptions === undefined) delete process.env['NODE_OPTIONS'];
          else process.env['NODE_OPTIONS'] = ownOptions;
        });
        try {
          const warm = encodeURIComponent('2024-05-01T00:00:00Z/2024-05-03T23:59:59Z');
          const warmDay = encodeURIComponent('2024-05-01T00:00:00Z/2024-05-01T23:59:59Z');
          await ok(await post(`/raster/statistics?${base}&temporal=${warmDay}`), 'warm-up');
          await ok(await fetch(u(`/raster/bbox/${bbox}/512x512.png?${base}&${render}&temporal=${warmDay}`)), 'warm-up');
          await ok(await post(`/raster/timeseries/statistics?${base}&temporal=${warm}&step=P1D`), 'warm-up');
          await ok(await fetch(u(`/raster/timeseries/bbox/${bbox}/512x512.gif?${base}&${render}&temporal=${warm}&step=P1D`)), 'warm-up');
          // steady: the same scenario once over May's granules first, so that the measured one is
          // not the first of its size in the process (its pool, malloc heap, V8 heap limits and
          // compiled code have served one before: a running server's state, for both designs)
          if (s.mode === 'steady') await s.run('05');
          // what the warm-up set going in the background (the GIF encoder thread's start, V8's
          // compile jobs) ends before the measured window, as in a server that serves these requests
          await untilIdle(server.pid!);
          const d0 = data.requests.length;
          const c0 = cmr.requests.length;
          const cpu0 = procCpuMs(server.pid!);
          const faults0 = minorFaults(server.pid!);
          const threads0 = threadCpuMs(server.pid!);
          const perf = await startPerf(server.pid!);
          const bc0 = process.cpuUsage();
          const t0 = performance.now();
          const mono0 = process.hrtime.bigint() / 1000n;
          await s.run('06');
          const wallMs = performance.now() - t0;
          // the measured window in CLOCK_MONOTONIC µs, the clock of a `--cpu-prof` profile's timestamps
          if (process.env['BENCH_PRINT_WINDOW'] === '1') console.log(`window pid ${server.pid} ${mono0} ${process.hrtime.bigint() / 1000n}`);
          const own = process.cpuUsage(bc0);
          await stopPerf(perf);
          split.push(
            `wall ${wallMs.toFixed(0)}, ${threadSplit(server.pid!, threads0, threadCpuMs(server.pid!))}; minor page faults ${minorFaults(server.pid!) - faults0}; bench process (client, data host, CMR) ${((own.user + own.system) / 1000).toFixed(0)}`,
          );
          const reqs = data.requests.slice(d0);
          runs.push({
            wallMs,
            cpuMs: procCpuMs(server.pid!) - cpu0,
            dataRequests: reqs.length,
            duplicateRanges: duplicates(reqs),
            cmrRequests: cmr.requests.length - c0,
          });
        } finally {
          await stopServer(server);
        }
      }
      const r: Run = {
        wallMs: median(runs.map((x) => x.wallMs)),
        cpuMs: median(runs.map((x) => x.cpuMs)),
        dataRequests: median(runs.map((x) => x.dataRequests)),
        duplicateRanges: Math.max(...runs.map((x) => x.duplicateRanges)),
        cmrRequests: median(runs.map((x) => x.cmrRequests)),
      };
      results[s.name] = r;
      console.log(`| ${s.name} | ${r.wallMs.toFixed(0)} | ${r.cpuMs.toFixed(0)} | ${r.dataRequests} | ${r.duplicateRanges} | ${r.cmrRequests} |`);
      splits.push(`${s.name}: ${split.join('; ')}`);
    }
    const ratio = (a: string, b: string) => {
      const x = results[a]!;
      const y = results[b]!;
      return `wall ${(x.wallMs / y.wallMs).toFixed(2)}, CPU ${(x.cpuMs / y.cpuMs).toFixed(2)}`;
    };
    console.log(
      `\nServer CPU ms per thread, each run (RASTILE_TIMESERIES_THREADS=${process.env['RASTILE_TIMESERIES_THREADS'] ?? 'default'}):\n${splits.join('\n')}`,
    );
    const pairs: string[] = [];
    for (let i = 0; i + 1 < scenarios.length; i += 2)
      pairs.push(`${scenarios[i]!.name.split(':')[0]} [${scenarios[i]!.mode}]: ${ratio(scenarios[i]!.name, scenarios[i + 1]!.name)}`);
    console.log(`\nseries / sub-requests — ${pairs.join('; ')} (load average at the end ${load()})`);
  } finally {
    await cmr.close();
    await data.close();
  }
}

await main();
