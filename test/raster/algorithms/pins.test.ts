/** TiTiler's test_algorithms.py pins (spec §13.3) and the contract details around them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { applyAlgorithm, validateAlgorithmParams } from '../../../src/raster/algorithms/index.ts';
import type { ImageData } from '../../../src/raster/image-data.ts';
import { makeImage, seededInts } from './fixtures.ts';

const run = (id: string, img: ImageData, params: Record<string, unknown> = {}): Promise<ImageData> =>
  applyAlgorithm(id, validateAlgorithmParams(id, params), img);

const badRequest = (e: unknown): boolean => isRastileError(e, 'BadRequest');

/** 1-band uint16 DEM, values in [0, 5000); optionally rows/cols 0..99 masked. */
function dem(size: number, seed: number, maskCorner = false): ImageData {
  const rnd = seededInts(seed, 0, 5000);
  return makeImage(
    'uint16',
    1,
    size,
    size,
    () => rnd(),
    (_b, i) => maskCorner && i % size < 100 && Math.floor(i / size) < 100,
  );
}

test('terrainrgb encodes every height 0..4999 so that Mapbox decoding gives it back exactly', async () => {
  const img = makeImage('uint16', 1, 100, 50, (_b, i) => i);
  const out = await run('terrainrgb', img);
  assert.equal(out.dtype, 'uint8');
  assert.deepEqual(out.bandDescriptions, ['terrain_r', 'terrain_g', 'terrain_b']);
  const [r, g, b] = out.bands;
  for (let i = 0; i < 5000; i++) assert.equal(-10000 + (r[i] * 256 * 256 + g[i] * 256 + b[i]) * 0.1, i);
});

test('terrarium encodes every height 0..4999 so that Terrarium decoding gives it back exactly', async () => {
  const img = makeImage('uint16', 1, 100, 50, (_b, i) => i);
  const out = await run('terrarium', img);
  assert.deepEqual(out.bandDescriptions, ['terranium_r', 'terranium_g', 'terranium_b']);
  const [r, g, b] = out.bands;
  for (let i = 0; i < 5000; i++) assert.equal(r[i] * 256 + g[i] + b[i] / 256 - 32768, i);
});

test('DEM encoders: 256×256 → (3, 256, 256) uint8, masked input stays masked, nodata_height decodes to itself', async () => {
  const img = dem(256, 1, true);
  for (const id of ['contours', 'terrarium', 'terrainrgb']) {
    const out = await run(id, img);
    assert.equal(out.bands.length, 3);
    assert.equal(out.width, 256);
    assert.equal(out.height, 256);
    assert.equal(out.dtype, 'uint8');
    assert.equal(out.masks[0][0], 0, `${id}: (0,0) masked`);
    assert.equal(out.masks[0][256 * 100 + 100], 255);
  }
  const terrarium = await run('terrarium', img, { nodata_height: 10.0 });
  const rgb = await run('terrainrgb', img, { nodata_height: 10.0 });
  for (const i of [0, 99, 256 * 99 + 50]) {
    const [r, g, b] = terrarium.bands;
    assert.equal(r[i] * 256 + g[i] + b[i] / 256 - 32768, 10);
    assert.equal(terrarium.masks[0][i], 255);
    const [R, G, B] = rgb.bands;
    assert.equal(-10000 + (R[i] * 256 * 256 + G[i] * 256 + B[i]) * 0.1, 10);
    assert.equal(rgb.masks[0][i], 255);
  }
});

test('hillshade and slope on 262×262 give 256×256 (default buffer 3) with cropped bounds', async () => {
  const img = dem(262, 2);
  img.bounds = [1000, 2000, 1000 + 262 * 10, 2000 + 262 * 20];
  const hs = await run('hillshade', img);
  assert.equal(hs.width, 256);
  assert.equal(hs.height, 256);
  assert.equal(hs.dtype, 'uint8');
  assert.deepEqual(hs.bandNames, ['b1']);
  assert.deepEqual(hs.bandDescriptions, ['hillshade']);
  assert.deepEqual(hs.bounds, [1030, 2060, 3590, 7180]);
  const sl = await run('slope', img);
  assert.equal(sl.width, 256);
  assert.equal(sl.dtype, 'float32');
  assert.deepEqual(sl.bandDescriptions, ['slope']);
  assert.deepEqual(sl.bounds, [1030, 2060, 3590, 7180]);
  for (const v of sl.bands[0]) assert.ok(v >= 0 && v <= 90);
  const full = await run('hillshade', img, { buffer: 0 });
  assert.equal(full.width, 262);
  assert.deepEqual(full.bounds, img.bounds);
});

test('hillshade/slope: masked input stays masked; masks follow numpy.gradient', async () => {
  const img = dem(262, 3, true);
  for (const id of ['hillshade', 'slope']) {
    const out = await run(id, img);
    assert.equal(out.width, 256);
    assert.equal(out.masks[0][0], 0, `${id}: (0,0) masked`);
    // input row/col 99 is the last masked one: output pixels reading it are masked, the next are not
    assert.equal(out.masks[0][(100 - 3) * 256 + 50], 0);
    assert.equal(out.masks[0][(101 - 3) * 256 + 50], 255);
  }
  // a lone masked pixel masks its 4 neighbours, and (as numpy.ma does) not itself
  const one = makeImage(
    'float32',
    1,
    5,
    5,
    (_b, i) => i * i,
    (_b, i) => i === 12,
  );
  const m = (await run('hillshade', one, { buffer: 0 })).masks[0];
  assert.deepEqual(
    [...m].map((v) => (v ? 1 : 0)),
    [1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1],
  );
});

test('normalizedIndex of (1, 2) is 0.3333 in float32; 0/0 and masked inputs are masked', async () => {
  const img = makeImage('uint16', 2, 256, 256, (b) => (b === 0 ? 1 : 2));
  const out = await run('normalizedIndex', img);
  assert.equal(out.dtype, 'float32');
  assert.equal(out.bands.length, 1);
  assert.ok(out.bands[0].every((v) => v === out.bands[0][0]));
  assert.ok(Math.abs(out.bands[0][0] - 0.3333) < 1e-3);
  assert.equal(out.bands[0][0], Math.fround(1 / 3));

  const zeros = (i: number) => i % 256 < 10 && i < 256 * 10;
  const masked = (_b: number, i: number) => i % 256 < 5 && i < 256 * 5;
  const mixed = makeImage('uint16', 2, 256, 256, (b, i) => (zeros(i) ? 0 : b === 0 ? 1 : 2), masked);
  const o = await run('normalizedIndex', mixed);
  assert.equal(o.masks[0][0], 0);
  assert.equal(o.masks[0][6 * 256 + 6], 0, '0/0 is masked');
  assert.equal(o.masks[0][10 * 256 + 10], 255);
  assert.ok(Math.abs(o.bands[0][10 * 256 + 10] - 0.3333) < 1e-3);
  assert.equal(new Set(o.bands[0].filter((_v, i) => o.masks[0][i] !== 0)).size, 1);
});

test('normalizedIndex names the band from the input descriptions (§8.5)', async () => {
  const img = makeImage('uint8', 2, 2, 2, (b) => b + 1);
  img.bandDescriptions = ['b1', 'b1'];
  assert.deepEqual((await run('normalizedIndex', img)).bandDescriptions, ['(b1 - b1) / (b1 + b1)']);
  img.bandDescriptions = ['red', 'nir'];
  const out = await run('normalizedIndex', img);
  assert.deepEqual(out.bandDescriptions, ['(nir - red) / (nir + red)']);
  assert.deepEqual(out.bandNames, ['b1']);
  await assert.rejects(
    () =>
      run(
        'normalizedIndex',
        makeImage('uint8', 1, 2, 2, () => 1),
      ),
    badRequest,
  );
});

test('cast/floor of 1.6 → 1, ceil → 2; masked stays masked; names kept', async () => {
  const rnd = seededInts(4, 0, 5000);
  const img = makeImage(
    'float32',
    1,
    256,
    256,
    (_b, i) => (i === 0 ? 1.6 : rnd()),
    (_b, i) => {
      const r = Math.floor(i / 256);
      const c = i % 256;
      return r >= 1 && r < 100 && c >= 1 && c < 100;
    },
  );
  img.bandNames = ['b2'];
  img.bandDescriptions = ['nir'];
  for (const [id, want] of [
    ['cast', 1],
    ['floor', 1],
    ['ceil', 2],
  ] as const) {
    const out = await run(id, img);
    assert.equal(out.dtype, 'uint8');
    assert.equal(out.width, 256);
    assert.equal(out.bands[0][0], want, id);
    assert.equal(out.masks[0][257], 0);
    assert.deepEqual(out.bandNames, ['b2']);
    assert.deepEqual(out.bandDescriptions, ['nir']);
  }
  const wrap = makeImage('float32', 1, 4, 1, (_b, i) => [300.7, -1.5, Number.NaN, 255.9][i]);
  assert.deepEqual([...(await run('cast', wrap)).bands[0]], [44, 255, 0, 255]);
});

test('math algorithms keep pixels where any band is valid and mask the rest', async () => {
  const img = makeImage(
    'float32',
    3,
    4,
    1,
    (b, i) => b * 10 + i,
    (b, i) => i === 1 || (i === 2 && b > 0),
  );
  const expected: Record<string, number[]> = {
    min: [0, 0, 2, 3],
    max: [20, 0, 2, 23],
    median: [10, 0, 2, 13],
    mean: [10, 0, 2, 13],
    sum: [30, 0, 2, 39],
    var: [100, 0, 0, 100],
    std: [10, 0, 0, 10],
  };
  for (const [id, values] of Object.entries(expected)) {
    const out = await run(id, img);
    assert.deepEqual(out.bandDescriptions, [id]);
    assert.deepEqual([...out.masks[0]], id === 'std' || id === 'var' ? [255, 0, 0, 255] : [255, 0, 255, 255], id);
    for (const i of [0, 3]) assert.equal(out.bands[0][i], values[i], `${id}[${i}]`);
  }
  assert.equal(
    (
      await run(
        'sum',
        makeImage('uint16', 2, 1, 1, () => 65535),
      )
    ).bands[0][0],
    131070,
  );
});

test('bitonal: 200 → 255, 0 → 0; 1 or 3 bands only', async () => {
  const img = makeImage(
    'uint8',
    1,
    3,
    1,
    (_b, i) => [200, 0, 127][i],
    (_b, i) => i === 2,
  );
  const out = await run('bitonal', img);
  assert.deepEqual([...out.bands[0]], [255, 0, 0]);
  assert.deepEqual([...out.masks[0]], [255, 255, 0]);
  assert.deepEqual(out.bandDescriptions, ['bitonal']);
  const rgb = makeImage('uint8', 3, 2, 1, (_b, i) => [200, 0][i]);
  assert.deepEqual([...(await run('bitonal', rgb)).bands[0]], [255, 0]);
  await assert.rejects(
    () =>
      run(
        'bitonal',
        makeImage('uint8', 4, 2, 2, () => 200),
      ),
    badRequest,
  );
  await assert.rejects(
    () =>
      run(
        'bitonal',
        makeImage('uint8', 2, 2, 2, () => 200),
      ),
    badRequest,
  );
});

test('grayscale: ITU-R 601-2 luma in the input dtype; fewer than 3 bands is an error', async () => {
  const img = makeImage(
    'uint8',
    3,
    2,
    1,
    (b, i) =>
      [
        [255, 255, 255],
        [200, 100, 50],
      ][i][b],
  );
  const out = await run('grayscale', img);
  assert.equal(out.dtype, 'uint8');
  assert.deepEqual(out.bandDescriptions, ['grayscale']);
  // 200·299/1000 + 100·587/1000 + 50·114/1000 = 124.2 → 124 (numpy 1.x would overflow uint8 products)
  assert.deepEqual([...out.bands[0]], [255, 124]);
  await assert.rejects(
    () =>
      run(
        'grayscale',
        makeImage('uint8', 2, 2, 2, () => 1),
      ),
    (e: unknown) => badRequest(e) && (e as Error).message === 'Cannot apply `grayscale` algorithm on image with 2 bands.',
  );
});

test('images too small for a gradient or for the buffer are rejected', async () => {
  await assert.rejects(
    () =>
      run(
        'hillshade',
        makeImage('uint8', 1, 1, 10, () => 1),
        { buffer: 0 },
      ),
    badRequest,
  );
  await assert.rejects(
    () =>
      run(
        'slope',
        makeImage('uint8', 1, 6, 6, () => 1),
      ),
    badRequest,
  );
  assert.equal(
    (
      await run(
        'slope',
        makeImage('uint8', 1, 7, 7, () => 1),
      )
    ).width,
    1,
  );
  await assert.rejects(
    () =>
      run(
        'contours',
        makeImage('uint8', 2, 2, 2, () => 1),
      ),
    badRequest,
  );
});

test('terrainrgb: a height range over 256³ steps is an error', async () => {
  const img = makeImage('float32', 1, 2, 1, (_b, i) => i * 2000);
  await assert.rejects(
    () => run('terrainrgb', img, { interval: 0.0001 }),
    (e: unknown) => badRequest(e) && (e as Error).message === 'Data of 20000000.0 larger than 256 ** 3',
  );
});
