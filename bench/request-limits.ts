/**
 * Extreme-parameter requests against a server in a child process (issue 16 figures): time, peak
 * RSS of the server, and the worst /healthz latency while each request runs. A fresh server per case.
 *
 *   node --import tsx bench/request-limits.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(repo, 'demo', 'rastile-demo.tif');
const CLIENT_TIMEOUT_MS = 60_000;
const RSS_KILL = 3 * 2 ** 30;

const SERVER = `
import { configFromEnv } from './src/cli/config-from-env.ts';
import { buildApp } from './src/http/app.ts';
const config = configFromEnv({}, { localRoots: './demo' });
const app = buildApp(config);
await app.listen({ host: '127.0.0.1', port: 0 });
console.log('PORT ' + app.server.address().port);
`;

function start(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SERVER], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` });
    });
  });
}

const rss = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

async function runCase(name: string, pathAndQuery: string, init: RequestInit = {}): Promise<void> {
  const { child, base } = await start();
  await fetch(`${base}/cog/info?url=${encodeURIComponent(demo)}`).then((r) => r.arrayBuffer());
  let peak = rss(child.pid!);
  let worstHealth = 0;
  let healthMissing = 0;
  let done = false;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(child.pid!));
    if (peak > RSS_KILL) child.kill('SIGKILL');
  }, 50);
  const prober = (async () => {
    while (!done) {
      const t = performance.now();
      try {
        await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }).then((r) => r.arrayBuffer());
        worstHealth = Math.max(worstHealth, performance.now() - t);
      } catch {
        healthMissing++;
        worstHealth = Math.max(worstHealth, performance.now() - t);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t0 = performance.now();
  let outcome: string;
  try {
    const r = await fetch(`${base}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    const body = Buffer.from(await r.arrayBuffer());
    outcome = `${r.status}, ${(body.length / 1e6).toFixed(2)} MB body${r.status >= 400 ? `: ${body.toString().slice(0, 160)}` : ''}`;
  } catch (err) {
    outcome = `no answer (${(err as Error).name})`;
  }
  const ms = performance.now() - t0;
  done = true;
  await Promise.race([prober, new Promise((r) => setTimeout(r, 5000))]);
  clearInterval(sampler);
  const after = rss(child.pid!);
  child.kill('SIGKILL');
  console.log(
    `| ${name} | ${outcome} | ${(ms / 1000).toFixed(2)} s | ${(peak / 2 ** 20).toFixed(0)} MB | ${(after / 2 ** 20).toFixed(0)} MB | ${worstHealth.toFixed(0)} ms${healthMissing ? ` (${healthMissing} probes unanswered)` : ''} |`,
  );
}

async function main(): Promise<void> {
  const { child, base } = await start();
  const info = (await (await fetch(`${base}/cog/info?url=${encodeURIComponent(demo)}`)).json()) as { bounds: number[] };
  child.kill('SIGKILL');
  const [minx, miny, maxx, maxy] = info.bounds;
  const n = 10_000;
  const side = 100;
  const dx = (maxx - minx) / side;
  const dy = (maxy - miny) / side;
  // n small squares on a 100×100 grid over the demo's extent, in its own CRS (coord_crs)
  const features = [];
  for (let i = 0; i < n; i++) {
    const x = minx + (i % side) * dx;
    const y = miny + Math.floor(i / side) * dy;
    const ring = [
      [x, y],
      [x + dx * 0.8, y],
      [x + dx * 0.8, y + dy * 0.8],
      [x, y + dy * 0.8],
      [x, y],
    ];
    features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } });
  }
  const fc = JSON.stringify({ type: 'FeatureCollection', features });
  const url = encodeURIComponent(demo);
  console.log('| case | answer | time | server peak RSS | RSS after | worst /healthz |');
  console.log('|---|---|---|---|---|---|');
  if (process.argv[2] !== 'post' && process.argv[2] !== 'bins')
    await runCase('statistics histogram_bins=10000000', `/cog/statistics?url=${url}&histogram_bins=10000000`);
  if (process.argv[2] !== 'post' && process.argv[2] !== 'bins')
    await runCase('statistics histogram_bins=1000000000', `/cog/statistics?url=${url}&histogram_bins=1000000000`);
  if (process.argv[2] !== 'post') await runCase('statistics, default 10 bins (reference)', `/cog/statistics?url=${url}`);
  if (process.argv[2] !== 'post') await runCase('statistics histogram_bins=10000 (the limit)', `/cog/statistics?url=${url}&histogram_bins=10000`);
  if (process.argv[2] === 'bins') return;
  const allowed = JSON.stringify({ type: 'FeatureCollection', features: features.slice(0, 1000) });
  await runCase('POST statistics, 1000 polygons (the limit)', `/cog/statistics?url=${url}&coord_crs=epsg:32632`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: allowed,
  });
  await runCase(`POST statistics, ${n} polygons`, `/cog/statistics?url=${url}&coord_crs=epsg:32632`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: fc,
  });
}

await main();
