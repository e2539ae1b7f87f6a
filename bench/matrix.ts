/**
 * Request-kind matrix: for each kind of request (tiles at native zoom, minzoom, minzoom−3 and
 * z0–z1 in WebMercatorQuad and WorldCRS84Quad, big tilesizes, previews, sparse and dense bboxes,
 * statistics, POST statistics/feature with a 2,000-vertex polygon, points, an algorithm, the
 * same-CRS path) over a small (1024², the demo) and a large (8192², generated) UTM dataset and a
 * global EPSG:4326 float32 one: the server's CPU per request (utime+stime from /proc, one warm-up
 * request, median of `runs`, a run of a fast kind repeating it for ~300 ms) against GDAL doing the same work in-process (bench/matrix_gdal.py:
 * rasterio WarpedVRT read onto the same grid, the rio-tiler way, + GDAL PNG encode), with both
 * PNG sizes: ours, and GDAL's PNG driver on the same pixels (our response decoded and re-encoded by
 * bench/png_gdal_sizes.py — GDAL's own warp samples at another phase and its colormap/hillshade
 * are stand-ins, so the PNG it encodes while timed is not the same image).
 *
 *   node --import tsx bench/matrix.ts [runs=3] [server checkout=.]
 *
 * The data goes to $MATRIX_DATA (default /tmp/rastile-matrix; generated when missing).
 * `server checkout` runs another checkout's compiled server (for a before/after comparison).
 * MATRIX_ONLY=<regexp> runs the kinds whose name matches; MATRIX_SAVE=<dir> writes each kind's
 * last response there (<index>.png/.json, for bench/png-matrix.ts); MATRIX_NO_GDAL=1 skips GDAL's side.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { procCpuMs, RENDER_EVERY_TIME, startScriptSettings, waitForHealthz } from './load.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv[2] ?? 3);
const checkout = path.resolve(process.argv[3] ?? path.join(here, '..'));
const data = process.env.MATRIX_DATA ?? '/tmp/rastile-matrix';
// a port of its own: two helpers' matrix runs on one machine would otherwise answer each other's requests
const PORT = Number(process.env.MATRIX_PORT ?? 20000 + Math.floor(Math.random() * 20000));

export interface Kind {
  name: string;
  method?: 'POST';
  path: string;
  body?: unknown;
  /** What bench/matrix_gdal.py does for it. */
  gdal: Record<string, unknown>;
}

/** A 2,000-vertex polygon (a wobbly circle) around lon/lat (cx, cy) of radius r degrees. */
function polygon(cx: number, cy: number, r: number): number[][] {
  const pts: number[][] = [];
  for (let i = 0; i < 2000; i++) {
    const a = (2 * Math.PI * i) / 2000;
    const rr = r * (1 + 0.15 * Math.sin(7 * a));
    pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  pts.push(pts[0]);
  return pts;
}

/** The tile of `tms` holding lon/lat (cx, cy) at zoom z. */
function tileAt(tms: string, cx: number, cy: number, z: number): [number, number] {
  if (tms === 'WorldCRS84Quad') return [Math.floor(((cx + 180) / 360) * 2 ** (z + 1)), Math.floor(((90 - cy) / 180) * 2 ** z)];
  const lat = (cy * Math.PI) / 180;
  return [Math.floor(((cx + 180) / 360) * 2 ** z), Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * 2 ** z)];
}

type Zooms = Record<string, { minzoom: number; maxzoom: number }>;

function kinds(zooms: Zooms): Kind[] {
  const small = path.join(data, 'utm_small.tif');
  const large = path.join(data, 'utm_large.tif');
  const world = path.join(data, 'global_f32.tif');
  const u = (p: string): string => encodeURIComponent(p);
  const out: Kind[] = [];
  const centre: Record<string, [number, number]> = { [small]: [8.35, 46.5], [large]: [8.25, 47.0], [world]: [10, 45] };
  const tile = (label: string, file: string, tms: string, zoom: number | 'native' | 'min' | 'min-3', size = 256, extra = ''): void => {
    const zz = zooms[`${file} ${tms}`];
    const z = zoom === 'native' ? zz.maxzoom : zoom === 'min' ? zz.minzoom : zoom === 'min-3' ? Math.max(0, zz.minzoom - 3) : zoom;
    const [x, y] = tileAt(tms, centre[file][0], centre[file][1], z);
    const name = `${label} z${z}${size !== 256 ? ` tilesize=${size}` : ''}`;
    out.push({
      name,
      path: `/cog/tiles/${tms}/${z}/${x}/${y}.png?url=${u(file)}&tilesize=${size}${extra}`,
      gdal: { op: 'tile', file, tms, z, x, y, size, extra },
    });
  };
  // small UTM: the demo (1024² of 60 m, ~7.95–8.76°E 46.2–46.8°N)
  tile('small WMQ native', small, 'WebMercatorQuad', 'native');
  tile('small WMQ minzoom', small, 'WebMercatorQuad', 'min');
  tile('small WMQ minzoom−3', small, 'WebMercatorQuad', 'min-3');
  tile('small WMQ (sparse)', small, 'WebMercatorQuad', 1);
  tile('small WMQ (sparse)', small, 'WebMercatorQuad', 1, 1024);
  tile('small CRS84', small, 'WorldCRS84Quad', 0);
  tile('small CRS84 native', small, 'WorldCRS84Quad', 'native');
  // large UTM (8192² of 10 m, ~7.7–8.8°E 46.6–47.4°N)
  tile('large WMQ native', large, 'WebMercatorQuad', 'native');
  tile('large WMQ minzoom', large, 'WebMercatorQuad', 'min');
  tile('large WMQ minzoom−3', large, 'WebMercatorQuad', 'min-3');
  tile('large WMQ (sparse)', large, 'WebMercatorQuad', 1);
  tile('large WMQ (sparse)', large, 'WebMercatorQuad', 1, 1024);
  tile('large WMQ minzoom', large, 'WebMercatorQuad', 'min', 4096);
  tile('large CRS84', large, 'WorldCRS84Quad', 0);
  tile('large CRS84 minzoom', large, 'WorldCRS84Quad', 'min');
  // global EPSG:4326 float32 with NaN (same CRS as WorldCRS84Quad; warped in WebMercatorQuad)
  const viridis = '&rescale=-10,30&colormap_name=viridis';
  tile('global WMQ', world, 'WebMercatorQuad', 1, 256, viridis);
  tile('global WMQ native', world, 'WebMercatorQuad', 'native', 256, viridis);
  tile('global CRS84 same-CRS', world, 'WorldCRS84Quad', 1, 256, viridis);
  tile('global CRS84 same-CRS native', world, 'WorldCRS84Quad', 'native', 256, viridis);
  tile('small hillshade (algorithm)', small, 'WebMercatorQuad', 11, 256, '&algorithm=hillshade&buffer=3');
  // previews and bboxes
  out.push({ name: 'large preview 1024', path: `/cog/preview.png?url=${u(large)}&max_size=1024`, gdal: { op: 'preview', file: large, size: 1024 } });
  out.push({
    name: 'global preview 1024 3857',
    path: `/cog/preview.png?url=${u(world)}&max_size=1024&dst_crs=epsg:3857&rescale=-10,30`,
    gdal: { op: 'preview', file: world, size: 1024, dst_crs: 3857, rescale: [-10, 30] },
  });
  for (const [name, file] of [
    ['small', small],
    ['large', large],
  ] as const) {
    out.push({
      name: `${name} bbox world 2048² (sparse)`,
      path: `/cog/bbox/-180,-90,180,90/2048x2048.png?url=${u(file)}`,
      gdal: { op: 'bbox', file, bounds: [-180, -90, 180, 90], width: 2048, height: 2048 },
    });
  }
  out.push({
    name: 'large bbox dense 1024²',
    path: `/cog/bbox/8.0,46.8,8.5,47.2/1024x1024.png?url=${u(large)}`,
    gdal: { op: 'bbox', file: large, bounds: [8.0, 46.8, 8.5, 47.2], width: 1024, height: 1024 },
  });
  // statistics, points, POST
  for (const [label, q, size] of [
    ['default', '', 1024],
    ['max_size=1024', '&max_size=1024', 1024],
    ['full', '&max_size=0', 0],
  ] as const) {
    if (label === 'full')
      out.push({ name: `small statistics ${label}`, path: `/cog/statistics?url=${u(small)}${q}`, gdal: { op: 'stats', file: small, size } });
    else out.push({ name: `large statistics ${label}`, path: `/cog/statistics?url=${u(large)}${q}`, gdal: { op: 'stats', file: large, size } });
  }
  out.push({ name: 'global statistics float NaN 1024', path: `/cog/statistics?url=${u(world)}&max_size=1024`, gdal: { op: 'stats', file: world, size: 1024 } });
  out.push({ name: 'large point', path: `/cog/point/8.3,47.0?url=${u(large)}`, gdal: { op: 'point', file: large, lon: 8.3, lat: 47.0 } });
  const poly = polygon(8.25, 47.0, 0.15);
  const feature = { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [poly] } };
  out.push({
    name: 'large POST statistics 2000-vertex polygon',
    method: 'POST',
    path: `/cog/statistics?url=${u(large)}&max_size=1024`,
    body: feature,
    gdal: { op: 'feature_stats', file: large, polygon: poly, size: 1024 },
  });
  out.push({
    name: 'large POST feature 2000-vertex polygon png',
    method: 'POST',
    path: `/cog/feature/512x512.png?url=${u(large)}`,
    body: feature,
    gdal: { op: 'feature', file: large, polygon: poly, width: 512, height: 512 },
  });
  return out;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  if (!existsSync(path.join(data, 'utm_large.tif')) || !existsSync(path.join(data, 'global_f32.tif'))) {
    execFileSync('/usr/bin/python3', [path.join(here, 'make-matrix-data.py'), data], { stdio: 'inherit' });
  }
  if (!existsSync(path.join(data, 'utm_small.tif'))) copyFileSync(path.join(here, '..', 'demo', 'rastile-demo.tif'), path.join(data, 'utm_small.tif'));
  const start = startScriptSettings();
  const server = spawn(
    process.execPath,
    [...start.nodeArgs, path.join(checkout, 'bin', 'rastile.js'), 'serve', '--port', String(PORT), '--local-roots', data],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { LOG_LEVEL: 'warn', RASTILE_WORKERS: '1', ...start.env, ...process.env, ...RENDER_EVERY_TIME },
    },
  );
  const ours: Array<{ cpu: number; bytes: number; status: number }> = [];
  const saveDir = process.env.MATRIX_SAVE ?? mkdtempSync(path.join(tmpdir(), 'rastile-matrix-'));
  let list: Kind[] = [];
  try {
    await waitForHealthz(`http://127.0.0.1:${PORT}`);
    const zooms: Zooms = {};
    for (const f of ['utm_small.tif', 'utm_large.tif', 'global_f32.tif']) {
      for (const tms of ['WebMercatorQuad', 'WorldCRS84Quad']) {
        const file = path.join(data, f);
        const tj = (await (await fetch(`http://127.0.0.1:${PORT}/cog/${tms}/tilejson.json?url=${encodeURIComponent(file)}`)).json()) as {
          minzoom: number;
          maxzoom: number;
        };
        zooms[`${file} ${tms}`] = tj;
      }
    }
    list = kinds(zooms).filter((k) => !process.env.MATRIX_ONLY || new RegExp(process.env.MATRIX_ONLY).test(k.name));
    for (const k of list) {
      let body = new ArrayBuffer(0);
      const req = async (): Promise<{ status: number; bytes: number }> => {
        const r = await fetch(
          `http://127.0.0.1:${PORT}${k.path}`,
          k.method ? { method: k.method, body: JSON.stringify(k.body), headers: { 'content-type': 'application/json' } } : undefined,
        );
        body = await r.arrayBuffer();
        return { status: r.status, bytes: body.byteLength };
      };
      await req(); // warm-up (opens the dataset, fills the caches)
      // /proc counts CPU in 10 ms ticks: a run of a fast kind repeats it for ~300 ms, sized by a
      // second, warm request (the first can take far longer on a loaded machine: one repetition
      // per run would leave a fast kind at the 10 ms tick resolution)
      const t0 = performance.now();
      await req();
      const reps = Math.max(1, Math.min(50, Math.round(300 / (performance.now() - t0))));
      const cpus: number[] = [];
      let last = { status: 0, bytes: 0 };
      for (let i = 0; i < runs; i++) {
        const c0 = procCpuMs(server.pid!);
        for (let r = 0; r < reps; r++) last = await req();
        cpus.push((procCpuMs(server.pid!) - c0) / reps);
        if (cpus[0] > 3000) break; // slow kinds: one run is enough to rank them
      }
      ours.push({ cpu: median(cpus), bytes: last.bytes, status: last.status });
      mkdirSync(saveDir, { recursive: true });
      writeFileSync(path.join(saveDir, `${list.indexOf(k)}.${k.path.includes('.png') ? 'png' : 'json'}`), Buffer.from(body));
      process.stderr.write(`${k.name}: ${median(cpus).toFixed(0)} ms (${last.status})\n`);
    }
  } finally {
    server.kill('SIGTERM');
  }
  if (process.env.MATRIX_NO_GDAL) {
    if (!process.env.MATRIX_SAVE) rmSync(saveDir, { recursive: true, force: true });
    list.forEach((k, i) => console.log(`| ${k.name} | ${ours[i].cpu.toFixed(1)} | ${ours[i].status} | ${ours[i].bytes} |`));
    return;
  }
  const spec = path.join(data, 'matrix.json');
  writeFileSync(spec, JSON.stringify({ runs, kinds: list.map((k) => ({ name: k.name, ...k.gdal })) }));
  const gdal = JSON.parse(execFileSync('/usr/bin/python3', [path.join(here, 'matrix_gdal.py'), spec], { encoding: 'utf8', maxBuffer: 1 << 26 })) as Array<{
    cpu_ms: number;
    png_bytes: number | null;
  }>;
  // GDAL's PNG driver on our own pixels: the byte comparison on the same image
  const pngs = list.map((k, i) => (k.path.includes('.png') && ours[i].status === 200 ? path.join(saveDir, `${i}.png`) : null));
  const sizes = JSON.parse(
    execFileSync('/usr/bin/python3', [path.join(here, 'png_gdal_sizes.py'), ...pngs.filter((p) => p !== null)], { encoding: 'utf8' }),
  ) as Array<{ bytes: number }>;
  const samePixels = new Map(pngs.filter((p) => p !== null).map((p, j) => [p, sizes[j].bytes]));
  if (!process.env.MATRIX_SAVE) rmSync(saveDir, { recursive: true, force: true });
  console.log(
    `Request matrix ${new Date().toISOString().slice(0, 16)}Z, server ${checkout}, CPU ms per request (median of ${runs}, warm; kinds over 3 s: 1 run)`,
  );
  console.log('| request | rastile CPU ms | GDAL CPU ms | ratio | rastile PNG bytes | GDAL PNG bytes (same pixels) |');
  console.log('|---|---|---|---|---|---|');
  list.forEach((k, i) => {
    const o = ours[i];
    const g = gdal[i];
    const status = o.status === 200 ? '' : ` (HTTP ${o.status})`;
    const isPng = k.path.includes('.png');
    const same = pngs[i] ? samePixels.get(pngs[i]) : undefined;
    console.log(
      `| ${k.name}${status} | ${o.cpu.toFixed(1)} | ${g.cpu_ms.toFixed(1)} | **${(o.cpu / g.cpu_ms).toFixed(2)}** | ${isPng ? o.bytes : ''} | ${same ?? ''} |`,
    );
  });
}

await main();
