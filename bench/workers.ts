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
 *   /usr/bin/python3 bench/make-bench-data.py      # once
 *   node --import tsx bench/workers.ts [seconds=20] [connections=8] [workers=1,2] [rounds=1]
 *
 * The machine's load average is printed beside the figures: on a shared machine they move with it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { procCpuMs, RENDER_EVERY_TIME, startScriptSettings, waitForHealthz } from './load.ts';
import { out, tileList, tileUrl } from './tile-urls.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const seconds = Number(process.argv[2] ?? 20);
const connections = Number(process.argv[3] ?? 8);
const workerCounts = (process.argv[4] ?? '1,2').split(',').map(Number);
const rounds = Math.max(1, Number(process.argv[5] ?? 1));
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));
const base = `http://127.0.0.1:${PORT}`;

/** The process and its descendants. */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // gone
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(children.get(all[i]) ?? []));
  return all;
}

interface Memory {
  rss: number;
  pss: number;
  private: number;
  shared: number;
}

/** A process's memory from smaps_rollup, MiB (zeros once it is gone). */
function memory(pid: number): Memory {
  const m: Memory = { rss: 0, pss: 0, private: 0, shared: 0 };
  try {
    for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').split('\n')) {
      const [key, value] = line.split(/:\s+/);
      const mb = Number.parseInt(value ?? '', 10) / 1024;
      if (key === 'Rss') m.rss = mb;
      else if (key === 'Pss') m.pss = mb;
      else if (key === 'Private_Clean' || key === 'Private_Dirty') m.private += mb;
      else if (key === 'Shared_Clean' || key === 'Shared_Dirty') m.shared += mb;
    }
  } catch {
    // gone
  }
  return m;
}

/** The tree's memory now: sums of RSS and PSS, and private pages plus the shared ones counted once. */
function treeMemory(pids: number[]): { rss: number; pss: number; once: number } {
  const ms = pids.map(memory);
  const sum = (f: (m: Memory) => number): number => ms.reduce((a, m) => a + f(m), 0);
  return { rss: sum((m) => m.rss), pss: sum((m) => m.pss), once: sum((m) => m.private) + Math.max(0, ...ms.map((m) => m.shared)) };
}

const treeCpuMs = (pids: number[]): number => pids.reduce((s, p) => s + procCpuMs(p), 0);

async function decodes(): Promise<number> {
  const m = await (await fetch(`${base}/metrics`)).text();
  return Number(/^rastile_block_decodes_total (\d+)/m.exec(m)?.[1] ?? NaN);
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
function wrk(durationS: number, pathsFile: string): Promise<WrkResult & { cpuMs: number }> {
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${durationS}s`, '-s', path.join(here, 'wrk-paths.lua'), base], {
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

async function run(workers: number, pathsFile: string): Promise<Record<string, number>> {
  const start = startScriptSettings();
  const server = spawn(process.execPath, [...start.nodeArgs, path.join(root, 'bin', 'rastile.js'), 'serve', '--port', String(PORT), '--local-roots', out], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { LOG_LEVEL: 'warn', ...start.env, ...process.env, RASTILE_WORKERS: String(workers), ...RENDER_EVERY_TIME },
  });
  try {
    await waitForHealthz(base, 120_000);
    // Every worker warm (datasets open, JIT, caches at their steady state): a short wrk run.
    await wrk(Math.max(3, Math.round(seconds / 4)), pathsFile);
    const pids = tree(server.pid!);
    const cpu0 = treeCpuMs(pids);
    const decodes0 = await decodes();
    const peak = { rss: 0, pss: 0, once: 0 };
    const sample = (): void => {
      const m = treeMemory(pids);
      peak.rss = Math.max(peak.rss, m.rss);
      peak.pss = Math.max(peak.pss, m.pss);
      peak.once = Math.max(peak.once, m.once);
    };
    const sampler = setInterval(sample, 100);
    const load = os.loadavg()[0];
    const r = await wrk(seconds, pathsFile);
    clearInterval(sampler);
    sample();
    const cpu = treeCpuMs(pids) - cpu0;
    const decoded = (await decodes()) - decodes0;
    const ok = r.requests - r.non2xx;
    const wallMs = r.duration_us / 1000;
    return {
      workers,
      processes: pids.length,
      load,
      tilesPerSec: ok / (wallMs / 1000),
      cpuMsPerTile: cpu / r.requests,
      treeCores: cpu / wallMs,
      wrkCores: r.cpuMs / wallMs,
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
      decodesPerTile: decoded / r.requests,
      rssMb: peak.rss,
      pssMb: peak.pss,
      onceMb: peak.once,
      errors: r.errors + r.non2xx,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
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
  const runs = new Map<number, Array<Record<string, number>>>(workerCounts.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) for (const n of workerCounts) runs.get(n)!.push(await run(n, pathsFile));
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
  console.log(
    `Workers benchmark ${new Date().toISOString().slice(0, 16)}Z: ${kept.length} tiles, wrk -t1 -c${connections} ${seconds} s, PNG, ` +
      `${rounds} round(s) interleaved (medians); load average (1 min) ${load0} before, ${load1} after; ${os.availableParallelism()} cores`,
  );
  console.log(
    '| workers | load | tiles/s | × 1 worker | CPU ms/tile (tree) | cores used: tree / wrk | p50 / p99 ms | decodes/tile | ' +
      'peak Σ RSS MB | × 1 | peak Σ PSS MB | × 1 | peak private + shared once MB | × 1 | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const x = (k: string): string => (r[k] / one[k]).toFixed(2);
    console.log(
      `| ${r.workers} | ${r.load.toFixed(1)} | ${r.tilesPerSec.toFixed(0)} | ${x('tilesPerSec')} | ${r.cpuMsPerTile.toFixed(2)} | ` +
        `${r.treeCores.toFixed(2)} / ${r.wrkCores.toFixed(2)} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${r.decodesPerTile.toFixed(2)} | ` +
        `${r.rssMb.toFixed(0)} | ${x('rssMb')} | ${r.pssMb.toFixed(0)} | ${x('pssMb')} | ${r.onceMb.toFixed(0)} | ${x('onceMb')} | ${r.errors} |`,
    );
  }
}

await main();
