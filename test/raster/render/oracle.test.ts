/** Pipeline steps against numpy re-implementations of rio-tiler / color-operations (render_oracle.py). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyColormap } from '../../../src/raster/colormap/apply.ts';
import { getColormap } from '../../../src/raster/colormap/named.ts';
import { parseColormapParam } from '../../../src/raster/colormap/parse.ts';
import type { ColorMap } from '../../../src/raster/colormap/types.ts';
import type { TypedArray } from '../../../src/dtype.ts';
import { castUint8 } from '../../../src/raster/numpy-cast.ts';
import { applyColorFormula } from '../../../src/raster/render/color-formula-apply.ts';
import { parseColorFormula } from '../../../src/raster/render/color-formula-parse.ts';
import { rangeForBand, rescaleBand } from '../../../src/raster/render/rescale.ts';
import { loadArray, num, oracle } from './fixtures.ts';

function mismatches(actual: ArrayLike<number>, expected: ArrayLike<number>): number[] {
  assert.equal(actual.length, expected.length);
  const bad: number[] = [];
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) bad.push(i);
  return bad;
}

test('castUint8 matches numpy astype(uint8) on x86-64', () => {
  const got = oracle.casts.inputs.map((v) => castUint8(num(v)));
  assert.deepEqual(got, oracle.casts.uint8);
});

for (const c of oracle.rescale) {
  test(`rescale ${c.name} (${c.dtype}) equals rio-tiler rescale_image`, () => {
    const ranges = c.ranges.map(([a, b]) => [num(a), num(b)] as [number, number]);
    c.bands.forEach((ref, k) => {
      const out = rescaleBand(loadArray(ref), loadArray(c.masks[k]) as Uint8Array, rangeForBand(ranges, k, c.bands.length));
      assert.deepEqual(mismatches(out, loadArray(c.expected[k])), [], `band ${k}`);
    });
  });
}

for (const c of oracle.colormaps) {
  test(`colormap ${c.name} equals rio-tiler apply_cmap`, () => {
    const cmap: ColorMap | Uint8Array = c.colormap_name ? getColormap(c.colormap_name) : (parseColormapParam(JSON.stringify(c.colormap)) as ColorMap);
    assert.equal(cmap instanceof Uint8Array ? 'lut' : cmap.kind, c.kind);
    const values = loadArray(c.values);
    const { rgba } = applyColormap(values, loadArray(c.mask) as Uint8Array, cmap);
    const n = values.length;
    assert.deepEqual(mismatches(rgba.subarray(0, 3 * n), loadArray(c.expected_rgb)), []);
    assert.deepEqual(mismatches(rgba.subarray(3 * n), loadArray(c.expected_alpha)), []);
  });
}

for (const c of oracle.formulas) {
  test(`color formula "${c.formula}" equals color-operations`, () => {
    const bands = c.bands.map(loadArray) as TypedArray[];
    const out = applyColorFormula(bands, c.dtype, parseColorFormula(c.formula));
    out.forEach((b, k) => {
      const expected = loadArray(c.expected[k]);
      const bad = mismatches(b, expected);
      // Math.pow/exp may differ from libm by an ulp, which can flip a truncation: allow ±1 on
      // a few samples, nothing more.
      assert.ok(bad.length <= 2, `band ${k}: ${bad.length} samples differ`);
      for (const i of bad) assert.ok(Math.abs(b[i] - expected[i]) <= 1, `band ${k} sample ${i}: ${b[i]} vs ${expected[i]}`);
    });
  });
}
