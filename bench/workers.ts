/**
 * Workers benchmark: `rastile serve --workers N` (built, started as `npm start` starts it) under
 * wrk on loopback over the tile benchmark's URL list (bench/tile-urls.ts), for N = 1 and 2.
 * Reports tiles/s, CPU ms per tile of the whole process tree (utime+stime of the supervisor and
 * every worker, from /proc), latency, block decodes per tile (aggregated /metrics) and the peak
 * resident set of the tree: sampled sum of every process's RSS every 50 ms (simultaneous peak),
 * and the sum of each process's own peak (VmHWM: an upper bound).
 *
 *   /usr/bin/python3 bench/make-bench-data.py      # once
 *   node --import tsx bench/workers.ts [seconds=20] [connections=8] [workers=1,2]
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
const PORT = 8766;
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

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(field));
    return line === undefined ? 0 : Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return 0;
  }
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
function wrk(durationS: number, pathsFile: string): Promise<WrkResult> {
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${durationS}s`, '-s', path.join(here, 'wrk-paths.lua'), base], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WRK_PATHS: pathsFile },
  });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const json = text.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || json === undefined) reject(new Error(`wrk exited ${code}:\n${text}`));
      else resolve(JSON.parse(json) as WrkResult);
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
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(
        peak,
        pids.reduce((s, p) => s + status(p, 'VmRSS'), 0),
      );
    }, 50);
    const r = await wrk(seconds, pathsFile);
    clearInterval(sampler);
    const cpu = treeCpuMs(pids) - cpu0;
    const decoded = (await decodes()) - decodes0;
    const hwm = pids.reduce((s, p) => s + status(p, 'VmHWM'), 0);
    const ok = r.requests - r.non2xx;
    return {
      workers,
      processes: pids.length,
      tilesPerSec: ok / (r.duration_us / 1e6),
      cpuMsPerTile: cpu / r.requests,
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
      decodesPerTile: decoded / r.requests,
      peakRssMb: peak,
      sumHwmMb: hwm,
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
  const results: Array<Record<string, number>> = [];
  for (const n of workerCounts) results.push(await run(n, pathsFile));
  const load1 = os.loadavg()[0].toFixed(1);
  const one = results[0];
  console.log(
    `Workers benchmark ${new Date().toISOString().slice(0, 16)}Z: ${kept.length} tiles, wrk -t1 -c${connections} ${seconds} s, PNG; ` +
      `load average (1 min) ${load0} before, ${load1} after; ${os.availableParallelism()} cores`,
  );
  console.log(
    '| workers | tiles/s | × 1 worker | CPU ms/tile (tree) | p50 / p99 ms | decodes/tile | peak RSS of the tree MB (sampled) | × 1 worker | Σ VmHWM MB | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.workers} | ${r.tilesPerSec.toFixed(0)} | ${(r.tilesPerSec / one.tilesPerSec).toFixed(2)} | ${r.cpuMsPerTile.toFixed(2)} | ` +
        `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${r.decodesPerTile.toFixed(2)} | ${r.peakRssMb.toFixed(0)} | ${(r.peakRssMb / one.peakRssMb).toFixed(2)} | ` +
        `${r.sumHwmMb.toFixed(0)} | ${r.errors} |`,
    );
  }
}

await main();
