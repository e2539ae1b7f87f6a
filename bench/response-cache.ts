/**
 * Response-cache benchmark (issue 12): the CPU the server spends per request answered from the
 * response cache (a repeat tile; an If-None-Match → 304), against a render of the same tiles with
 * the cache off. The server is a separate process (`rastile serve --workers 1`, `npm start`'s
 * settings) on the demo COG; load is wrk on loopback (bench/wrk-paths.lua over the tile paths);
 * CPU is the server's utime+stime from /proc over the run, divided by the requests wrk counted.
 * Also reports the block decodes during the cached runs (0: nothing read or decoded), the same
 * server's /healthz and /readyz (the floor of the HTTP stack on this machine: Fastify, our hooks,
 * node's http, a small body), and the cache's own cost in process: `ResponseCache.serve` answering
 * a stored tile (key, validation stats, lookup) without HTTP, and the floor under all of it: node's
 * http alone and bare Fastify answering every GET with the same ~45 KB body (bench/http-floor-server.ts),
 * measured the same way. With `profile`, the cached-tile run
 * is CPU-profiled (--cpu-prof) and its CPU split by where it went (bench/cpu-profile-split.ts):
 * the cache path, our hooks, Fastify and node's http, the socket write, GC.
 *
 *   node --import tsx bench/response-cache.ts [seconds=10] [connections=8] [inproc|profile]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitProfile } from './cpu-profile-split.ts';
import { procCpuMs, startScriptSettings, waitForHealthz } from './load.ts';
import { configFromEnv } from '../src/cli/config-from-env.ts';
import { requestKey } from '../src/http/response-cache/cache-key.ts';
import { ResponseCache } from '../src/http/response-cache/response-cache.ts';
import { createServices } from '../src/http/services.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const out = path.join(here, 'out');
const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));
const base = `http://127.0.0.1:${PORT}`;
const DEMO = encodeURIComponent(path.join(repo, 'demo', 'rastile-demo.tif'));

interface WrkResult {
  requests: number;
  errors: number;
  non2xx: number;
  p50_us: number;
  p99_us: number;
}

function wrk(pathsFile: string, durationS: number, headers: string[] = []): Promise<WrkResult> {
  const args = ['-t1', `-c${connections}`, `-d${durationS}s`, '-s', path.join(here, 'wrk-paths.lua'), ...headers.flatMap((h) => ['-H', h]), base];
  const child = spawn('wrk', args, { env: { ...process.env, WRK_PATHS: pathsFile } });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || line === undefined) reject(new Error(`wrk exited ${code}: ${text}`));
      else resolve(JSON.parse(line) as WrkResult);
    }),
  );
}

async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ChildProcess> {
  const settings = startScriptSettings();
  const child = spawn(
    process.execPath,
    [...settings.nodeArgs, ...nodeArgs, path.join(repo, 'bin', 'rastile.js'), 'serve', '--port', String(PORT), '--workers', '1'],
    {
      cwd: repo,
      env: { ...process.env, ...settings.env, LOG_LEVEL: 'warn', ...env }, // the build in dist/, as `npm start` runs it
      stdio: 'ignore',
    },
  );
  await waitForHealthz(base, 120_000);
  return child;
}

/** The floor servers of bench/http-floor-server.ts (node's http alone, bare Fastify), with `npm start`'s node flags. */
async function startFloor(kind: 'node' | 'fastify'): Promise<ChildProcess> {
  const settings = startScriptSettings();
  const child = spawn(process.execPath, [...settings.nodeArgs, path.join(here, 'http-floor-server.ts'), kind, String(PORT)], {
    cwd: repo,
    env: { ...process.env, ...settings.env },
    stdio: 'ignore',
  });
  await waitForHealthz(base, 30_000);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const decodes = async (): Promise<number> => Number(/^rastile_block_decodes_total (\d+)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? 0);

/** The demo's tiles at one zoom (from its TileJSON bounds). */
async function tilePaths(): Promise<string[]> {
  const tj = (await (await fetch(`${base}/cog/WebMercatorQuad/tilejson.json?url=${DEMO}`)).json()) as { bounds: number[]; maxzoom: number };
  const z = tj.maxzoom;
  const n = 2 ** z;
  const x = (lon: number): number => Math.floor(((lon + 180) / 360) * n);
  const y = (lat: number): number => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  const paths: string[] = [];
  for (let tx = x(tj.bounds[0]); tx <= x(tj.bounds[2]); tx++) {
    for (let ty = y(tj.bounds[3]); ty <= y(tj.bounds[1]); ty++)
      paths.push(`/cog/tiles/WebMercatorQuad/${z}/${tx}/${ty}.png?url=${DEMO}&rescale=0,3000&colormap_name=terrain`);
  }
  return paths;
}

async function measure(
  child: ChildProcess,
  pathsFile: string,
  headers: string[] = [],
  rastile = true,
): Promise<{ cpuMsPerRequest: number; r: WrkResult; decodes: number }> {
  const d0 = rastile ? await decodes() : 0;
  const c0 = procCpuMs(child.pid!);
  const r = await wrk(pathsFile, seconds, headers);
  const c1 = procCpuMs(child.pid!);
  return { cpuMsPerRequest: (c1 - c0) / r.requests, r, decodes: rastile ? (await decodes()) - d0 : 0 };
}

/** CPU µs of one `ResponseCache.serve` hit and one `serveStored` hit (the fast path's) on the demo tile (in process, no HTTP). */
async function inProcessHit(n: number): Promise<{ serve: number; stored: number }> {
  const config = configFromEnv({});
  const services = createServices(config);
  const cache = new ResponseCache(
    { memoryBytes: 64 << 20, maxEntryBytes: 4 << 20, lockMs: 5000 },
    (k, l, s) => services.currentVersion!(k, l, s),
    (k, l) => services.peekVersion!(k, l),
  );
  const demo = path.join(repo, 'demo', 'rastile-demo.tif');
  const params = { url: demo, z: 11, x: 1071, y: 724, rescale: [[0, 3000]], colormap_name: 'terrain', tileMatrixSetId: 'WebMercatorQuad' };
  const req = {
    method: 'GET',
    route: '/cog/tiles/{tileMatrixSetId}/{z}/{x}/{y}.{format}',
    params: JSON.stringify(params),
    vary: [],
    body: '',
    baseUrl: 'http://127.0.0.1',
    ifNoneMatch: undefined,
    signal: new AbortController().signal,
  };
  const render = async () => {
    await services.openCog(demo); // records the dataset and its version
    return { kind: 'body' as const, body: Buffer.alloc(45_000), contentType: 'image/png' };
  };
  const first = await cache.serve(req, render);
  if (first.status !== 'miss') throw new Error(`expected a miss, got ${first.status}`);
  for (let i = 0; i < 2000; i++) await cache.serve(req, render);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const r = await cache.serve(req, render);
    if (r.status !== 'hit') throw new Error(`expected a hit, got ${r.status}`);
  }
  const c = process.cpuUsage(c0);
  const key = requestKey(req);
  const s0 = process.cpuUsage();
  for (let i = 0; i < n; i++) if (cache.serveStored(key, undefined)?.status !== 'hit') throw new Error('expected a stored hit');
  const s = process.cpuUsage(s0);
  await cache.close();
  return { serve: (c.user + c.system) / n, stored: (s.user + s.system) / n };
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  execFileSync(process.execPath, [path.join(repo, 'scripts', 'build.js')], { stdio: 'ignore' }); // as `npm start` does
  const lines: string[] = [];
  const say = (line: string): void => {
    lines.push(line);
    console.log(line);
  };
  const inProcess = await inProcessHit(20_000);
  say(
    `${'ResponseCache.serve hit (in process)'.padEnd(34)} CPU ${inProcess.serve.toFixed(1)} µs/request (key digest, the stats of the file and its directory, LRU lookup)`,
  );
  say(
    `${'serveStored hit (fast path, in process)'.padEnd(34)} CPU ${inProcess.stored.toFixed(1)} µs/request (the same without the parameters' key digest and promises)`,
  );
  const mode = process.argv[4];
  if (mode === 'inproc') return;
  const report = (label: string, m: { cpuMsPerRequest: number; r: WrkResult; decodes: number }): void =>
    say(
      `${label.padEnd(34)} ${m.r.requests} requests (${m.r.errors} errors, ${m.r.non2xx} non-2xx), ${(m.r.requests / seconds).toFixed(0)}/s, ` +
        `CPU ${(m.cpuMsPerRequest * 1000).toFixed(1)} µs/request, p50 ${(m.r.p50_us / 1000).toFixed(2)} ms, p99 ${(m.r.p99_us / 1000).toFixed(2)} ms, block decodes ${m.decodes}`,
    );

  // 0. The floor: the same wrk run against servers that only answer a 45 KB body.
  const floorPaths = path.join(out, 'response-cache-floor.txt');
  writeFileSync(floorPaths, '/cog/tiles/WebMercatorQuad/11/1071/724.png?url=x\n');
  for (const [kind, label] of [
    ['node', 'node http alone, 45 KB (floor)'],
    ['fastify', 'bare Fastify, 45 KB'],
  ] as const) {
    const floor = await startFloor(kind);
    await wrk(floorPaths, 2);
    report(label, await measure(floor, floorPaths, [], false));
    await stop(floor);
  }

  // 1. Cache on: warm every tile once, then repeats are hits.
  const profileDir = path.join(out, 'response-cache-profile');
  rmSync(profileDir, { recursive: true, force: true });
  let server = await startServer({});
  const paths = await tilePaths();
  const pathsFile = path.join(out, 'response-cache-paths.txt');
  writeFileSync(pathsFile, `${paths.join('\n')}\n`);
  for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();
  await wrk(pathsFile, 2); // JIT warm-up
  report('cached tile (hit)', await measure(server, pathsFile));
  // The same hits through Fastify's routing and hooks (the fast path off): what the fast path saves.
  await stop(server);
  server = await startServer({ RASTILE_CACHE_FAST_PATH: '0' });
  for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();
  await wrk(pathsFile, 2);
  report('cached tile, fast path off', await measure(server, pathsFile));
  await stop(server);
  server = await startServer({});
  for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();
  if (mode === 'profile') {
    // The same run again, profiled (profiling inflates CPU: only the split is reported).
    await stop(server);
    server = await startServer({}, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
    for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();
    await wrk(pathsFile, 2);
    await wrk(pathsFile, seconds);
    await stop(server); // writes the profile; its last `seconds` are the measured run
    const split = splitProfile(path.join(profileDir, readdirSync(profileDir)[0]), seconds - 0.5);
    say(`  where the cached-tile run's busy CPU went (--cpu-prof, the last ${seconds - 0.5} s of a profiled rerun):`);
    for (const s of split.shares) say(`    ${(100 * s.share).toFixed(1).padStart(5)} %  ${s.category}`);
    server = await startServer({});
    for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();
  }
  // 2. If-None-Match on one tile → 304.
  const one = path.join(out, 'response-cache-one.txt');
  writeFileSync(one, `${paths[0]}\n`);
  const etag = (await fetch(`${base}${paths[0]}`)).headers.get('etag')!;
  report('If-None-Match (304)', await measure(server, one, [`If-None-Match: ${etag}`]));
  const health = path.join(out, 'response-cache-healthz.txt');
  writeFileSync(health, '/healthz\n');
  report('/healthz (HTTP stack floor)', await measure(server, health));
  const ready = path.join(out, 'response-cache-readyz.txt');
  writeFileSync(ready, '/readyz\n');
  report('/readyz (HTTP stack floor)', await measure(server, ready));
  await stop(server);

  // 3. Cache off: every repeat renders (blocks from the block cache).
  server = await startServer({ RASTILE_RESPONSE_CACHE_MB: '0' });
  for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();
  await wrk(pathsFile, 2);
  report('rendered tile (cache off)', await measure(server, pathsFile));
  await stop(server);

  const summary =
    `Response cache benchmark ${new Date().toISOString().slice(0, 16)}Z: ${paths.length} demo tiles (PNG, terrain colormap), wrk -t1 -c${connections} ${seconds} s, ` +
    `one process; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n${lines.join('\n')}\n`;
  console.log(summary.split('\n')[0]);
  writeFileSync(path.join(out, 'response-cache.txt'), summary);
}

await main();
