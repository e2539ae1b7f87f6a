/**
 * /healthz latency while one big CPU-bound request runs (issue 9): a fresh server in a child
 * process per case; /healthz is probed back to back while the request is in flight.
 *
 *   node --import tsx bench/healthz-latency.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(repo, 'demo', 'rastile-demo.tif');

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

const pct = (xs: number[], p: number): number => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN);

async function runCase(name: string, pathAndQuery: string): Promise<void> {
  const { child, base } = await start();
  await fetch(`${base}/cog/info?url=${encodeURIComponent(demo)}`).then((r) => r.arrayBuffer());
  await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
  // warm-up: the same request at 256² loads (and compiles) the modules it needs
  await fetch(`${base}${pathAndQuery.replace('tilesize=4096', 'tilesize=256').replace('max_size=4096', 'max_size=256')}`).then((r) => r.arrayBuffer());
  let done = false;
  const lat: number[] = [];
  const prober = (async () => {
    while (!done) {
      const t = performance.now();
      await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
      lat.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const r = await fetch(`${base}${pathAndQuery}`);
  const body = await r.arrayBuffer();
  const ms = performance.now() - t0;
  done = true;
  await prober;
  child.kill('SIGKILL');
  console.log(
    `| ${name} | ${r.status}, ${(body.byteLength / 1e6).toFixed(2)} MB | ${ms.toFixed(0)} ms | ${lat.length} | ${pct(lat, 0.5).toFixed(1)} ms | ${pct(lat, 0.95).toFixed(1)} ms | ${Math.max(...lat).toFixed(1)} ms |`,
  );
}

const url = encodeURIComponent(demo);
const cases: Array<[string, string]> = [
  ['4096² hillshade tile (warp + hillshade + PNG)', `/cog/tiles/WebMercatorQuad/9/267/181.png?url=${url}&tilesize=4096&algorithm=hillshade`],
  ['4096² tile, rescaled PNG (warp + PNG)', `/cog/tiles/WebMercatorQuad/9/267/181.png?url=${url}&tilesize=4096&rescale=0,4000`],
  ['statistics, max_size=4096', `/cog/statistics?url=${url}&max_size=4096&histogram_bins=1000`],
];
console.log('| request | answer | time | /healthz probes | p50 | p95 | worst |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, q] of cases) if (!process.argv[2] || name.includes(process.argv[2])) await runCase(name, q);
