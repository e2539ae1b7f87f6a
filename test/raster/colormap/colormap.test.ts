import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { COLORMAP_NAMES, colormapToJson, getColormap, legendImage, parseColormapParam, type ColorMap } from '../../../src/raster/colormap/index.ts';
import { renderImage } from '../../../src/raster/render/index.ts';
import { decodePng, pixel } from '../render/png-decode.ts';
import { oracle } from '../render/fixtures.ts';

const rejects = (fn: () => unknown, kind: string, message?: string | RegExp) =>
  assert.throws(fn, (e: unknown) => {
    assert.ok(isRastileError(e), String(e));
    assert.equal(e.kind, kind);
    if (typeof message === 'string') assert.equal(e.message, message);
    else if (message) assert.match(e.message, message);
    return true;
  });

test('the 211 named colormaps, sorted', () => {
  assert.equal(COLORMAP_NAMES.length, 211);
  assert.equal(COLORMAP_NAMES.length, oracle.colormap_facts.count);
  assert.deepEqual([...COLORMAP_NAMES], [...COLORMAP_NAMES].sort());
  for (const n of ['viridis', 'viridis_r', 'cfastie', 'rplumbo', 'schwarzwald', 'twilight_shifted_r']) {
    assert.ok(COLORMAP_NAMES.includes(n), n);
  }
  assert.ok(!COLORMAP_NAMES.includes('cfastie_r'));
});

test('getColormap returns 256 RGBA entries (viridis[1] = [68,2,85,255])', () => {
  const v = getColormap('viridis');
  assert.equal(v.length, 1024);
  assert.deepEqual([...v.subarray(4, 8)], [68, 2, 85, 255]);
  assert.deepEqual([...v.subarray(0, 4)], [68, 1, 84, 255]);
  assert.deepEqual([...v.subarray(1020, 1024)], [253, 231, 36, 255]);
  for (const name of ['viridis', 'terrain_r'] as const) {
    const t = getColormap(name);
    const facts = oracle.colormap_facts[name];
    [0, 1, 128, 255].forEach((i, k) => assert.deepEqual([...t.subarray(i * 4, i * 4 + 4)], facts[k]));
  }
  // reversed maps are their own data
  assert.deepEqual([...getColormap('viridis_r').subarray(1020, 1024)], [68, 1, 84, 255]);
  rejects(() => getColormap('nope'), 'BadRequest', 'Invalid colormap name: nope');
});

test('dict colormap with mixed colour notations (TiTiler pin)', () => {
  const c = parseColormapParam('{"1":[58,102,24,255],"2":[100,177,41],"3":"#b1b129","4":"#ddcb9aFF"}') as ColorMap;
  assert.equal(c.kind, 'discrete');
  assert.ok(c.kind === 'discrete');
  assert.deepEqual(
    [...c.entries],
    [
      [1, [58, 102, 24, 255]],
      [2, [100, 177, 41, 255]],
      [3, [177, 177, 41, 255]],
      [4, [221, 203, 154, 255]],
    ],
  );
  const d = parseColormapParam('{"0":"#000000","255":"#ffffff"}') as ColorMap;
  assert.ok(d.kind === 'discrete');
  assert.deepEqual(d.entries.get(0), [0, 0, 0, 255]);
  assert.deepEqual(d.entries.get(255), [255, 255, 255, 255]);
});

test('short hex colours are doubled; Python int() keys', () => {
  const c = parseColormapParam('{" 1 ":"#FFF","+2":"#0f08","1_0":"#12345678","-7":[1,2,3,4]}') as ColorMap;
  assert.ok(c.kind === 'discrete');
  assert.deepEqual(
    [...c.entries],
    [
      [1, [255, 255, 255, 255]],
      [2, [0, 255, 0, 136]],
      [10, [18, 52, 86, 120]],
      [-7, [1, 2, 3, 4]],
    ],
  );
});

test('256 keys 0..255 make a lookup table, otherwise a discrete map', () => {
  const full = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [String(i), [i, 0, 255 - i]]));
  const lut = parseColormapParam(JSON.stringify(full)) as ColorMap;
  assert.ok(lut.kind === 'lut');
  assert.deepEqual([...lut.table.subarray(40, 44)], [10, 0, 245, 255]);
  const shifted = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [String(i + 1), [i, 0, 0]]));
  assert.equal((parseColormapParam(JSON.stringify(shifted)) as ColorMap).kind, 'discrete');
});

test('interval colormap (TiTiler pin)', () => {
  const c = parseColormapParam('[[[1,2],[0,0,0,255]],[[2,3],[255,255,255,255]],[[3,1000],[255,0,0,255]]]') as ColorMap;
  assert.ok(c.kind === 'intervals');
  assert.deepEqual(c.entries, [
    [
      [1, 2],
      [0, 0, 0, 255],
    ],
    [
      [2, 3],
      [255, 255, 255, 255],
    ],
    [
      [3, 1000],
      [255, 0, 0, 255],
    ],
  ]);
  assert.deepEqual(parseColormapParam('[[[0.5,1.5],"#ff0000"]]'), {
    kind: 'intervals',
    entries: [
      [
        [0.5, 1.5],
        [255, 0, 0, 255],
      ],
    ],
  });
});

test('empty colormaps mean "no colormap" (falsy in TiTiler)', () => {
  assert.equal(parseColormapParam('{}'), null);
  assert.equal(parseColormapParam('[]'), null);
});

test('colormap parse errors', () => {
  for (const bad of ['{', 'not json', '{"1": [1,2,3]', '5', '"viridis"', 'null', 'true']) {
    rejects(() => parseColormapParam(bad), 'BadRequest', 'Could not parse the colormap value.');
  }
  rejects(() => parseColormapParam('{"1":[58,102]}'), 'InvalidColorFormat', 'Invalid color format: [58, 102]');
  rejects(() => parseColormapParam('{"1":"red"}'), 'InvalidColorFormat', 'Invalid color format: red');
  rejects(() => parseColormapParam('{"1":"#12345"}'), 'InvalidColorFormat', 'Invalid color format: #12345');
  rejects(() => parseColormapParam('{"1":[1,2,3,4,5]}'), 'InvalidColorFormat');
  rejects(() => parseColormapParam('{"1":[300,0,0]}'), 'InvalidColorFormat');
  rejects(() => parseColormapParam('{"1":[1.5,0,0]}'), 'InvalidColorFormat');
  rejects(() => parseColormapParam('{"1":7}'), 'InvalidColorFormat');
  rejects(() => parseColormapParam('[[[1,2],"#GGGGGG"]]'), 'InvalidColorFormat');
  // TiTiler answers 500 for these; we say what is wrong
  rejects(() => parseColormapParam('{"1.5":[0,0,0]}'), 'BadRequest', /keys must be integers/);
  rejects(() => parseColormapParam('{"a":[0,0,0]}'), 'BadRequest', /Invalid colormap key 'a'/);
  rejects(() => parseColormapParam('[[1,2,3]]'), 'BadRequest', /expected \[\[min, max\], color\]/);
  rejects(() => parseColormapParam('[5]'), 'BadRequest', /expected \[\[min, max\], color\]/);
  rejects(() => parseColormapParam('[[1,2]]'), 'BadRequest', /Invalid colormap interval 1/);
  rejects(() => parseColormapParam('[[["a",2],[0,0,0]]]'), 'BadRequest', /expected \[min, max\] numbers/);
});

test('colormapToJson: 256-entry maps as string-keyed dicts, intervals as lists', () => {
  const v = colormapToJson(getColormap('viridis')) as Record<string, number[]>;
  assert.equal(Object.keys(v).length, 256);
  assert.deepEqual(v['1'], [68, 2, 85, 255]);
  assert.deepEqual(Object.keys(v).slice(0, 3), ['0', '1', '2']);
  assert.deepEqual(colormapToJson(parseColormapParam('{"3":"#fff","-1":[1,2,3]}') as ColorMap), {
    '3': [255, 255, 255, 255],
    '-1': [1, 2, 3, 255],
  });
  assert.deepEqual(colormapToJson(parseColormapParam('[[[1,2],[0,0,0]]]') as ColorMap), [
    [
      [1, 2],
      [0, 0, 0, 255],
    ],
  ]);
});

test('legend images: 256×20 horizontal, 20×256 vertical, resized on request (TiTiler pins)', async () => {
  const h = legendImage(getColormap('viridis'));
  assert.equal(h.width, 256);
  assert.equal(h.height, 20);
  const png = decodePng((await renderImage(h, { format: 'png', returnMask: true })).body);
  assert.deepEqual([png.width, png.height, png.channels, png.depth], [256, 20, 4, 8]);
  assert.deepEqual(pixel(png, 1, 0), [68, 2, 85, 255]);
  assert.deepEqual(pixel(png, 255, 19), [253, 231, 36, 255]);

  const v = legendImage(getColormap('viridis'), { orientation: 'vertical' });
  assert.deepEqual([v.width, v.height], [20, 256]);
  const vp = decodePng((await renderImage(v, { format: 'png', returnMask: true })).body);
  assert.deepEqual(pixel(vp, 19, 1), [68, 2, 85, 255]);

  const big = legendImage(getColormap('viridis'), { width: 1000, height: 100 });
  assert.deepEqual([big.width, big.height], [1000, 100]);
  // nearest resize: column 999 samples entry floor(999.5 * 256 / 1000) = 255
  const bp = decodePng((await renderImage(big, { format: 'png', returnMask: true })).body);
  assert.deepEqual(pixel(bp, 999, 50), [253, 231, 36, 255]);
  assert.deepEqual(pixel(bp, 4, 50), [68, 2, 85, 255]);

  const jpeg = await renderImage(h, { format: 'jpeg', returnMask: true });
  assert.equal(jpeg.contentType, 'image/jpeg');
});

test('legend of a discrete map: one column per entry stretched to 256', () => {
  const c = parseColormapParam('{"1":[255,0,0],"2":[0,255,0,0],"9":[0,0,255]}') as ColorMap;
  const img = legendImage(c);
  assert.deepEqual([img.width, img.height], [256, 20]);
  const px = (x: number) => [img.bands[0][x], img.bands[1][x], img.bands[2][x], img.alpha![x]];
  assert.deepEqual(px(0), [255, 0, 0, 255]);
  assert.deepEqual(px(128), [0, 255, 0, 0]);
  assert.deepEqual(px(255), [0, 0, 255, 255]);
});
