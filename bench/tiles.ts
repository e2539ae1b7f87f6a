/**
 * Tile benchmark: the rastile server (a separate process) under HTTP load — a fixed list of
 * ~300 WebMercatorQuad tiles z8–12 over three fixtures (uint16 DEM in UTM with rescale+colormap,
 * RGB uint8 in Web Mercator, float32 with NaN in EPSG:4326), PNG output, 8 connections — and, in
 * the same run, GDAL's own cost for the same tiles in-process (bench/tiles_gdal.py).
 *
 * Reports the server's CPU ms per tile (utime+stime of all its threads from /proc) divided by
 * GDAL's, tiles/s, p50/p99 latency and the server's peak RSS (VmHWM).
 *
 *   /usr/bin/python3 bench/make-bench-data.py      # once
 *   node --import tsx bench/tiles.ts [passes=3] [connections=8]
 */
import { execFileSync, spawn } from 'node:child_process';
import { peakRssMb, procCpuMs, RENDER_EVERY_TIME, runLoad, startScriptSettings, waitForHealthz } from './load.ts';
import { datasets, tileList, tileUrl } from './tile-urls.ts';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { getColormap } from '../src/raster/colormap/index.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'out');
const passes = Number(process.argv[2] ?? 3);
const connections = Number(process.argv[3] ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));

async function main(): Promise<void> {
  const tiles = tileList();
  const spec = path.join(out, 'tiles.json');
  // The same colormap tables for the GDAL side, from our own colormap data.
  const cmapDir = path.join(out, 'cmaps');
  mkdirSync(cmapDir, { recursive: true });
  for (const name of ['terrain', 'viridis']) {
    const t = getColormap(name);
    writeFileSync(
      path.join(cmapDir, `${name}.json`),
      JSON.stringify(Array.from({ length: 256 }, (_, i) => [t[4 * i], t[4 * i + 1], t[4 * i + 2], t[4 * i + 3]])),
    );
  }
  writeFileSync(spec, JSON.stringify({ datasets, tiles }));
  const urls = tiles.map((t) => `http://127.0.0.1:${PORT}${tileUrl(t)}`);

  // Started as `npm start` starts it; BENCH_NODE_ARGS adds node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const start = startScriptSettings();
  const nodeArgs = [...start.nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const server = spawn(process.execPath, [...nodeArgs, path.join(here, '..', 'bin', 'rastile.js'), 'serve', '--port', String(PORT), '--local-roots', out], {
    // BENCH_SERVER_STDOUT=<file> keeps the server's stdout (e.g. with BENCH_NODE_ARGS=--trace-gc).
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'w') : 'ignore', 'inherit'],
    env: { LOG_LEVEL: 'warn', RASTILE_WORKERS: '1', ...start.env, ...process.env, ...RENDER_EVERY_TIME },
  });
  try {
    await waitForHealthz(`http://127.0.0.1:${PORT}`);
    // Warm-up pass (opens datasets, JIT — like a server that has been running). Tiles of the
    // sampled rectangles that miss the dataset (404) are dropped from the list, for both sides.
    for (let i = urls.length - 1; i >= 0; i--) {
      const r = await fetch(urls[i]);
      await r.arrayBuffer();
      if (r.status === 404) {
        urls.splice(i, 1);
        tiles.splice(i, 1);
      } else if (r.status !== 200) throw new Error(`${urls[i]} → ${r.status}`);
    }
    writeFileSync(spec, JSON.stringify({ datasets, tiles }));
    const decodes = async (): Promise<number> => {
      const m = await (await fetch(`http://127.0.0.1:${PORT}/metrics`)).text();
      return Number(/^rastile_block_decodes_total (\d+)/m.exec(m)?.[1] ?? NaN);
    };
    const decodes0 = await decodes();
    const cpu0 = procCpuMs(server.pid!);
    const queue = Array.from({ length: passes }, () => urls).flat();
    const { wallMs: wall, latencies } = await runLoad(queue, connections);
    const cpu = procCpuMs(server.pid!) - cpu0;
    const rss = peakRssMb(server.pid!);
    const decodesPerPass = ((await decodes()) - decodes0) / passes;
    const n = queue.length;
    const ours = { cpuPerTile: cpu / n, tilesPerSec: (n / wall) * 1000, p50: latencies[Math.floor(n * 0.5)], p99: latencies[Math.floor(n * 0.99)], rss };
    type GdalRun = { cpu_ms_per_tile: number; wall_ms_per_tile: number };
    const runGdal = (env: NodeJS.ProcessEnv): GdalRun =>
      JSON.parse(execFileSync('/usr/bin/python3', [path.join(here, 'tiles_gdal.py'), spec, String(passes), cmapDir], { encoding: 'utf8', env })) as GdalRun;
    // GDAL's default block cache (5 % of RAM, what TiTiler runs with), and GDAL with a block cache
    // of our size (RASTILE_BLOCK_CACHE_MB, default 40 MiB): the same memory for decoded blocks.
    const gdal = runGdal(process.env);
    const cacheMb = process.env.RASTILE_BLOCK_CACHE_MB ?? '40';
    const gdalSameCache = runGdal({ ...process.env, GDAL_CACHEMAX: cacheMb });
    console.log(`Tile benchmark ${new Date().toISOString().slice(0, 10)}: ${tiles.length} tiles × ${passes} passes, ${connections} connections, PNG`);
    console.log('| metric | rastile | GDAL (rasterio, in-process) | ratio |');
    console.log('|---|---|---|---|');
    console.log(
      `| CPU ms per tile | ${ours.cpuPerTile.toFixed(2)} | ${gdal.cpu_ms_per_tile.toFixed(2)} | **${(ours.cpuPerTile / gdal.cpu_ms_per_tile).toFixed(2)}** |`,
    );
    console.log(
      `| CPU ms per tile, GDAL_CACHEMAX=${cacheMb} (same cache size) | ${ours.cpuPerTile.toFixed(2)} | ${gdalSameCache.cpu_ms_per_tile.toFixed(2)} | **${(ours.cpuPerTile / gdalSameCache.cpu_ms_per_tile).toFixed(2)}** |`,
    );
    console.log(`| tiles/s | ${ours.tilesPerSec.toFixed(0)} | ${(1000 / gdal.wall_ms_per_tile).toFixed(0)} (1 thread) | |`);
    console.log(`| latency p50 / p99 ms | ${ours.p50.toFixed(1)} / ${ours.p99.toFixed(1)} | | |`);
    console.log(`| server peak RSS MB | ${ours.rss.toFixed(0)} | | |`);
    console.log(`| block decodes per pass | ${decodesPerPass.toFixed(0)} | | |`);
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
