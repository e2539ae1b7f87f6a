/**
 * /raster time series end to end over the generated granules (scripts/fixtures/granules.py: G1–G4
 * on 2024-05-01, -03, -06 and -11 over the same area) served by the CMR stand-in and a local range
 * server. Oracles: each step's statistics equal the single-step POST /raster/statistics of that
 * step; each step's TileJSON equals the single-step TileJSON with the step's `temporal`; the GIF
 * is decoded by Pillow (Debian's python3-pil) and its frames compared with the single-step PNGs.
 * Also: GET /timeseries without step (granule midpoints), 204s, the size guard's texts, bad input,
 * and a client that disconnects (the stand-in's request log shows the remaining steps never ran).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { boxFeature } from '../helpers/geojson.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from '../search/granule-fixtures.ts';

const COLL = `collection_concept_id=${COLLECTION_ID}`;
const LAYER = `assets_regex=${q('B0[0-9]')}&assets=B04&exitwhenfull=false`;
const MAY = q('2024-05-01T00:00:00Z/2024-05-11T23:59:59Z');
const BOX = [14.995, 45.015, 15.07, 45.066] as const;
const FEATURE = { ...boxFeature(BOX), properties: { name: 'box' } };
/** The four P1D steps that hold a granule, in order. */
const DATA_STEPS = ['01', '03', '06', '11'].map((d) => `2024-05-${d}T00:00:00+00:00/2024-05-${d}T23:59:59+00:00`);

let data: RangeServer;
let cmr: CmrStandin;
let server: TestServer;

before(async () => {
  data = await startRangeServer({ root: GRANULE_DATA_DIR });
  const fx = loadGranuleFixtures(data.url);
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
  server = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
  });
});
after(async () => {
  await server?.close();
  await cmr?.close();
  await data?.close();
});

describe('GET /timeseries', () => {
  it('without step: one step per granule midpoint, filters other than the box ignored (titiler-cmr); a SingleDateTime granule is a step at its instant (titiler-cmr skips it)', async () => {
    const r = await server.getJson<Array<Record<string, unknown>>>(
      `/timeseries?${COLL}&temporal=${q('2024-05-01T00:00:00Z/2024-05-31T23:59:59Z')}&cloud_cover=0,50`,
    );
    assert.equal(r.status, 200);
    const at = (t: string) => `${t}/${t}`;
    assert.deepEqual(
      r.body.map((s) => s['temporal']),
      [
        at('2024-05-01T10:00:15+00:00'),
        at('2024-05-02T22:00:00+00:00'),
        at('2024-05-03T10:00:15+00:00'),
        at('2024-05-06T10:00:15+00:00'),
        at('2024-05-11T10:00:15+00:00'),
      ],
    );
    assert.deepEqual(r.body[0], { collection_concept_id: COLLECTION_ID, cloud_cover: '0,50', temporal: r.body[0]!['temporal'] });
  });

  it('with a step, a frozen-free comma list and point mode', async () => {
    const r = await server.getJson<Array<{ temporal: string }>>(
      `/timeseries?${COLL}&temporal=${q('2023-01-01T00:00:00Z,2024-01-01T00:00:00Z/2024-01-05T00:00:00Z')}&step=P1D&temporal_mode=point`,
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 6);
  });

  for (const [query, detail] of [
    [`${COLL}&step=P1D`, "'temporal' is required"],
    [`temporal=${MAY}&step=P1D`, 'collection_concept_id is required'],
    [
      `${COLL}&temporal=${q('../2024-10-12T23:59:59Z')}&step=P1D`,
      'you must provide a temporal interval with a defined start time or a list of comma-separated temporal strings',
    ],
    [`${COLL}&temporal=${q('2024-10-11')}&step=P1D`, '2024-10-11 is an invalid temporal input'],
    [`${COLL}&temporal=${MAY}&step=P1X`, "'P1X' is not a valid ISO 8601 duration (e.g. P1D, PT1H, P1W, P1M, P1Y, PT0.5S)"],
    [`${COLL}&temporal=${MAY}&step=P0D`, "'P0D' is not a valid step: the duration is zero"],
    [
      `${COLL}&temporal=${q('2008-10-12T00:00:01Z/2024-10-12T23:59:59Z')}&step=P1D`,
      'this request (5845) exceeds the maximum number of distinct time series points/intervals of 995',
    ],
  ] as const) {
    it(`400 {"detail": "${detail.slice(0, 40)}…"}`, async () => {
      const r = await server.getJson<{ detail: string }>(`/timeseries?${query}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.detail, detail);
    });
  }
});

describe('POST /raster/timeseries/statistics', () => {
  it('per step = the single-step POST /raster/statistics of that step; steps without granules left out', async () => {
    const r = await server.post(`/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`, FEATURE);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/geo\+json/);
    const body = (await r.json()) as { properties: { name: string; statistics: Record<string, unknown> } };
    assert.equal(body.properties.name, 'box');
    assert.deepEqual(Object.keys(body.properties.statistics), DATA_STEPS);
    for (const step of DATA_STEPS) {
      const single = await server.post(`/raster/statistics?${COLL}&${LAYER}&temporal=${q(step)}`, FEATURE);
      assert.equal(single.status, 200, step);
      const expected = ((await single.json()) as { properties: { statistics: unknown } }).properties.statistics;
      assert.deepEqual(body.properties.statistics[step], expected, step);
    }
  });

  it('steps finding the same granule share one read: three PT10S steps inside G1, statistics equal the single-step ones', async () => {
    const r = await server.post(
      `/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${q('2024-05-01T10:00:00Z/2024-05-01T10:00:30Z')}&step=PT10S`,
      FEATURE,
    );
    assert.equal(r.status, 200);
    const stats = ((await r.json()) as { properties: { statistics: Record<string, unknown> } }).properties.statistics;
    const keys = Object.keys(stats);
    assert.deepEqual(keys, [
      '2024-05-01T10:00:00+00:00/2024-05-01T10:00:09+00:00',
      '2024-05-01T10:00:10+00:00/2024-05-01T10:00:19+00:00',
      '2024-05-01T10:00:20+00:00/2024-05-01T10:00:30+00:00',
    ]);
    const single = await server.post(`/raster/statistics?${COLL}&${LAYER}&temporal=${q(keys[1]!)}`, FEATURE);
    const expected = ((await single.json()) as { properties: { statistics: unknown } }).properties.statistics;
    for (const k of keys) assert.deepEqual(stats[k], expected, k);
  });

  it('a FeatureCollection → 400 before any CMR request', async () => {
    const before = cmr.requests.length;
    const r = await server.post(`/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`, { type: 'FeatureCollection', features: [FEATURE] });
    assert.equal(r.status, 400);
    assert.match(((await r.json()) as { detail: string }).detail, /^Expected a GeoJSON Feature/);
    assert.equal(cmr.requests.length, before);
  });

  it('no granule in the range (no-step mode): 200 with empty statistics', async () => {
    const r = await server.post(`/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${q('2024-06-01T00:00:00Z/2024-06-30T00:00:00Z')}`, FEATURE);
    assert.equal(r.status, 200);
    assert.deepEqual(((await r.json()) as { properties: { statistics: unknown } }).properties.statistics, {});
  });
});

describe('GET /raster/timeseries/{tms}/tilejson.json', () => {
  it('one TileJSON per step in order, each equal to the single-step TileJSON of its temporal', async () => {
    const extra = `tile_format=png&minzoom=10&rescale=1000,5000&tile_scale=2`;
    const r = await server.getJson<Record<string, { tiles: string[] }>>(
      `/raster/timeseries/WebMercatorQuad/tilejson.json?${COLL}&${LAYER}&${extra}&temporal=${MAY}&step=P1D`,
    );
    assert.equal(r.status, 200);
    const keys = Object.keys(r.body);
    assert.equal(keys.length, 11);
    assert.equal(keys[0], DATA_STEPS[0]);
    assert.equal(keys[10], DATA_STEPS[3]);
    for (const step of [keys[0]!, keys[4]!, keys[10]!]) {
      const tiles = r.body[step]!.tiles[0]!;
      assert.ok(tiles.startsWith(`${server.url}/raster/tiles/WebMercatorQuad/{z}/{x}/{y}.png?`), tiles);
      const query = new URLSearchParams(tiles.split('?')[1]);
      assert.deepEqual(query.getAll('temporal'), [step]);
      assert.equal(query.get('step'), null);
      assert.equal(query.get('tile_scale'), null);
      assert.equal(query.get('rescale'), '1000,5000');
      const single = await server.getJson(
        `/raster/WebMercatorQuad/tilejson.json?${COLL}&${LAYER}&tile_format=png&minzoom=10&rescale=1000,5000&temporal=${q(step)}`,
      );
      assert.deepEqual(r.body[step], single.body, step);
    }
  });
});

interface GifReport {
  n_frames: number;
  size: [number, number];
  durations: number[];
  loop: number;
  /** diff[i][j]: mean |RGBA| difference between GIF frame i and PNG j. */
  diff: number[][];
}

/** Whether each image of a GIF has a local colour table (its image descriptor's flag). */
function localColourTables(gif: Buffer): boolean[] {
  const skipBlocks = (i: number): number => {
    while (gif[i]! !== 0) i += gif[i]! + 1;
    return i + 1;
  };
  const flags = gif[10]!;
  let i = 13 + ((flags & 0x80) !== 0 ? 3 << ((flags & 7) + 1) : 0);
  const local: boolean[] = [];
  while (gif[i] !== 0x3b) {
    if (gif[i] === 0x21) i = skipBlocks(i + 2);
    else if (gif[i] === 0x2c) {
      const packed = gif[i + 9]!;
      local.push((packed & 0x80) !== 0);
      i += 10 + ((packed & 0x80) !== 0 ? 3 << ((packed & 7) + 1) : 0);
      i = skipBlocks(i + 1); // minimum code size, then the data blocks
    } else throw new Error(`GIF: unexpected byte ${gif[i]} at ${i}`);
  }
  return local;
}

function decodeGif(gif: Buffer, pngs: Buffer[]): GifReport {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastile-gif-'));
  try {
    writeFileSync(path.join(dir, 'a.gif'), gif);
    pngs.forEach((p, i) => writeFileSync(path.join(dir, `${i}.png`), p));
    const script = `
import json, sys
from PIL import Image, ImageSequence
d = sys.argv[1]; n = int(sys.argv[2])
im = Image.open(d + '/a.gif')
frames, durations = [], []
for f in ImageSequence.Iterator(im):
    durations.append(f.info.get('duration'))
    frames.append(list(f.convert('RGBA').getdata()))
pngs = [list(Image.open('%s/%d.png' % (d, j)).convert('RGBA').getdata()) for j in range(n)]
def diff(a, b):
    return sum(abs(p[k] - q[k]) if (p[3] and q[3]) or k == 3 else 0 for p, q in zip(a, b) for k in range(4)) / (4 * len(a))
print(json.dumps({'n_frames': im.n_frames, 'size': list(im.size), 'durations': durations, 'loop': im.info.get('loop'),
                  'diff': [[diff(f, p) for p in pngs] for f in frames]}))
`;
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, dir, String(pngs.length)], { encoding: 'utf8' })) as GifReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('GET /raster/timeseries/bbox/….gif', () => {
  const bbox = BOX.join(',');
  const render = 'rescale=1000,5000&colormap_name=viridis';

  it('frames in step order (empty steps dropped), the requested size, 1000 // fps ms each, looping; pixels = the single-step PNGs', async () => {
    const r = await server.get(`/raster/timeseries/bbox/${bbox}/64x48.gif?${COLL}&${LAYER}&${render}&temporal=${MAY}&step=P1D&fps=3`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/gif');
    const gif = Buffer.from(await r.arrayBuffer());
    const pngs: Buffer[] = [];
    for (const step of DATA_STEPS) {
      const p = await server.get(`/raster/bbox/${bbox}/64x48.png?${COLL}&${LAYER}&${render}&temporal=${q(step)}`);
      assert.equal(p.status, 200, step);
      pngs.push(Buffer.from(await p.arrayBuffer()));
    }
    const report = decodeGif(gif, pngs);
    assert.deepEqual(localColourTables(gif), [false, false, false, false], 'viridis: one global colour table for every frame');
    assert.equal(report.n_frames, 4);
    assert.deepEqual(report.size, [64, 48]);
    assert.deepEqual(report.durations, [330, 330, 330, 330], '1000 // 3 = 333 ms, stored as 33 cs');
    assert.equal(report.loop, 0);
    report.diff.forEach((row, i) => {
      assert.equal(row[i], 0, `frame ${i} equals the PNG of step ${DATA_STEPS[i]}`);
      row.forEach((d, j) => j !== i && assert.ok(d > 0, `frame ${i} differs from step ${j}`));
    });
  });

  it('default fps 10 → 100 ms; native size kept without {w}x{h}', async () => {
    const r = await server.get(`/raster/timeseries/bbox/${bbox}.gif?${COLL}&${LAYER}&${render}&temporal=${MAY}&step=P1D&max_size=40`);
    assert.equal(r.status, 200);
    const p = await server.get(`/raster/bbox/${bbox}.png?${COLL}&${LAYER}&${render}&temporal=${q(DATA_STEPS[0]!)}&max_size=40`);
    const report = decodeGif(Buffer.from(await r.arrayBuffer()), [Buffer.from(await p.arrayBuffer())]);
    assert.equal(report.n_frames, 4);
    assert.deepEqual(report.durations, [100, 100, 100, 100]);
    assert.equal(report.diff[0]![0], 0);
  });

  it('steps sharing a granule: the frame is repeated (encoded once), every copy decodes to the single-step PNG', async () => {
    const t = q('2024-05-01T10:00:00Z/2024-05-01T10:00:30Z');
    const r = await server.get(`/raster/timeseries/bbox/${bbox}/40x30.gif?${COLL}&${LAYER}&${render}&temporal=${t}&step=PT10S`);
    assert.equal(r.status, 200);
    const p = await server.get(
      `/raster/bbox/${bbox}/40x30.png?${COLL}&${LAYER}&${render}&temporal=${q('2024-05-01T10:00:10+00:00/2024-05-01T10:00:19+00:00')}`,
    );
    const report = decodeGif(Buffer.from(await r.arrayBuffer()), [Buffer.from(await p.arrayBuffer())]);
    assert.equal(report.n_frames, 3);
    assert.deepEqual(report.diff, [[0], [0], [0]]);
  });

  it('label=true: each frame differs from its PNG only inside the top-left label box, where white pixels are drawn', async () => {
    const r = await server.get(`/raster/timeseries/bbox/${bbox}/64x48.gif?${COLL}&${LAYER}&${render}&temporal=${MAY}&step=P1D&label=true`);
    assert.equal(r.status, 200);
    const p = await server.get(`/raster/bbox/${bbox}/64x48.png?${COLL}&${LAYER}&${render}&temporal=${q(DATA_STEPS[1]!)}`);
    const dir = mkdtempSync(path.join(tmpdir(), 'rastile-label-'));
    try {
      writeFileSync(path.join(dir, 'a.gif'), Buffer.from(await r.arrayBuffer()));
      writeFileSync(path.join(dir, 'b.png'), Buffer.from(await p.arrayBuffer()));
      // "2024-05-03": 10 glyphs × 6 + 1 = 61 px wide, 9 px high at scale 1
      const script = `
import json, sys
from PIL import Image
im = Image.open(sys.argv[1] + '/a.gif'); im.seek(1)
f = im.convert('RGBA'); png = Image.open(sys.argv[1] + '/b.png').convert('RGBA')
same = lambda a, b: a[3] == b[3] and (a[3] == 0 or a == b)  # a transparent pixel has no colour (as decodeGif's diff)
out = sum(1 for y in range(48) for x in range(64) if not (x < 61 and y < 9) and not same(f.getpixel((x, y)), png.getpixel((x, y))))
white = sum(1 for y in range(9) for x in range(61) if f.getpixel((x, y)) == (255, 255, 255, 255))
print(json.dumps([out, white]))
`;
      const [outside, white] = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, dir], { encoding: 'utf8' })) as [number, number];
      assert.equal(outside, 0);
      assert.ok(white > 40, `white label pixels: ${white}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('all steps empty → 204; fps 1 → 422; format other than gif → 422', async () => {
    const june = q('2024-06-01T00:00:00Z/2024-06-04T00:00:00Z');
    assert.equal((await server.get(`/raster/timeseries/bbox/${bbox}.gif?${COLL}&${LAYER}&temporal=${june}&step=P1D`)).status, 204);
    assert.equal((await server.get(`/raster/timeseries/bbox/${bbox}.gif?${COLL}&${LAYER}&temporal=${MAY}&step=P1D&fps=1`)).status, 422);
    assert.equal((await server.get(`/raster/timeseries/bbox/${bbox}.png?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`)).status, 422);
  });
});

describe('size guard (collection resolution 60 m → 0.0006°)', () => {
  it("titiler-cmr's texts: per step, then total", async () => {
    const guarded = await startTestServer((c) => {
      c.cmrUrl = cmr.url;
      c.timeseries.maxImagePixels = 1000;
      c.timeseries.maxImageTotalPixels = 1e5;
    });
    try {
      // the box is 125 × 85 pixels of 0.0006° ≈ 10 625 per step
      const big = await guarded.getJson<{ detail: string }>(`/raster/timeseries/bbox/${BOX.join(',')}.gif?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`);
      assert.equal(big.status, 400);
      assert.equal(big.body.detail, 'The AOI for this request is too large for the /bbox endpoint for this dataset. Try again with either a smaller AOI');
      const small = [15, 45.03, 15.01, 45.04].join(','); // ≈ 278 pixels per step: 11 steps pass
      const ok = await guarded.get(`/raster/timeseries/bbox/${small}.gif?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`);
      assert.equal(ok.status, 200);
      const many = await guarded.getJson<{ detail: string }>(
        `/raster/timeseries/bbox/${small}.gif?${COLL}&${LAYER}&temporal=${q('2024-05-01T00:00:00Z/2024-05-21T00:00:00Z')}&step=PT1H`,
      );
      assert.equal(many.status, 400);
      assert.equal(
        many.body.detail,
        'This request is too large for the /timeseries/bbox endpoint for this dataset. Try again with either a smaller AOI or fewer time steps than 480',
      );
    } finally {
      await guarded.close();
    }
  });
});

describe('cancellation', () => {
  it('a client that goes away mid-series stops the remaining steps (stand-in request log)', async () => {
    const slow = await startCmrStandin({ granules: loadGranuleFixtures(data.url).items, collections: loadGranuleFixtures(data.url).collections, delayMs: 400 });
    const s = await startTestServer((c) => {
      c.cmrUrl = slow.url;
      c.timeseries.concurrency = 1;
    });
    try {
      const controller = new AbortController();
      const pending = s
        .get(`/raster/timeseries/bbox/${BOX.join(',')}/32x32.gif?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`, { signal: controller.signal })
        .catch((e: unknown) => e);
      // wait for the first step's granule search, then leave
      for (let i = 0; i < 100 && slow.granuleRequests().length === 0; i++) await sleep(20);
      assert.equal(slow.granuleRequests().length, 1);
      controller.abort();
      await pending;
      await sleep(1500); // 11 steps × ≥ 400 ms each would have sent more searches by now
      assert.ok(slow.granuleRequests().length <= 2, `granule searches after the disconnect: ${slow.granuleRequests().length}`);
    } finally {
      await s.close();
      await slow.close();
    }
  });
});

describe('legacy time-series URLs land on the new routes', () => {
  it('GET /timeseries/{tms}/tilejson.json (301) and POST /timeseries/statistics (308), with 0.x names', async () => {
    const legacy = `concept_id=${COLLECTION_ID}&datetime=${MAY}&step=P1D&bands_regex=${q('B0[0-9]')}&bands=B04&exitwhenfull=false`;
    const redirect = await server.get(`/timeseries/WebMercatorQuad/tilejson.json?${legacy}`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.match(redirect.headers.get('location') ?? '', /\/raster\/timeseries\/WebMercatorQuad\/tilejson\.json\?collection_concept_id=/);
    const followed = await server.getJson<Record<string, unknown>>(`/timeseries/WebMercatorQuad/tilejson.json?${legacy}`);
    assert.equal(followed.status, 200);
    assert.equal(Object.keys(followed.body).length, 11);
    const stats = await server.post(`/timeseries/statistics?${legacy}`, FEATURE);
    assert.equal(stats.status, 200, 'fetch follows the 308 with the body');
    assert.deepEqual(Object.keys(((await stats.json()) as { properties: { statistics: object } }).properties.statistics), DATA_STEPS);
    const gif = await server.get(`/timeseries/bbox/${BOX.join(',')}/32x32.gif?${legacy}`);
    assert.equal(gif.status, 200);
    assert.equal(gif.headers.get('content-type'), 'image/gif');
  });
});

describe('cancellation while a step reads its granule', () => {
  it('a statistics client that goes away while step 1 reads G1: no later step searches CMR or fetches a byte of G2–G4 (stand-in and data-host logs)', async () => {
    const slowData = await startRangeServer({ root: GRANULE_DATA_DIR, delayMs: 250 });
    const fx = loadGranuleFixtures(slowData.url);
    const standin = await startCmrStandin({ granules: fx.items, collections: fx.collections });
    const s = await startTestServer((c) => {
      c.cmrUrl = standin.url;
      c.timeseries.concurrency = 1;
      c.timeseries.threads = 0; // the calling thread (test/http/timeseries-threads.test.ts: the same on worker threads)
    });
    try {
      const controller = new AbortController();
      const pending = fetch(`${s.url}/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(FEATURE),
        signal: controller.signal,
      }).catch((e: unknown) => e);
      const readsG1 = () => slowData.requests.some((r) => r.path.includes('RASTILE.G1.'));
      for (let i = 0; i < 250 && !readsG1(); i++) await sleep(20);
      assert.ok(readsG1(), 'step 1 started reading G1');
      controller.abort();
      await pending;
      await sleep(1500); // ten more P1D steps, each ≥ 250 ms per data request, would have run by now
      const temporals = standin.granuleRequests().map((r) => r.query.find(([k]) => k === 'temporal')?.[1]);
      assert.ok(temporals.length > 0);
      // the steps share one search over the series' range (src/search/series-search.ts), made by step 1
      assert.deepEqual(temporals, ['2024-05-01T00:00:00+00:00/2024-05-11T23:59:59+00:00'], 'one range search, no later step searched CMR');
      const later = slowData.requests.filter((r) => /RASTILE\.G[2-5]\./.test(r.path)).map((r) => r.path);
      assert.deepEqual(later, [], 'no byte of a later step’s granule fetched');
    } finally {
      await s.close();
      await standin.close();
      await slowData.close();
    }
  });
});

describe('failures and the deadline', () => {
  it("a failing step fails the series with that step's status and message", async () => {
    const fx = loadGranuleFixtures(data.url);
    const failing = await startCmrStandin({
      granules: fx.items,
      collections: fx.collections,
      // step 3's search fails; so does the series' shared range search, so that every step searches alone
      status: (req) => (req.query.some(([k, v]) => k === 'temporal' && (v.startsWith('2024-05-03') || v.endsWith('05-11T23:59:59+00:00'))) ? 400 : undefined),
    });
    const s = await startTestServer((c) => {
      c.cmrUrl = failing.url;
    });
    try {
      const r = await s.post(`/raster/timeseries/statistics?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`, FEATURE);
      assert.equal(r.status, 400);
      assert.deepEqual(await r.json(), { detail: 'Stand-in forced status 400' });
    } finally {
      await s.close();
      await failing.close();
    }
  });

  it('the request deadline (RASTILE_REQUEST_TIMEOUT_MS) cuts the series: 503, and no step starts after it', async () => {
    // a slow data host (the steps share one CMR search, so the time goes into the reads)
    const slowData = await startRangeServer({ root: GRANULE_DATA_DIR, delayMs: 300 });
    const fx = loadGranuleFixtures(slowData.url);
    const standin = await startCmrStandin({ granules: fx.items, collections: fx.collections });
    const s = await startTestServer((c) => {
      c.cmrUrl = standin.url;
      c.timeseries.concurrency = 1;
      c.limits.requestTimeoutMs = 1000;
    });
    try {
      const r = await s.get(`/raster/timeseries/bbox/${BOX.join(',')}/32x32.gif?${COLL}&${LAYER}&temporal=${MAY}&step=P1D`);
      assert.equal(r.status, 503);
      assert.match(((await r.json()) as { detail: string }).detail, /RASTILE_REQUEST_TIMEOUT_MS/);
      const sent = slowData.requests.length + standin.granuleRequests().length;
      await sleep(1000);
      assert.equal(slowData.requests.length + standin.granuleRequests().length, sent, 'no data or CMR request after the cut');
      assert.ok(slowData.requests.length < 8, `data requests before the cut: ${slowData.requests.length}`);
    } finally {
      await s.close();
      await standin.close();
      await slowData.close();
    }
  });
});
