import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  IMAGE_FORMATS,
  InvalidColorFormula,
  isImageFormat,
  isProblemText,
  mediaType,
  parseColorFormula,
  parseRescale,
} from '../../../src/raster/render/index.ts';

test('image formats in TiTiler ImageType order, with their media types', () => {
  assert.deepEqual([...IMAGE_FORMATS], ['png', 'npy', 'tif', 'tiff', 'jpeg', 'jpg', 'jp2', 'webp', 'pngraw']);
  assert.deepEqual(IMAGE_FORMATS.map(mediaType), [
    'image/png',
    'application/x-binary',
    'image/tiff; application=geotiff',
    'image/tiff; application=geotiff',
    'image/jpeg',
    'image/jpg',
    'image/jp2',
    'image/webp',
    'image/png',
  ]);
  assert.ok(isImageFormat('webp'));
  assert.ok(!isImageFormat('gif'));
});

test('rescale: TiTiler pins', () => {
  assert.deepEqual(parseRescale(['0,1']), [[0, 1]]);
  assert.deepEqual(parseRescale(['[0, 1]']), [[0, 1]]);
  assert.deepEqual(parseRescale(['[0,1000]', '0,2000', ' -1.5e3 , 1E+05 ']), [
    [0, 1000],
    [0, 2000],
    [-1500, 100000],
  ]);
  assert.deepEqual(parseRescale(['-3.4028235e+38,inf']), [[-3.4028235e38, Infinity]]);
  assert.deepEqual(parseRescale(['|0|,|1_000|']), [[0, 1000]]);
  assert.deepEqual(parseRescale(['.5,1.']), [[0.5, 1]]);
  const nan = parseRescale(['nan,-Infinity']) as Array<[number, number]>;
  assert.ok(Number.isNaN(nan[0][0]));
  assert.equal(nan[0][1], -Infinity);
  assert.deepEqual(parseRescale([]), []);
});

test('rescale: invalid values become a 422 problem text', () => {
  // `[0,1]` sent as two values `[0` and `1]` is one number each: invalid
  for (const bad of [['0'], ['[0', '1]'], ['0,1,2'], ['a,b'], ['not a number'], [''], ['0,'], ['1__0,2'], ['_1,2'], ['0x10,1']]) {
    const r = parseRescale(bad);
    assert.ok(isProblemText(r), JSON.stringify(bad));
    assert.equal(r.problem, 'invalid rescale format');
  }
});

test('color formula grammar (color-operations parse_operations)', () => {
  assert.deepEqual(parseColorFormula('Gamma RGB 3').ops, [{ op: 'gamma', bands: [1, 2, 3], g: 3 }]);
  assert.deepEqual(parseColorFormula('sigmoidal RGB 10 0.15').ops, [{ op: 'sigmoidal', bands: [1, 2, 3], contrast: 10, bias: 0.15 }]);
  assert.deepEqual(parseColorFormula('Saturation 1.2').ops, [{ op: 'saturation', proportion: 1.2 }]);
  assert.deepEqual(parseColorFormula('gamma G 1.05, gamma b 1.1, sigmoidal rgb 20 0.35, saturation 1.2').ops, [
    { op: 'gamma', bands: [2], g: 1.05 },
    { op: 'gamma', bands: [3], g: 1.1 },
    { op: 'sigmoidal', bands: [1, 2, 3], contrast: 20, bias: 0.35 },
    { op: 'saturation', proportion: 1.2 },
  ]);
  assert.deepEqual(parseColorFormula('GAMMA 31 2 99').ops, [{ op: 'gamma', bands: [3, 1], g: 2 }]);
  assert.deepEqual(parseColorFormula('sigmoidal rr -3 0').ops, [{ op: 'sigmoidal', bands: [1], contrast: -3, bias: 0 }]);
  assert.equal(parseColorFormula('gamma r 2').text, 'gamma r 2');
});

test('invalid color formulas throw InvalidColorFormula (→ 422 "invalid color formula")', () => {
  const bad = [
    '',
    ' gamma rgb 3',
    'gamma  rgb 3',
    'gama rgb 3',
    'gamma rgb',
    'gamma rgb x',
    'gamma rgba 3',
    'gamma 4 3',
    'gamma 0 3',
    'gamma rgb 0',
    'gamma rgb -1',
    'gamma rgb nan',
    'sigmoidal rgb 10',
    'sigmoidal rgb 10 1.5',
    'sigmoidal rgb 10 -0.1',
    'saturation',
    'saturation x',
    'rgb 3',
  ];
  for (const text of bad) {
    assert.throws(
      () => parseColorFormula(text),
      (e: unknown) => e instanceof InvalidColorFormula && e.problem === 'invalid color formula',
      JSON.stringify(text),
    );
  }
});
