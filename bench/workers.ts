/**
 * Workers benchmark: `rastile serve --workers N` (built, started as `npm start` starts it) under
 * wrk on loopback over the tile benchmark's URL list (bench/tile-urls.ts), for N = 1 and 2.
 *
 * Throughput: tiles/s, and the load-insensitive figures beside it — CPU ms per tile of the whole
 * process tree (utime+stime of the supervisor and every worker, from /proc), the cores the tree
 * got (its CPU ÷ wall time) and wrk's own CPU (it shares the cores). On a machine shared with
 * other work tiles/s follows the kernel's fair share; CPU per tile does not. `rounds` > 1 runs the
 * worker counts interleaved (1,2,1,2…) and reports each row's median, so a change in the
 * machine's load hits both counts alike.
 *
 * Memory of the tree, sampled every 100 ms from /proc/<pid>/smaps_rollup (peaks of the sums):
 * - Σ RSS: counts pages shared between the processes (node's binary and libraries, mapped by
 *   every process of the tree) once per process — it overstates a cluster's memory;
 * - Σ PSS: each shared page divided among the processes mapping it — including processes outside
 *   the tree (other node processes on the machine), so it understates a little on a shared box;
 * - Σ private + max shared ("once"): every process's own pages plus the largest shared set, i.e.
 *   the shared pages counted once — what the tree really adds to the machine's memory (exact
 *   when the processes share the same files, which they do: one node binary, one node_modules).
 *
 * CPU is also split by thread (from /proc/<pid>/task): the supervisor, the workers' event-loop
 * threads, libuv's pool (fs, async zlib, sharp), V8's helper threads (concurrent/parallel GC,
 * compiler), with full GCs per 100 tiles and GC time per tile from /metrics. A worker count "Ns"
 * runs N separate one-process instances, each fed its share of the tiles by its own wrk (split by
 * parent tile): the tile affinity a balancer hashing the parent tile would give, at no cost.
 * A worker count "Nt" runs `--workers N` as worker threads of one process
 * (`RASTILE_WORKER_MODE=threads`; "N" alone is the node:cluster mode, processes): its main thread
 * is counted as the supervisor, the N busiest threads named `node` as the event loops.
 * Beside it, what the machine did during the measured run (/proc/stat): the cores left idle and the
 * cores other processes took (neither the tree nor wrk) — at 2 workers on 2 cores the tree can only
 * use what those leave — and the event loops' balance (least ÷ most busy loop's CPU: connections
 * spread unevenly over the workers show there).
 * Extra node flags for experiments: BENCH_NODE_ARGS (e.g. --single-threaded-gc).
 *
 * Per core (bench/workers-cores.ts): around every run bench/cpu-probe.ts times a fixed piece of work
 * on each core (this VM's cores are not equally fast, nor at every minute: the hypervisor's
 * hidden steal is charged to whatever runs), and the run-by-run table prints, beside tiles/s, the
 * cores the tree, wrk and other processes got, steal, CPU pressure (PSI), the event loops' wait
 * for a core and the core they ran on, minor faults, decodes and GCs per tile. A worker count
 * "1p<c>" holds one worker's whole tree to core c with `taskset` and wrk to the other core;
 * BENCH_PIN=1 adds "1p0,1p1" and prints 2 workers ÷ 1 worker per core, with the ceilings.
 *
 *   /usr/bin/python3 bench/make-bench-data.py      # once
 *   node --import tsx bench/workers.ts [seconds=20] [connections=8] [workers=1,2] [rounds=1]
 *   node --import tsx bench/workers.ts 15 8 1,2,2s 3    # with the affinity bound, 3 interleaved rounds
 *   node --import tsx bench/workers.ts 15 8 1,2,2t 1    # 1 worker, 2 processes, 2 threads
 *   BENCH_PIN=1 node --import tsx bench/workers.ts 15 8 1,2t 3   # + one worker held to each core (1p0, 1p1)
 *
 * The machine's load average is printed beside the figures: on a shared machine they move with it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { procCpuMs, RENDER_EVERY_TIME, startScriptSettings, waitForHealthz } from './load.ts';
import { cpuPressureUs, machineCpuMs, machineStealMs, splitCpu, threadSched, threadTimes, tree, treeCpuMs, treeMemory, type CpuSplit } from './proc-stats.ts';
import { holdEachWorker, onCore, pinnedCore, Placement, printPerCore, printRuns, probeCores, schedDelta } from './workers-cores.ts';
import { out, tileList, tileUrl } from './tile-urls.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const seconds = Number(process.argv[2] ?? 20);
const connections = Number(process.argv[3] ?? 8);
/** Worker counts; "Ns" = N separate instances with tile affinity, "Nt" = N worker threads (see `run`). */
const workerCounts = (process.argv[4] ?? '1,2').split(',');
/** BENCH_PIN=1: also one worker held to core 0 and to core 1 by taskset, wrk on the other core ("1p0", "1p1"; bench/workers-cores.ts). */
if (process.env.BENCH_PIN === '1') {
  const missing = ['1p0', '1p1'].filter((x) => !workerCounts.includes(x));
  workerCounts.splice(workerCounts.includes('1') ? workerCounts.indexOf('1') + 1 : 0, 0, ...missing);
}
const rounds = Math.max(1, Number(process.argv[5] ?? 1));
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));
/** Extra node flags for the server (experiments), e.g. BENCH_NODE_ARGS='--v8-pool-size=1'. */
const extraNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const base = `http://127.0.0.1:${PORT}`;

/** Block decodes, and full (major) garbage collections with their seconds, of the whole tree so far. */
async function counters(server: string): Promise<{ decodes: number; majorGcs: number; gcS: number }> {
  const m = await (await fetch(`${server}/metrics`)).text();
  const value = (re: RegExp): number => Number(re.exec(m)?.[1] ?? NaN);
  const gcS = [...m.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} ([\d.e+-]+)/gm)].reduce((a, x) => a + Number(x[1]), 0);
  return {
    decodes: value(/^rastile_block_decodes_total (\d+)/m),
    majorGcs: Number(/^nodejs_gc_duration_seconds_count\{[^}]*kind="major"[^}]*\} (\d+)/m.exec(m)?.[1] ?? 0),
    gcS,
  };
}

interface WrkResult {
  requests: number;
  duration_us: number;
  errors: number;
  non2xx: number;
  p50_us: number;
  p99_us: number;
}

/** wrk over the paths of `pathsFile` (bench/wrk-paths.lua cycles through them); runs beside us (async). */
function wrk(durationS: number, pathsFile: string, server: string, conns: number, core: number | null): Promise<WrkResult & { cpuMs: number }> {
  const args = ['-t1', `-c${conns}`, `-d${durationS}s`, '-s', path.join(here, 'wrk-paths.lua'), server];
  const child = spawn(...onCore(core, 'wrk', args), {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WRK_PATHS: pathsFile },
  });
  let text = '';
  let cpuMs = 0;
  child.stdout.on('data', (d: Buffer) => {
    text += d.toString();
    try {
      if (text.includes('{"requests"')) cpuMs = procCpuMs(child.pid!); // printed at its end, before it exits
    } catch {
      // already gone: its CPU stays unknown (0)
    }
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const json = text.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || json === undefined) reject(new Error(`wrk exited ${code}:\n${text}`));
      else resolve({ ...(JSON.parse(json) as WrkResult), cpuMs });
    }),
  );
}

/** The paths of `file` split into `n` files by the tile's parent (dataset, z−1, x≫1, y≫1): what a balancer hashing the parent tile sends to each instance. */
function splitByParent(file: string, n: number): string[] {
  const parts: string[][] = Array.from({ length: n }, () => []);
  for (const p of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const m = /\/(\d+)\/(\d+)\/(\d+)\.png\?url=([^&]*)/.exec(p)!;
    const key = `${m[4]}/${Number(m[1]) - 1}/${Number(m[2]) >> 1}/${Number(m[3]) >> 1}`;
    let h = 2166136261; // FNV-1a
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
    parts[h % n].push(p);
  }
  return parts.map((lines, i) => {
    const f = `${file}.${i}-of-${n}`;
    writeFileSync(f, lines.join('\n') + '\n');
    return f;
  });
}

/**
 * One measured run. `spec` "N": `rastile serve --workers N` (a cluster; connections spread by
 * node's primary). "Ns": N separate one-process instances (block cache budget split the same way;
 * the 24 MiB buffer pool is whole in each, as in any separate process),
 * each with its own wrk over its share of the tiles split by parent tile — the tile affinity a
 * balancer hashing the parent would give, at no balancer cost (the upper bound of that recipe).
 */
async function run(spec: string, pathsFile: string): Promise<Record<string, number>> {
  const workers = Number.parseInt(spec, 10);
  const separate = spec.endsWith('s');
  const threads = /^\d+t/.test(spec);
  const eachOnItsCore = spec.endsWith('x'); // "2x", "2tx": worker i (its process, or its thread's event loop) held to core i
  const pin = pinnedCore(spec); // the tree on this core, wrk on the other
  const wrkCore = pin === null ? null : 1 - pin;
  const start = startScriptSettings();
  const totalCacheMb = Number(process.env.RASTILE_BLOCK_CACHE_MB ?? 40);
  const bases = separate ? Array.from({ length: workers }, (_, i) => `http://127.0.0.1:${PORT + i}`) : [base];
  const serverArgs = (b: string): string[] => [
    ...start.nodeArgs,
    ...extraNodeArgs,
    path.join(root, 'bin', 'rastile.js'),
    'serve',
    '--port',
    new URL(b).port,
    '--local-roots',
    out,
  ];
  const servers = bases.map((b) =>
    spawn(...onCore(pin, process.execPath, serverArgs(b)), {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        LOG_LEVEL: 'warn',
        ...start.env,
        ...process.env,
        RASTILE_WORKERS: separate ? '1' : String(workers),
        RASTILE_WORKER_MODE: threads ? 'threads' : 'processes',
        ...(separate ? { RASTILE_BLOCK_CACHE_MB: String(Math.floor(totalCacheMb / workers)) } : {}),
        ...RENDER_EVERY_TIME,
      },
    }),
  );
  const files = separate ? splitByParent(pathsFile, workers) : [pathsFile];
  const conns = separate ? Math.max(1, Math.round(connections / workers)) : connections;
  const wrkAll = async (durationS: number): Promise<WrkResult & { cpuMs: number }> => {
    const rs = await Promise.all(bases.map((b, i) => wrk(durationS, files[i], b, conns, wrkCore)));
    const sum = (k: 'requests' | 'errors' | 'non2xx' | 'cpuMs'): number => rs.reduce((a, r) => a + r[k], 0);
    const max = (k: 'duration_us' | 'p50_us' | 'p99_us'): number => Math.max(...rs.map((r) => r[k]));
    return {
      requests: sum('requests'),
      errors: sum('errors'),
      non2xx: sum('non2xx'),
      cpuMs: sum('cpuMs'),
      duration_us: max('duration_us'),
      p50_us: max('p50_us'),
      p99_us: max('p99_us'),
    };
  };
  const allCounters = async (): Promise<{ decodes: number; majorGcs: number; gcS: number }> => {
    const cs = await Promise.all(bases.map(counters));
    return { decodes: cs.reduce((a, c) => a + c.decodes, 0), majorGcs: cs.reduce((a, c) => a + c.majorGcs, 0), gcS: cs.reduce((a, c) => a + c.gcS, 0) };
  };
  try {
    for (const b of bases) await waitForHealthz(b, 120_000);
    // Every worker warm (datasets open, JIT, caches at their steady state): wrk until the tiles
    // went through twice (on a loaded machine a fixed time is not one pass: decodes/tile would be
    // the cold first pass's), at most 2 minutes.
    const listLength = readFileSync(pathsFile, 'utf8').split('\n').filter(Boolean).length;
    for (let warmed = 0, t0 = Date.now(); warmed < 2 * listLength && Date.now() - t0 < 120_000;) {
      warmed += (await wrkAll(Math.max(3, Math.round(seconds / 4)))).requests;
    }
    const probesBefore = probeCores();
    const pids = servers.flatMap((s) => tree(s.pid!));
    if (eachOnItsCore) holdEachWorker(pids, threads, workers);
    const cpu0 = treeCpuMs(pids);
    const supervisor = workers > 1 && !separate && !threads ? servers[0].pid! : -1; // one process: it serves itself
    const servingThreads = threads && workers > 1 ? workers : 0; // threads: the main thread supervises
    const split0 = threadTimes(pids);
    const counters0 = await allCounters();
    const peak = { rss: 0, pss: 0, once: 0 };
    const placement = new Placement();
    const sample = (): void => {
      placement.sample(pids);
      const m = treeMemory(pids);
      peak.rss = Math.max(peak.rss, m.rss);
      peak.pss = Math.max(peak.pss, m.pss);
      peak.once = Math.max(peak.once, m.once);
    };
    const sampler = setInterval(sample, 100);
    const load = os.loadavg()[0];
    const [machine0, steal0, psi0, sched0] = [machineCpuMs(), machineStealMs(), cpuPressureUs(), threadSched(pids)];
    const r = await wrkAll(seconds);
    const [machine1, steal1, psi1, sched1] = [machineCpuMs(), machineStealMs(), cpuPressureUs(), threadSched(pids)];
    clearInterval(sampler);
    sample();
    const cpu = treeCpuMs(pids) - cpu0;
    const split = splitCpu(split0, threadTimes(pids), supervisor, servingThreads);
    const perTile = (k: keyof CpuSplit): number => split[k] / r.requests;
    // Event loops' balance: the least busy loop's CPU ÷ the busiest's (1 = even; connections spread unevenly show here).
    const loopBalance = split.loops.length > 1 ? Math.min(...split.loops) / Math.max(...split.loops) : 1;
    const counters1 = await allCounters();
    const sched = schedDelta(sched0, sched1, workers); // the busiest threads: the event loops
    const probes = [probesBefore, probeCores()];
    const probe = (core: number, k: 'computeUs' | 'inflateUs' | 'faultUs'): number => (probes[0][core][k] + probes[1][core][k]) / 2;
    const decoded = counters1.decodes - counters0.decodes;
    const ok = r.requests - r.non2xx;
    const wallMs = r.duration_us / 1000;
    return {
      workers,
      separate: separate ? 1 : 0,
      threads: threads ? 1 : 0,
      processes: pids.length,
      load,
      tilesPerSec: ok / (wallMs / 1000),
      cpuMsPerTile: cpu / r.requests,
      treeCores: cpu / wallMs,
      wrkCores: r.cpuMs / wallMs,
      // The machine during the run: cores left idle, and cores other processes (not the tree, not wrk) took.
      idleCores: (machine1.idle - machine0.idle) / wallMs,
      othersCores: (machine1.busy - machine0.busy - cpu - r.cpuMs) / wallMs,
      loopCores: split.main / wallMs,
      loopBalance,
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
      decodesPerTile: decoded / r.requests,
      passes: r.requests / listLength,
      primaryMs: perTile('primary'),
      mainMs: perTile('main'),
      poolMs: perTile('pool'),
      v8Ms: perTile('v8'),
      otherMs: perTile('other'),
      wrkMs: r.cpuMs / r.requests,
      majorGcsPer100: ((counters1.majorGcs - counters0.majorGcs) * 100) / r.requests,
      gcMs: ((counters1.gcS - counters0.gcS) * 1000) / r.requests,
      rssMb: peak.rss,
      pssMb: peak.pss,
      onceMb: peak.once,
      errors: r.errors + r.non2xx,
      pinned: pin ?? (eachOnItsCore ? -2 : -1),
      stealCores: (steal1 - steal0) / wallMs,
      psiPct: ((psi1 - psi0) / 1000 / wallMs) * 100,
      loopWaitMs: sched.loopWaitMs / r.requests,
      treeWaitMs: sched.treeWaitMs / r.requests,
      loopCore0: placement.core0Share(sched.loopKeys),
      faultsPerTile: sched.faults / r.requests,
      loopMigrations: (sched.loopMigrations * 100) / r.requests,
      loopPreempted: (sched.loopPreempted * 100) / r.requests,
      probe0Compute: probe(0, 'computeUs'),
      probe0Inflate: probe(0, 'inflateUs'),
      probe0Fault: probe(0, 'faultUs'),
      probe1Compute: probe(1, 'computeUs'),
      probe1Inflate: probe(1, 'inflateUs'),
      probe1Fault: probe(1, 'faultUs'),
    };
  } finally {
    for (const server of servers) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(out, 'dem_uint16_utm.tif'))) throw new Error('run /usr/bin/python3 bench/make-bench-data.py first');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { stdio: 'ignore' }); // as `npm start` does
  // The URL list without the sampled tiles that miss their dataset (404), checked on one server.
  const tiles = tileList();
  const pathsFile = path.join(out, 'worker-paths.txt');
  writeFileSync(pathsFile, tiles.map(tileUrl).join('\n') + '\n');
  const probe = spawn(process.execPath, [path.join(root, 'bin', 'rastile.js'), 'serve', '--port', String(PORT), '--local-roots', out, '--workers', '1'], {
    stdio: 'ignore',
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const kept: string[] = [];
  try {
    await waitForHealthz(base, 120_000);
    for (const t of tiles) {
      const r = await fetch(`${base}${tileUrl(t)}`);
      await r.arrayBuffer();
      if (r.status === 200) kept.push(tileUrl(t));
      else if (r.status !== 404) throw new Error(`${tileUrl(t)} → ${r.status}`);
    }
  } finally {
    probe.kill('SIGTERM');
    await new Promise((resolve) => probe.once('exit', resolve));
  }
  writeFileSync(pathsFile, kept.join('\n') + '\n');

  const load0 = os.loadavg()[0].toFixed(1);
  const runs = new Map<string, Array<Record<string, number>>>(workerCounts.map((n) => [n, []]));
  const order: Array<{ spec: string; round: number; r: Record<string, number> }> = [];
  for (let round = 0; round < rounds; round++) {
    for (const n of workerCounts) {
      const r = await run(n, pathsFile);
      runs.get(n)!.push(r);
      order.push({ spec: n, round, r });
    }
  }
  const load1 = os.loadavg()[0].toFixed(1);
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const results = workerCounts.map((n) => {
    const rs = runs.get(n)!;
    const row: Record<string, number> = {};
    for (const k of Object.keys(rs[0])) row[k] = k === 'errors' ? rs.reduce((a, r) => a + r.errors, 0) : median(rs.map((r) => r[k]));
    return row;
  });
  const one = results[0];
  const label = (r: Record<string, number>): string =>
    r.pinned >= 0
      ? `${r.workers}, held to core ${r.pinned}`
      : r.pinned === -2
        ? `${r.workers} ${r.threads ? 'threads, each event loop' : 'processes, each'} held to its own core`
        : r.separate
          ? `${r.workers} instances, affinity`
          : r.threads
            ? `${r.workers} threads`
            : r.workers > 1
              ? `${r.workers} processes`
              : String(r.workers);
  console.log(
    `Workers benchmark ${new Date().toISOString().slice(0, 16)}Z: ${kept.length} tiles, wrk -t1 -c${connections} ${seconds} s, PNG, ` +
      `${rounds} round(s) interleaved (medians); load average (1 min) ${load0} before, ${load1} after; ${os.availableParallelism()} cores`,
  );
  const knobs = ['BENCH_PIN', 'BENCH_NODE_ARGS', 'UV_THREADPOOL_SIZE', 'RASTILE_BLOCK_CACHE_MB', 'RASTILE_V8_HEAP_GROWING_PERCENT'].filter(
    (k) => process.env[k] !== undefined,
  );
  if (knobs.length > 0) console.log(`Settings: ${knobs.map((k) => `${k}=${process.env[k]}`).join(' ')}`);
  console.log(
    '| workers | load | tiles/s | × 1 worker | CPU ms/tile (tree) | cores used: tree / wrk | p50 / p99 ms | decodes/tile (passes over the list) | ' +
      'peak Σ RSS MB | × 1 | peak Σ PSS MB | × 1 | peak private + shared once MB | × 1 | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const x = (k: string): string => (r[k] / one[k]).toFixed(2);
    console.log(
      `| ${label(r)} | ${r.load.toFixed(1)} | ${r.tilesPerSec.toFixed(0)} | ${x('tilesPerSec')} | ${r.cpuMsPerTile.toFixed(2)} | ` +
        `${r.treeCores.toFixed(2)} / ${r.wrkCores.toFixed(2)} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${r.decodesPerTile.toFixed(2)} (${r.passes.toFixed(1)} passes) | ` +
        `${r.rssMb.toFixed(0)} | ${x('rssMb')} | ${r.pssMb.toFixed(0)} | ${x('pssMb')} | ${r.onceMb.toFixed(0)} | ${x('onceMb')} | ${r.errors} |`,
    );
  }
  console.log('\nCPU ms per tile by thread (all workers summed; wrk is outside the tree):');
  console.log(
    "| workers | supervisor | workers' event-loop threads | libuv pool (zlib, fs, sharp) | V8 helpers (GC, compiler) | other threads | wrk | full GCs per 100 tiles | GC pause ms/tile | " +
      'cores: event loops / machine idle / other processes | event-loop balance (least ÷ most busy) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const f = (k: string): string => r[k].toFixed(2);
    console.log(
      `| ${label(r)} | ${f('primaryMs')} | ${f('mainMs')} | ${f('poolMs')} | ${f('v8Ms')} | ${f('otherMs')} | ${f('wrkMs')} | ${f('majorGcsPer100')} | ${f('gcMs')} | ` +
        `${f('loopCores')} / ${f('idleCores')} / ${f('othersCores')} | ${f('loopBalance')} |`,
    );
  }
  printRuns(order);
  const two = workerCounts.find((n) => n === '2t') ?? workerCounts.find((n) => n.startsWith('2'));
  if (workerCounts.includes('1p0') && two !== undefined) printPerCore(order, two);
}

await main();
