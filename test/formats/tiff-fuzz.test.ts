/**
 * TIFF fuzzing through a running app: small fixture COGs/GeoTIFFs (seeds) are mutated — bit
 * flips, overwritten IFD entries (type, count, value), block offsets pointing anywhere,
 * truncations, huge entry counts, IFD chains that loop — and each mutant goes through info, a
 * tile, statistics and a preview. Every answer must be 2xx, or 4xx with a JSON `detail`
 * (never 5xx, never a hang: a request over REQUEST_DEADLINE_MS fails the test), the server must
 * stay alive and its resident set bounded.
 *
 * Seeded and bounded: RASTILE_TIFF_FUZZ_RUNS inputs (default 200), RASTILE_TIFF_FUZZ_SEED (default 9).
 * A failure prints the input number, seed file and mutations; RASTILE_TIFF_FUZZ_ONLY=<n> replays one.
 * RASTILE_TIFF_FUZZ_REPORT=1 prints the figures (inputs, statuses, slow requests, peak RSS).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const RUNS = Number(process.env['RASTILE_TIFF_FUZZ_RUNS'] ?? 200);
const SEED = Number(process.env['RASTILE_TIFF_FUZZ_SEED'] ?? 9);
const ONLY = process.env['RASTILE_TIFF_FUZZ_ONLY'];
const REPORT = process.env['RASTILE_TIFF_FUZZ_REPORT'] === '1';
const REQUEST_DEADLINE_MS = 10_000;
const SLOW_MS = 2_000;
const MAX_RSS = 1024 * 1024 * 1024;

const SEEDS = [
  fixture('hostile', 'base_rgb.tif'),
  fixture('tiff', 'cog_deflate_pred2_rgb.tif'),
  fixture('tiff', 'gtiff_lzw_rgb_strips.tif'),
  fixture('tiff', 'gtiff_palette.tif'),
  fixture('tiff', 'gtiff_lzw_pred2_uint16_mask.tif'),
  fixture('tiff', 'gtiff_zstd_pred2_float32_planar.tif'),
  fixture('tiff', 'bigtiff_uint32_planar.tif'),
  fixture('tiff', 'gtiff_nbits4_lzw.tif'),
  fixture('tiff', 'gtiff_lerc_float32.tif'),
  fixture('tiff', 'gtiff_jpeg_rgb_tiled.tif'),
];

/** mulberry32: a small seeded PRNG (the input number is mixed in, so any input replays alone). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Entry {
  /** Byte offset of the entry. */
  at: number;
  tag: number;
}

interface Layout {
  le: boolean;
  big: boolean;
  /** Offsets of the IFDs and of their entries. */
  ifds: Array<{ at: number; entries: Entry[]; nextAt: number }>;
}

/** A minimal IFD walker over the seed's bytes (seeds are valid: no loop guard beyond a count). */
function layoutOf(bytes: Uint8Array): Layout {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = v.getUint16(0) === 0x4949;
  const big = v.getUint16(2, le) === 43;
  const ifds: Layout['ifds'] = [];
  let off = big ? Number(v.getBigUint64(8, le)) : v.getUint32(4, le);
  while (off !== 0 && ifds.length < 16 && off < bytes.length) {
    const n = big ? Number(v.getBigUint64(off, le)) : v.getUint16(off, le);
    const first = off + (big ? 8 : 2);
    const size = big ? 20 : 12;
    const entries: Entry[] = [];
    for (let i = 0; i < n; i++) entries.push({ at: first + i * size, tag: v.getUint16(first + i * size, le) });
    const nextAt = first + n * size;
    ifds.push({ at: off, entries, nextAt });
    off = big ? Number(v.getBigUint64(nextAt, le)) : v.getUint32(nextAt, le);
  }
  return { le, big, ifds };
}

const INTERESTING = [0, 1, 2, 3, 7, 8, 16, 255, 256, 4096, 32767, 32768, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff];

/** Applies 1–3 random mutations in place (or returns a truncated copy); returns what it did. */
function mutate(bytes: Uint8Array, layout: Layout, r: () => number): { bytes: Uint8Array; did: string[] } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)];
  const word = (): number => (r() < 0.7 ? pick(INTERESTING) : Math.floor(r() * 2 ** 32));
  const setPtr = (at: number, value: number): void => {
    if (at + (layout.big ? 8 : 4) > bytes.length) return;
    if (layout.big) v.setBigUint64(at, BigInt(value), layout.le);
    else v.setUint32(at, value >>> 0, layout.le);
  };
  const did: string[] = [];
  let out = bytes;
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const ifd = pick(layout.ifds);
    const entry = ifd.entries.length > 0 ? pick(ifd.entries) : null;
    const kind = Math.floor(r() * 8);
    if (kind <= 1) {
      // bit flips, mostly in the first KiB (headers)
      const flips = 1 + Math.floor(r() * 8);
      const span = r() < 0.8 ? Math.min(1024, out.length) : out.length;
      for (let i = 0; i < flips; i++) {
        const at = Math.floor(r() * span);
        out[at] ^= 1 << Math.floor(r() * 8);
      }
      did.push(`flip ${flips} bit(s) in the first ${span} bytes`);
    } else if (kind === 2 && entry) {
      const value = word();
      setPtr(entry.at + (layout.big ? 12 : 8), value); // the value / offset field
      if (!layout.big && r() < 0.5) v.setUint16(entry.at + 8, value & 0xffff, layout.le); // SHORT values sit there too
      did.push(`tag ${entry.tag} value := ${value}`);
    } else if (kind === 3 && entry) {
      const count = word();
      setPtr(entry.at + 4, count);
      did.push(`tag ${entry.tag} count := ${count}`);
    } else if (kind === 4 && entry) {
      const type = Math.floor(r() * 20);
      v.setUint16(entry.at + 2, type, layout.le);
      did.push(`tag ${entry.tag} type := ${type}`);
    } else if (kind === 5) {
      const target = r() < 0.5 ? ifd.at : pick(layout.ifds).at;
      setPtr(ifd.nextAt, target);
      did.push(`IFD at ${ifd.at} next := ${target} (loop)`);
    } else if (kind === 6) {
      const count = word();
      if (layout.big) v.setBigUint64(ifd.at, BigInt(count), layout.le);
      else v.setUint16(ifd.at, count & 0xffff, layout.le);
      did.push(`IFD at ${ifd.at} entry count := ${count}`);
    } else {
      const keep = Math.floor(r() * out.length);
      out = out.slice(0, keep);
      did.push(`truncate to ${keep} bytes`);
      break;
    }
  }
  return { bytes: out, did };
}

interface Figures {
  inputs: number;
  requests: number;
  statuses: Record<number, number>;
  slow: string[];
  peakRss: number;
}

describe('TIFF fuzzing through the app', { timeout: Math.max(120_000, RUNS * 2_000) }, () => {
  let server: TestServer;
  let dir: string;
  const seeds: Array<{ file: string; bytes: Uint8Array; layout: Layout; tile: string }> = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rastile-tiff-fuzz-'));
    server = await startTestServer((c) => {
      c.sources.localRoots = [...c.sources.localRoots, dir];
      c.limits.requestTimeoutMs = 8_000;
    });
    for (const file of SEEDS) {
      const bytes = new Uint8Array(readFileSync(file));
      const tj = await server.getJson<{ center?: number[]; maxzoom?: number }>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}`);
      let tile = '/cog/tiles/WebMercatorQuad/0/0/0.png';
      if (tj.status === 200 && tj.body.center) {
        const [lon, lat, z0] = tj.body.center;
        const z = Math.min(z0 + 1, tj.body.maxzoom ?? z0);
        const n = 2 ** z;
        const rad = (lat * Math.PI) / 180;
        const x = Math.floor(((lon + 180) / 360) * n);
        const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
        tile = `/cog/tiles/WebMercatorQuad/${z}/${x}/${y}.png`;
      }
      seeds.push({ file, bytes, layout: layoutOf(bytes), tile });
    }
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${RUNS} mutated TIFFs (seed ${SEED}): every answer 2xx or 4xx with a detail, none hangs, RSS bounded`, async () => {
    const figures: Figures = { inputs: 0, requests: 0, statuses: {}, slow: [], peakRss: process.memoryUsage().rss };
    const failures: string[] = [];
    let reported = 0;
    const indexes = ONLY !== undefined ? [Number(ONLY)] : Array.from({ length: RUNS }, (_, i) => i);
    for (const i of indexes) {
      const r = rng(SEED * 1_000_003 + i);
      const seed = seeds[Math.floor(r() * seeds.length)];
      const { bytes, did } = mutate(seed.bytes.slice(), seed.layout, r);
      const file = path.join(dir, `fuzz-${SEED}-${i}.tif`);
      writeFileSync(file, bytes);
      const url = q(file);
      const label = `input ${i} (RASTILE_TIFF_FUZZ_SEED=${SEED} RASTILE_TIFF_FUZZ_ONLY=${i}) from ${path.basename(seed.file)}: ${did.join('; ')}`;
      const paths = [`/cog/info?url=${url}`, `${seed.tile}?url=${url}`, `/cog/statistics?url=${url}&max_size=256`, `/cog/preview.png?url=${url}&max_size=256`];
      for (const p of paths) {
        const t0 = performance.now();
        let status: number;
        let body: string;
        try {
          const res = await server.get(p, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
          status = res.status;
          body = res.status >= 400 ? await res.text() : (await res.arrayBuffer(), '');
        } catch (err) {
          failures.push(`${label}\n  ${p.split('?')[0]}: no answer within ${REQUEST_DEADLINE_MS} ms (${(err as Error).message})`);
          continue;
        }
        const ms = performance.now() - t0;
        figures.requests++;
        figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
        if (ms > SLOW_MS) figures.slow.push(`${Math.round(ms)} ms ${p.split('?')[0]} ${label}`);
        if (status >= 500) failures.push(`${label}\n  ${p.split('?')[0]}: ${status} ${body.slice(0, 300)}`);
        else if (status >= 400) {
          let detail: unknown;
          try {
            detail = (JSON.parse(body) as { detail?: unknown }).detail;
          } catch {
            detail = undefined;
          }
          if (detail === undefined) failures.push(`${label}\n  ${p.split('?')[0]}: ${status} without a JSON detail: ${body.slice(0, 200)}`);
        }
      }
      figures.inputs++;
      rmSync(file, { force: true });
      const rss = process.memoryUsage().rss;
      if (rss > figures.peakRss) figures.peakRss = rss;
      for (const f of failures.slice(reported)) console.log(`FAIL ${f}`); // as found: a killed run still tells
      reported = failures.length;
      if (failures.length >= 10) break;
    }
    assert.equal((await server.get('/healthz')).status, 200, 'the server is alive');
    if (REPORT || failures.length > 0) {
      console.log(
        JSON.stringify(
          { ...figures, slowCount: figures.slow.length, slow: figures.slow.slice(0, 20), peakRssMiB: Math.round(figures.peakRss / 1048576) },
          null,
          1,
        ),
      );
    }
    assert.deepEqual(failures, []);
    assert.ok(figures.peakRss < MAX_RSS, `peak RSS ${Math.round(figures.peakRss / 1048576)} MiB`);
  });
});
