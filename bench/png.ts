/**
 * PNG encoding of real tiles: our encoder (src/raster/render/png-encoder.ts) at several zlib
 * levels versus sharp (libvips) with and without adaptive filtering. Decodes every output back
 * with sharp to check it is lossless.
 *   node --import tsx bench/png.ts     (needs bench/out from make-bench-data.py and bench/tiles.ts's tiles.json)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { configFromEnv } from '../src/cli/config-from-env.ts';
import { getTileMatrixSet } from '../src/geo/tms.ts';
import { createServices } from '../src/http/services.ts';
import { getColormap } from '../src/raster/colormap/index.ts';
import { postProcess } from '../src/raster/render/index.ts';
import { interleaveWithAlpha } from '../src/raster/render/interleave.ts';
import { encodePngSync } from '../src/raster/render/png-encoder.ts';
import { bindLayer } from '../src/readers/image-reader.ts';

const spec = JSON.parse(readFileSync('bench/out/tiles.json', 'utf8')) as {
  datasets: Array<{ name: string; path: string; rescale?: [number, number]; colormap?: string }>;
  tiles: Array<{ dataset: string; x: number; y: number; z: number }>;
};
const services = createServices(configFromEnv({}, { localRoots: 'bench/out' }));
const tms = getTileMatrixSet('WebMercatorQuad');
const inputs: Array<{ width: number; height: number; channels: 2 | 4; data: Uint8Array }> = [];
for (const t of spec.tiles.filter((_, i) => i % 4 === 0)) {
  const ds = spec.datasets.find((d) => d.name === t.dataset)!;
  const img = await bindLayer(await services.openCog(ds.path), {}).tile(tms, t.x, t.y, t.z, {});
  const canvas = postProcess(img, {
    rescale: ds.rescale ? [ds.rescale] : undefined,
    colormap: ds.colormap ? { kind: 'lut', table: getColormap(ds.colormap) } : undefined,
  });
  const n = canvas.width * canvas.height;
  const planes = canvas.bands as Uint8Array[];
  const channels = (planes.length + 1) as 2 | 4;
  const data = interleaveWithAlpha(new Uint8Array(n * channels), planes, canvas.alpha, n) as Uint8Array;
  inputs.push({ width: canvas.width, height: canvas.height, channels, data });
}

async function time(label: string, fn: (i: (typeof inputs)[number]) => Promise<Buffer> | Buffer): Promise<void> {
  let bytes = 0;
  const c0 = process.cpuUsage();
  for (let rep = 0; rep < 3; rep++) for (const i of inputs) bytes += (await fn(i)).length;
  const c = process.cpuUsage(c0);
  const n = inputs.length * 3;
  console.log(`| ${label} | ${((c.user + c.system) / 1000 / n).toFixed(2)} | ${(bytes / n / 1024).toFixed(1)} |`);
}

// correctness: decode ours and compare
for (const i of inputs.slice(0, 10)) {
  for (const filter of ['adaptive', 'up', 'none', 'sampled', 'auto'] as const) {
    const png = encodePngSync({ ...i, level: 6, filter });
    const back = await sharp(png).raw().toBuffer();
    if (!back.equals(Buffer.from(i.data.buffer, i.data.byteOffset, i.data.length)) && i.channels === 4) throw new Error('round trip differs');
  }
}
console.log(`${inputs.length} tiles (256², grey+alpha or RGBA), CPU ms per encode (all threads), mean size`);
console.log('| encoder | CPU ms | KB |');
console.log('|---|---|---|');
for (const filter of ['adaptive', 'up'] as const) {
  for (const level of [1, 3, 6]) await time(`ours, ${filter} filter, zlib ${level}`, (i) => encodePngSync({ ...i, level, filter }));
}
await time('ours, unfiltered, zlib 1', (i) => encodePngSync({ ...i, level: 1, filter: 'none' }));
await time('ours, sampled min-sum filters, Z_RLE', (i) => encodePngSync({ ...i, level: 1, filter: 'sampled', strategy: 3 }));
await time('**ours, `auto` (our `png`)**', (i) => encodePngSync({ ...i, level: 1, filter: 'auto' }));
const viaSharp = (adaptive: boolean, level: number) => (i: (typeof inputs)[number]) =>
  sharp(i.data, { raw: { width: i.width, height: i.height, channels: i.channels } })
    .toColourspace(i.channels === 2 ? 'b-w' : 'srgb')
    .png({ compressionLevel: level, adaptiveFiltering: adaptive })
    .toBuffer();
await time('sharp, adaptive filtering, zlib 6', viaSharp(true, 6));
await time('sharp, no filtering, zlib 6', viaSharp(false, 6));

// bytes against GDAL's PNG driver (libpng defaults, zlib 6) on the same pixels, tile by tile
const dir = mkdtempSync(path.join(tmpdir(), 'rastile-png-bench-'));
try {
  const files = inputs.map((i, k) => {
    const f = path.join(dir, `${k}.png`);
    writeFileSync(f, encodePngSync({ ...i, level: 1, filter: 'none' }));
    return f;
  });
  const gdal = JSON.parse(execFileSync('/usr/bin/python3', ['bench/png_gdal_sizes.py', ...files], { encoding: 'utf8' })) as Array<{ bytes: number }>;
  for (const [label, filter] of [
    ['Up, zlib 1', 'up'],
    ['auto', 'auto'],
  ] as const) {
    const ours = inputs.map((i) => encodePngSync({ ...i, level: 1, filter }).length);
    const ratios = ours.map((b, k) => b / gdal[k].bytes);
    const total = ours.reduce((a, b) => a + b, 0) / gdal.reduce((a, g) => a + g.bytes, 0);
    console.log(
      `${label} vs GDAL's PNG driver: total ${total.toFixed(3)}×, worst tile ${Math.max(...ratios).toFixed(3)}×, ${ratios.filter((r) => r > 1).length} of ${inputs.length} tiles larger`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
