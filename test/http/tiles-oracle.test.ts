/**
 * Map tiles against GDAL: every tile in test/fixtures/tiles/index.json is fetched as `.npy`
 * from a real server and compared with what rio-tiler returns for it on rasterio 1.3 /
 * GDAL 3.6.2 (WarpedVRT + nearest read, or a windowed read for the same CRS), computed by
 * scripts/fixtures/tiles_oracle.py. Nearest sampling may pick the neighbouring source pixel
 * where a pixel centre falls within rounding distance of a source pixel edge, so per case:
 * the mask must match on ≥ 99.5 % of pixels, data on ≥ 99.5 % of the pixels valid in both,
 * and every differing pixel must equal one of its 8 neighbours in GDAL's tile.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface OracleTile {
  z: number;
  x: number;
  y: number;
  tilesize: number;
  offset: number;
  length: number;
  bands: number;
  valid: number;
}

interface OracleCase {
  dataset: string;
  tms: string;
  dtype: string;
  maxzoom: number;
  file: string;
  colormap: Record<string, [number, number, number, number]> | null;
  tiles: OracleTile[];
}

const index = JSON.parse(readFileSync(fixture('tiles', 'index.json'), 'utf8')) as { cases: OracleCase[] };

const SIZES: Record<string, number> = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, float32: 4, float64: 8 };

type Samples = Float64Array;

interface Tile {
  bands: Samples[];
  valid: Uint8Array;
  size: number;
}

/** Decodes one tile of the oracle file (see encode_tile in the generator). */
function decodeOracle(buf: Buffer, t: OracleTile, dtype: string): Tile {
  const size = SIZES[dtype];
  const n = t.tilesize * t.tilesize;
  const count = t.bands * n;
  const planes = buf.subarray(t.offset, t.offset + count * size);
  const bytes = new Uint8Array(count * size);
  for (let p = 0; p < size; p++) for (let i = 0; i < count; i++) bytes[i * size + p] = planes[p * count + i];
  const ints = size === 1 ? bytes : size === 2 ? new Uint16Array(bytes.buffer) : size === 4 ? new Uint32Array(bytes.buffer) : new BigUint64Array(bytes.buffer);
  const w = t.tilesize;
  if (ints instanceof BigUint64Array) {
    for (let b = 0; b < t.bands; b++) {
      for (let i = w; i < n; i++) ints[b * n + i] = BigInt.asUintN(64, ints[b * n + i] + ints[b * n + i - w]);
      for (let r = 0; r < w; r++)
        for (let c = 1; c < w; c++) ints[b * n + r * w + c] = BigInt.asUintN(64, ints[b * n + r * w + c] + ints[b * n + r * w + c - 1]);
    }
  } else {
    for (let b = 0; b < t.bands; b++) {
      for (let i = w; i < n; i++) ints[b * n + i] += ints[b * n + i - w];
      for (let r = 0; r < w; r++) for (let c = 1; c < w; c++) ints[b * n + r * w + c] += ints[b * n + r * w + c - 1];
    }
  }
  const typed = view(bytes.buffer, dtype);
  const bands: Samples[] = [];
  for (let b = 0; b < t.bands; b++) bands.push(Float64Array.from(typed.subarray(b * n, (b + 1) * n)));
  const packed = buf.subarray(t.offset + count * size, t.offset + t.length);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) valid[i] = (packed[i >> 3] >> (7 - (i & 7))) & 1;
  return { bands, valid, size: w };
}

function view(
  buffer: ArrayBufferLike,
  dtype: string,
): Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array {
  switch (dtype) {
    case 'uint8':
      return new Uint8Array(buffer);
    case 'int8':
      return new Int8Array(buffer);
    case 'uint16':
      return new Uint16Array(buffer);
    case 'int16':
      return new Int16Array(buffer);
    case 'uint32':
      return new Uint32Array(buffer);
    case 'int32':
      return new Int32Array(buffer);
    case 'float32':
      return new Float32Array(buffer);
    default:
      return new Float64Array(buffer);
  }
}

/** The dataset colormap applied to a paletted oracle tile (RGB, alpha 0 → masked), as TiTiler renders it. */
function applyColormap(t: Tile, cmap: Record<string, number[]>): Tile {
  const n = t.size * t.size;
  const out = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = cmap[String(t.bands[0][i])] ?? [0, 0, 0, 0];
    for (let k = 0; k < 3; k++) out[k][i] = c[k];
    valid[i] = t.valid[i] && c[3] > 0 ? 1 : 0;
  }
  return { bands: out, valid, size: t.size };
}

/** Parses our `.npy` response: data bands then the mask band (dtype minimum = masked). */
function parseNpy(buf: Buffer): { shape: number[]; dtype: string; bands: Samples[]; valid: Uint8Array } {
  assert.equal(buf.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const headerLen = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + headerLen).toString('latin1');
  const descr = /'descr': '([^']+)'/.exec(header)![1];
  const shape = /'shape': \(([^)]*)\)/
    .exec(header)![1]
    .split(',')
    .filter((s) => s.trim())
    .map(Number);
  const dtype = { '|u1': 'uint8', '|i1': 'int8', '<u2': 'uint16', '<i2': 'int16', '<u4': 'uint32', '<i4': 'int32', '<f4': 'float32', '<f8': 'float64' }[descr]!;
  const body = Uint8Array.prototype.slice.call(buf, 10 + headerLen);
  const all = view(body.buffer, dtype);
  const n = shape[1] * shape[2];
  const bands: Samples[] = [];
  for (let b = 0; b < shape[0] - 1; b++) bands.push(Float64Array.from(all.subarray(b * n, (b + 1) * n)));
  const maskBand = all.subarray((shape[0] - 1) * n, shape[0] * n);
  let lo = Infinity;
  for (const v of maskBand) if (v < lo) lo = v;
  const valid = new Uint8Array(n);
  // masked = the dtype minimum (0 for unsigned, −32768 for int16, −3.4e38 for float32)
  const min = dtype.startsWith('u') ? 0 : dtype === 'int8' ? -128 : dtype === 'int16' ? -32768 : dtype === 'int32' ? -2147483648 : Math.min(lo, -1e30);
  for (let i = 0; i < n; i++) valid[i] = maskBand[i] === min ? 0 : 1;
  return { shape, dtype, bands, valid };
}

const same = (a: number, b: number): boolean => a === b || (a !== a && b !== b);

interface Score {
  pixels: number;
  maskSame: number;
  bothValid: number;
  dataSame: number;
  /** Pixels that differ from GDAL and from all of GDAL's 8 neighbours. */
  outliers: string[];
}

function compare(ours: { bands: Samples[]; valid: Uint8Array }, gdal: Tile, label: string, score: Score): void {
  const w = gdal.size;
  const nb = gdal.bands.length;
  for (let r = 0; r < w; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      score.pixels++;
      const ov = ours.valid[i];
      const gv = gdal.valid[i];
      if (ov === gv) score.maskSame++;
      else if (!neighbourHas(gdal, r, c, (k) => gdal.valid[k] === ov) && score.outliers.length < 20) {
        score.outliers.push(`${label} mask at row ${r} col ${c}: ours ${ov}, GDAL ${gv} and all neighbours ${gv}`);
      }
      if (!(ov && gv)) continue;
      score.bothValid++;
      let equal = true;
      for (let b = 0; b < nb; b++) if (!same(ours.bands[b][i], gdal.bands[b][i])) equal = false;
      if (equal) {
        score.dataSame++;
        continue;
      }
      const ok = neighbourHas(gdal, r, c, (k) => {
        if (!gdal.valid[k]) return false;
        for (let b = 0; b < nb; b++) if (!same(ours.bands[b][i], gdal.bands[b][k])) return false;
        return true;
      });
      if (!ok && score.outliers.length < 20) {
        const o = ours.bands.map((b) => b[i]).join('/');
        const g = gdal.bands.map((b) => b[i]).join('/');
        score.outliers.push(`${label} data at row ${r} col ${c}: ours ${o}, GDAL ${g}`);
      }
    }
  }
}

function neighbourHas(t: Tile, r: number, c: number, pred: (k: number) => boolean): boolean {
  const w = t.size;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      if (dr === 0 && dc === 0) continue;
      const rr = r + dr;
      const cc = c + dc;
      if (rr < 0 || cc < 0 || rr >= w || cc >= w) continue;
      if (pred(rr * w + cc)) return true;
    }
  }
  return false;
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

const pct = (a: number, b: number): string => (b === 0 ? '–' : `${((100 * a) / b).toFixed(3)} %`);

describe('GET /cog/tiles/… .npy equals rio-tiler on GDAL (nearest)', () => {
  for (const kase of index.cases) {
    it(`${kase.dataset} in ${kase.tms} (${kase.tiles.length} tiles)`, async (t) => {
      const blob = inflateSync(readFileSync(fixture('tiles', kase.file)));
      const url = fixture(...kase.dataset.split('/'));
      const score: Score = { pixels: 0, maskSame: 0, bothValid: 0, dataSame: 0, outliers: [] };
      for (const tile of kase.tiles) {
        const label = `${kase.tms}/${tile.z}/${tile.x}/${tile.y}@${tile.tilesize}`;
        let gdal = decodeOracle(blob, tile, kase.dtype);
        if (kase.colormap) gdal = applyColormap(gdal, kase.colormap);
        const r = await server.get(`/cog/tiles/${kase.tms}/${tile.z}/${tile.x}/${tile.y}.npy?url=${q(url)}&tilesize=${tile.tilesize}`);
        const body = Buffer.from(await r.arrayBuffer());
        assert.equal(r.status, 200, `${label}: ${body.toString().slice(0, 200)}`);
        const ours = parseNpy(body);
        assert.deepEqual(ours.shape, [gdal.bands.length + 1, tile.tilesize, tile.tilesize], label);
        if (!kase.colormap) assert.equal(ours.dtype, kase.dtype, label);
        compare(ours, gdal, label, score);
      }
      t.diagnostic(
        `${kase.dataset} ${kase.tms}: mask ${pct(score.maskSame, score.pixels)} of ${score.pixels}, ` +
          `data ${pct(score.dataSame, score.bothValid)} of ${score.bothValid} valid in both`,
      );
      assert.deepEqual(score.outliers, [], 'pixels that are not a half-pixel choice');
      assert.ok(score.maskSame >= 0.995 * score.pixels, `mask matches on ${pct(score.maskSame, score.pixels)}`);
      assert.ok(score.dataSame >= 0.995 * score.bothValid, `data matches on ${pct(score.dataSame, score.bothValid)}`);
    });
  }
});

describe('tiles under concurrency (pooled buffers are given back only when nothing reads them)', () => {
  it('every oracle tile, requested all at once three times, equals its sequential response', async () => {
    const urls: string[] = [];
    for (const kase of index.cases) {
      const url = fixture(...kase.dataset.split('/'));
      for (const tile of kase.tiles) {
        for (const ext of ['npy', 'png']) urls.push(`/cog/tiles/${kase.tms}/${tile.z}/${tile.x}/${tile.y}.${ext}?url=${q(url)}&tilesize=${tile.tilesize}`);
      }
    }
    const fetchAll = (list: string[]) => Promise.all(list.map(async (u) => Buffer.from(await (await server.get(u)).arrayBuffer())));
    const sequential: Buffer[] = [];
    for (const u of urls) sequential.push((await fetchAll([u]))[0]);
    for (let round = 0; round < 3; round++) {
      const order = urls.map((_, i) => i).sort((a, b) => ((a * 7919 + round * 104729) % 1009) - ((b * 7919 + round * 104729) % 1009));
      const got = await fetchAll(order.map((i) => urls[i]));
      order.forEach((i, k) => assert.ok(got[k].equals(sequential[i]), `round ${round}: ${urls[i]} differs under concurrency`));
    }
  });
});
