/**
 * GET /cog/statistics of a 10000×10000 uint16 COG at max_size=1024 and at full resolution:
 * rastile (in-process, through the HTTP layer with fastify.inject) versus rasterio doing the
 * same read + statistics, in one run. Prints a Markdown table for BENCHMARKS.md.
 *
 *   /usr/bin/python3 bench/make-bench-data.py     # once
 *   node --import tsx bench/statistics.ts [repeats]
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../src/cli/config-from-env.ts';
import { buildApp } from '../src/http/app.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(here, 'out', 'large_uint16.tif');
const repeats = Number(process.argv[2] ?? 5);

const config = configFromEnv({}, { localRoots: path.join(here, 'out') });
config.limits.maxReadPixels = 10000 * 10000;
const app = buildApp(config);

async function ours(maxSize: number): Promise<{ wallMs: number; cpuMs: number; mean: number; rssMb: number }> {
  const url = `/cog/statistics?url=${encodeURIComponent(file)}&max_size=${maxSize}`;
  const first = await app.inject(url); // warm-up: opens the dataset, fills caches like a running server
  if (first.statusCode !== 200) throw new Error(first.body);
  let peak = process.memoryUsage().rss;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let body = '';
  for (let i = 0; i < repeats; i++) {
    body = (await app.inject(url)).body;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const wall = (performance.now() - t0) / repeats;
  const cpu = process.cpuUsage(c0);
  return { wallMs: wall, cpuMs: (cpu.user + cpu.system) / 1000 / repeats, mean: (JSON.parse(body) as { b1: { mean: number } }).b1.mean, rssMb: peak / 2 ** 20 };
}

function rasterio(maxSize: number): { wall_ms: number; cpu_ms: number; mean: number } {
  const out = execFileSync('/usr/bin/python3', [path.join(here, 'statistics_rasterio.py'), file, String(maxSize), String(repeats)], { encoding: 'utf8' });
  return JSON.parse(out) as { wall_ms: number; cpu_ms: number; mean: number };
}

const rows: string[] = [];
for (const maxSize of [1024, 0]) {
  const a = await ours(maxSize);
  const b = rasterio(maxSize);
  if (Math.abs(a.mean - b.mean) > 1e-6 * Math.abs(b.mean)) throw new Error(`results differ: ${a.mean} vs ${b.mean}`);
  rows.push(
    `| ${maxSize === 0 ? 'full resolution (10000²)' : `max_size=${maxSize}`} | ${a.wallMs.toFixed(1)} | ${a.cpuMs.toFixed(1)} | ${b.wall_ms.toFixed(1)} | ${b.cpu_ms.toFixed(1)} | ${(a.wallMs / b.wall_ms).toFixed(2)} | ${(a.cpuMs / b.cpu_ms).toFixed(2)} | ${a.rssMb.toFixed(0)} |`,
  );
}
console.log(
  `GET /cog/statistics, 10000×10000 uint16 COG (DEFLATE+pred2, 512² tiles), ${repeats} repeats after 1 warm-up, ${new Date().toISOString().slice(0, 10)}`,
);
console.log('| read | rastile wall ms | rastile CPU ms | rasterio wall ms | rasterio CPU ms | wall ratio | CPU ratio | rastile peak RSS MB |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
await app.close();
