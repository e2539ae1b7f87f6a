/**
 * Our PNG encoder on the matrix's own output pixels against GDAL's PNG driver on the same pixels:
 * bytes and encode CPU per image for each encoder setting.
 *
 *   MATRIX_NO_GDAL=1 MATRIX_SAVE=/tmp/m node --import tsx bench/matrix.ts 1   # saves the responses
 *   node --import tsx bench/png-matrix.ts /tmp/m
 *
 * The PNGs are decoded here (our own writer's layout: one IDAT) and re-encoded; GDAL's side is
 * bench/png_gdal_sizes.py (GDAL decodes and re-encodes them with its PNG driver, libpng defaults, ZLEVEL 6).
 * PNG_SETTINGS='[["label", {"level": 1, "filter": "up"}], …]' replaces the settings compared.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { encodePngSync, type PngInput } from '../src/raster/render/png-encoder.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2] ?? '/tmp/rastile-matrix-responses';
const CHANNELS: Record<number, 1 | 2 | 3 | 4> = { 0: 1, 4: 2, 2: 3, 6: 4, 3: 1 };

/**
 * The pixels of a PNG made by our writer (or any non-interlaced 8/16-bit PNG), our lossless
 * reductions expanded back to the layout they came from: indexed → RGBA (RGB without tRNS),
 * grey with a tRNS key → grey+alpha.
 */
function decode(png: Buffer): Omit<PngInput, 'level' | 'filter'> {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const depth = png[24];
  const channels = CHANNELS[png[25]];
  const idat: Buffer[] = [];
  const chunks: Record<string, Buffer> = {};
  for (let o = 8; o < png.length;) {
    const len = png.readUInt32BE(o);
    const type = png.toString('latin1', o + 4, o + 8);
    if (type === 'IDAT') idat.push(png.subarray(o + 8, o + 8 + len));
    else chunks[type] = png.subarray(o + 8, o + 8 + len);
    o += 12 + len;
  }
  const scan = inflateSync(Buffer.concat(idat));
  const bpp = (channels * depth) / 8;
  const rowBytes = width * bpp;
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const f = scan[y * (rowBytes + 1)];
    const s = y * (rowBytes + 1) + 1;
    const r = y * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= bpp ? raw[r + i - bpp] : 0;
      const b = y > 0 ? raw[r - rowBytes + i] : 0;
      const c = i >= bpp && y > 0 ? raw[r - rowBytes + i - bpp] : 0;
      const x = scan[s + i];
      let p = 0;
      if (f === 1) p = a;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) {
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      raw[r + i] = (x + p) & 0xff;
    }
  }
  const { PLTE: plte, tRNS: trns } = chunks;
  if (png[25] === 3) {
    const c = trns ? 4 : 3;
    const out = new Uint8Array(width * height * c);
    for (let p = 0; p < width * height; p++) {
      const i = raw[p];
      out.set(plte.subarray(3 * i, 3 * i + 3), p * c);
      if (trns) out[p * c + 3] = i < trns.length ? trns[i] : 255;
    }
    return { width, height, channels: c, data: out };
  }
  const d = depth === 8 ? raw : new Uint16Array(raw.length / 2);
  if (depth === 16) for (let i = 0; i < d.length; i++) d[i] = (raw[2 * i] << 8) | raw[2 * i + 1];
  if (png[25] !== 0 || !trns) return { width, height, channels, data: d };
  const key = trns.readUInt16BE(0);
  const ga = depth === 8 ? new Uint8Array(d.length * 2) : new Uint16Array(d.length * 2);
  for (let p = 0; p < d.length; p++) {
    ga[2 * p] = d[p];
    ga[2 * p + 1] = d[p] === key ? 0 : depth === 8 ? 255 : 65535;
  }
  return { width, height, channels: 2, data: ga };
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.png'))
  .sort((a, b) => parseInt(a) - parseInt(b));
const images = files.map((f) => decode(readFileSync(path.join(dir, f))));
const gdal = JSON.parse(
  execFileSync('/usr/bin/python3', [path.join(here, 'png_gdal_sizes.py'), ...files.map((f) => path.join(dir, f))], { encoding: 'utf8' }),
) as Array<{
  bytes: number;
  cpu_ms: number;
}>;

type Setting = Pick<PngInput, 'level' | 'filter'> & Partial<Pick<PngInput, 'strategy'>>;
const settings: Array<[string, Setting]> = JSON.parse(process.env.PNG_SETTINGS ?? 'null') ?? [
  ['up, zlib 1', { level: 1, filter: 'up' }],
  ['libpng (adaptive, zlib 6, Z_FILTERED)', { level: 6, filter: 'adaptive', strategy: 1 }],
  ['auto (the png profile)', { level: 1, filter: 'auto' }],
];

function cpuOf(img: (typeof images)[number], s: Setting): { ms: number; bytes: number } {
  const reps = Math.max(1, Math.min(20, Math.round(2e6 / (img.width * img.height))));
  let bytes = 0;
  const c0 = process.cpuUsage();
  for (let r = 0; r < reps; r++) bytes = encodePngSync({ ...img, ...s }).length;
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000 / reps, bytes };
}

const rows = images.map(() => [] as Array<{ ms: number; bytes: number }>);
for (const [, s] of settings) images.forEach((img, i) => rows[i].push(cpuOf(img, s)));
console.log(`| image | GDAL bytes | GDAL ms | ${settings.map(([n]) => `${n} bytes | ms`).join(' | ')} |`);
console.log(`|---|---|---|${settings.map(() => '---|---|').join('')}`);
images.forEach((img, i) => {
  const label = `${files[i]} ${img.width}×${img.height}×${img.channels}${img.data instanceof Uint16Array ? '×16' : ''}`;
  console.log(`| ${label} | ${gdal[i].bytes} | ${gdal[i].cpu_ms.toFixed(1)} | ${rows[i].map((r) => `${r.bytes} | ${r.ms.toFixed(1)}`).join(' | ')} |`);
});
const sum = (f: (r: { ms: number; bytes: number }) => number, j: number): number => rows.reduce((a, r) => a + f(r[j]), 0);
const worst = (j: number): number => Math.max(...rows.map((r, i) => r[j].bytes / gdal[i].bytes));
console.log(
  `| total | ${gdal.reduce((a, g) => a + g.bytes, 0)} | ${gdal.reduce((a, g) => a + g.cpu_ms, 0).toFixed(0)} | ${settings
    .map((_, j) => `${sum((r) => r.bytes, j)} (worst ${worst(j).toFixed(2)}× GDAL) | ${sum((r) => r.ms, j).toFixed(0)}`)
    .join(' | ')} |`,
);
