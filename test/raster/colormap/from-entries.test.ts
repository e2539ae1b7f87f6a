/** One value→colour map builder for `colormap` dicts and dataset palettes, cached per Map. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colormapFromEntries, parseColormapParam } from '../../../src/raster/colormap/index.ts';
import type { Rgba } from '../../../src/raster/image-data.ts';

function palette(keys: number[]): Map<number, Rgba> {
  return new Map(keys.map((k) => [k, [k & 255, 1, 2, 255] as Rgba]));
}

test('256 integer keys 0..255 give a LUT; anything else a discrete map', () => {
  const full = colormapFromEntries(palette(Array.from({ length: 256 }, (_, k) => k)));
  assert.equal(full.kind, 'lut');
  if (full.kind === 'lut') assert.deepEqual([...full.table.subarray(4 * 7, 4 * 8)], [7, 1, 2, 255]);
  assert.equal(colormapFromEntries(palette([0, 1, 2])).kind, 'discrete');
  assert.equal(colormapFromEntries(palette(Array.from({ length: 256 }, (_, k) => k + 1))).kind, 'discrete'); // key 256
  assert.equal(colormapFromEntries(palette(Array.from({ length: 256 }, (_, k) => (k === 9 ? 9.5 : k)))).kind, 'discrete');
});

test('the colormap of a palette Map is built once', () => {
  const p = palette(Array.from({ length: 256 }, (_, k) => k));
  assert.equal(colormapFromEntries(p), colormapFromEntries(p));
  assert.notEqual(colormapFromEntries(p), colormapFromEntries(new Map(p)));
});

test('the colormap parameter builds its dict the same way', () => {
  const dict = Object.fromEntries(Array.from({ length: 256 }, (_, k) => [String(k), [k, 1, 2]]));
  const lut = parseColormapParam(JSON.stringify(dict));
  assert.equal(lut?.kind, 'lut');
  const discrete = parseColormapParam('{"1": "#ff0000", "300": [0, 0, 255]}');
  assert.equal(discrete?.kind, 'discrete');
  if (discrete?.kind === 'discrete')
    assert.deepEqual(
      [...discrete.entries],
      [
        [1, [255, 0, 0, 255]],
        [300, [0, 0, 255, 255]],
      ],
    );
});
