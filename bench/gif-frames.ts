/**
 * The GIF series' own work on a fresh process (where a time series pays V8's warm-up): 10 distinct
 * 512² uint16 frames through colormapGifFrame (rescale 2000–6000, viridis), then the 30-frame GIF
 * (each frame 3×, as 30 daily steps over 3-day granules). Each run is a new child process; CPU
 * (process.cpuUsage: compiler threads included) of each part, then its median.
 *
 *   node --import tsx bench/gif-frames.ts [runs=5]
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { makeImage } from '../test/raster/render/image.ts';
import { getColormap } from '../src/raster/colormap/index.ts';
import { encodeAnimatedGif } from '../src/raster/render/encode-gif.ts';
import { colormapGifFrame } from '../src/raster/render/gif-colormap-frame.ts';

function once(): string {
  const n = 512 * 512;
  const colormap = { kind: 'lut' as const, table: getColormap('viridis') };
  const images = Array.from({ length: 10 }, (_, k) => {
    const v = new Uint16Array(n);
    let s = k + 1;
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
      v[i] = 2000 + 300 * k + (i >> 9) * 3 + (s >> 21); // a ramp with noise, as the bench granules
    }
    return makeImage([v], { width: 512, height: 512 });
  });
  const cpu = (): number => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const c0 = cpu();
  const frames = images.map((img) => colormapGifFrame(img, { rescale: [[2000, 6000]], colormap, returnMask: true })!);
  const c1 = cpu();
  const gif = encodeAnimatedGif(
    Array.from({ length: 30 }, (_, i) => frames[Math.floor(i / 3)]!),
    100,
  );
  const c2 = cpu();
  return JSON.stringify({ frames: c1 - c0, gif: c2 - c1, bytes: gif.length });
}

if (process.argv[2] === '--once') {
  console.log(once());
} else {
  const runs = Number(process.argv[2] ?? 5);
  const me = fileURLToPath(import.meta.url);
  const results: Array<{ frames: number; gif: number; bytes: number }> = [];
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(process.execPath, [...process.execArgv, me, '--once'], { encoding: 'utf8' });
    results.push(JSON.parse(out.trim().split('\n').pop()!) as { frames: number; gif: number; bytes: number });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(`GIF series frame work, fresh process each, ${runs} runs (load average ${load}):`);
  console.log(
    `  frames (10 × colormapGifFrame): ${results.map((x) => x.frames.toFixed(0)).join(' / ')} ms CPU, median ${median(results.map((x) => x.frames)).toFixed(0)}`,
  );
  console.log(
    `  GIF (30 frames, 10 distinct):   ${results.map((x) => x.gif.toFixed(0)).join(' / ')} ms CPU, median ${median(results.map((x) => x.gif)).toFixed(0)}`,
  );
  console.log(`  ${results[0]!.bytes} bytes`);
}
