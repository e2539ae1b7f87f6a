/**
 * Granule-mosaic benchmark: the rastile server (a separate process, sources run through tsx)
 * renders /raster tiles over 4 overlapping granules × 3 assets (bench/make-mosaic-data.py),
 * found through an in-process CMR stand-in and read over HTTP from an in-process range server.
 *
 * For each scenario (`mean` over every granule with exitwhenfull=false; default `first`):
 * - cold pass (fresh server, tiles one at a time): data-host requests and bytes per tile,
 *   byte ranges requested more than once (goal: 0, every needed block fetched once), header
 *   reads per file (goal: 1, headers cached across requests), CMR requests per tile;
 * - warm passes under HTTP load: server CPU ms per tile (utime+stime from /proc), tiles/s,
 *   p50/p99 latency, data-host requests per tile (goal: 0 once cached).
 *
 *   /usr/bin/python3 bench/make-mosaic-data.py      # once
 *   node --import tsx bench/mosaic.ts [passes=3] [connections=4]
 */
import { procCpuMs, runLoad, sampleTiles, startGranuleServer, stopServer } from './load.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crsFromEpsg, WGS84 } from '../src/geo/crs.ts';
import { getTileMatrixSet } from '../src/geo/tms.ts';
import { transformBounds } from '../src/geo/transform.ts';
import { startCmrStandin, type UmmItem } from '../test/helpers/cmr-standin.ts';
import { startRangeServer, type RecordedRequest } from '../test/helpers/http-range-server.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, 'out', 'mosaic');
const passes = Number(process.argv[2] ?? 3);
const connections = Number(process.argv[3] ?? 4);
const PORT = Number(process.env.BENCH_PORT ?? 20000 + Math.floor(Math.random() * 20000));

/** Tiles z11–14 over the area every granule covers (a sample of at most 12 per zoom). */
function tileList(): Array<{ z: number; x: number; y: number }> {
  const central = transformBounds(crsFromEpsg(32633), WGS84, [515360 + 500, 4969280 + 500, 530720 - 500, 4984640 - 500], 21);
  return sampleTiles(getTileMatrixSet('WebMercatorQuad'), central, 11, 14, 12);
}

function rangeStats(reqs: RecordedRequest[]): { requests: number; bytes: number; duplicates: number; headerReads: number; files: number } {
  const seen = new Set<string>();
  let duplicates = 0;
  let bytes = 0;
  let headerReads = 0;
  const files = new Set<string>();
  for (const r of reqs) {
    files.add(r.path);
    const key = `${r.path} ${r.range ?? 'all'}`;
    if (seen.has(key)) duplicates++;
    seen.add(key);
    const m = /^bytes=(\d+)-(\d+)$/.exec(r.range ?? '');
    if (m) {
      bytes += Number(m[2]) - Number(m[1]) + 1;
      if (m[1] === '0') headerReads++;
    }
  }
  return { requests: reqs.length, bytes, duplicates, headerReads, files: files.size };
}

async function main(): Promise<void> {
  const doc = JSON.parse(readFileSync(path.join(dir, 'granules.json'), 'utf8')) as { collection: string; items: UmmItem[] };
  const data = await startRangeServer({ root: path.join(dir, 'data') });
  const items = JSON.parse(JSON.stringify(doc.items).replaceAll('{DATA_HOST}', data.url)) as UmmItem[];
  const cmr = await startCmrStandin({ granules: items });
  const tiles = tileList();
  const base = `collection_concept_id=${doc.collection}&assets_regex=B0%5B0-9%5D&assets=B04&assets=B03&assets=B02&rescale=2000,7000`;
  const scenarios = [
    { name: 'mean, 4 granules × 3 assets', query: `${base}&pixel_selection=mean&exitwhenfull=false` },
    { name: 'first (defaults)', query: base },
  ];
  console.log(
    `Mosaic benchmark ${new Date().toISOString().slice(0, 10)}: ${tiles.length} WebMercatorQuad tiles z11–14 (256 px PNG), ${passes} warm passes, ${connections} connections`,
  );
  console.log(
    '| scenario | cold: data requests / tile | cold: KiB / tile | duplicate ranges | header reads / file | CMR requests / tile | CPU ms / tile (warm) | tiles/s | p50 / p99 ms | warm data requests / tile |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  try {
    for (const s of scenarios) {
      const server = await startGranuleServer(PORT, cmr.url);
      try {
        const urls = tiles.map((t) => `http://127.0.0.1:${PORT}/raster/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.png?${s.query}`);
        const d0 = data.requests.length;
        const c0 = cmr.granuleRequests().length;
        for (const u of urls) {
          const r = await fetch(u);
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`${u} → ${r.status}`);
        }
        const cold = rangeStats(data.requests.slice(d0));
        const cmrPerTile = (cmr.granuleRequests().length - c0) / urls.length;
        const d1 = data.requests.length;
        const cpu0 = procCpuMs(server.pid!);
        const queue = Array.from({ length: passes }, () => urls).flat();
        const { wallMs: wall, latencies } = await runLoad(queue, connections);
        const cpu = procCpuMs(server.pid!) - cpu0;
        const n = queue.length;
        const warmData = (data.requests.length - d1) / n;
        console.log(
          `| ${s.name} | ${(cold.requests / urls.length).toFixed(1)} | ${(cold.bytes / 1024 / urls.length).toFixed(0)} | ${cold.duplicates} | ${(cold.headerReads / Math.max(1, cold.files)).toFixed(2)} | ${cmrPerTile.toFixed(2)} | ${(cpu / n).toFixed(1)} | ${((n / wall) * 1000).toFixed(1)} | ${latencies[Math.floor(n * 0.5)].toFixed(0)} / ${latencies[Math.floor(n * 0.99)].toFixed(0)} | ${warmData.toFixed(2)} |`,
        );
      } finally {
        await stopServer(server);
      }
    }
  } finally {
    await cmr.close();
    await data.close();
  }
}

await main();
