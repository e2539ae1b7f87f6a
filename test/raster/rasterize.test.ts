import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageFractions, rasterizeAllTouched, type PixelGeometry } from '../../src/raster/rasterize.ts';
import { loadArray, loadJson, type ArrayRef } from './fixture-data.ts';

interface Case {
  name: string;
  geometry: { polygons: number[][][]; lines: number[][]; points: number[] };
  width: number;
  height: number;
  allTouched: ArrayRef;
  coverage: Record<string, ArrayRef>;
}

const { cases } = loadJson<{ cases: Case[] }>('rasterize.json');

function toGeometry(g: Case['geometry']): PixelGeometry {
  return {
    polygons: g.polygons.map((p) => p.map((r) => Float64Array.from(r))),
    lines: g.lines.map((l) => Float64Array.from(l)),
    points: Float64Array.from(g.points),
  };
}

function diffCells(a: ArrayLike<number>, b: ArrayLike<number>, width: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(`(row ${Math.floor(i / width)}, col ${i % width}): ${a[i]} vs ${b[i]}`);
  return out;
}

for (const c of cases) {
  test(`rasterizeAllTouched matches rasterio: ${c.name}`, () => {
    const expected = loadArray(c.allTouched);
    const got = rasterizeAllTouched(toGeometry(c.geometry), c.width, c.height);
    const want = Uint8Array.from(expected, (v) => (v ? 255 : 0));
    assert.deepEqual(diffCells(got, want, c.width), []);
  });
  for (const [s, ref] of Object.entries(c.coverage)) {
    test(`coverageFractions matches rio-tiler recipe: ${c.name}, cover_scale ${s}`, () => {
      // the fixture stores burnt fine cells per pixel; rio-tiler's value is float32(count) / s²
      const expected = Float32Array.from(loadArray(ref), (v) => v / (Number(s) * Number(s)));
      const got = coverageFractions(toGeometry(c.geometry), c.width, c.height, Number(s));
      assert.deepEqual(diffCells(got, expected, c.width), []);
    });
  }
}

const poly = (...rings: number[][]): PixelGeometry => ({ polygons: [rings.map((r) => Float64Array.from(r))], lines: [], points: new Float64Array(0) });

test('open rings are closed like OGR rings', () => {
  const open = poly([1.3, 1.2, 6.7, 2.1, 4.2, 7.9]);
  const closed = poly([1.3, 1.2, 6.7, 2.1, 4.2, 7.9, 1.3, 1.2]);
  assert.deepEqual(rasterizeAllTouched(open, 10, 10), rasterizeAllTouched(closed, 10, 10));
});

test('pixel-aligned square burns only its interior (GDAL skips on-grid edges)', () => {
  const m = rasterizeAllTouched(poly([1, 1, 3, 1, 3, 3, 1, 3, 1, 1]), 5, 5);
  const cells = [...m.keys()].filter((i) => m[i] === 255);
  assert.deepEqual(cells, [6, 7, 11, 12]);
});

test('coverage of an axis-aligned rectangle is its exact area per cell', () => {
  // x 1.25..3.5, y 0.5..2 on a 4x3 grid, cover_scale 4 resolves quarter pixels exactly
  const c = coverageFractions(poly([1.25, 0.5, 3.5, 0.5, 3.5, 2, 1.25, 2, 1.25, 0.5]), 4, 3, 4);
  assert.deepEqual(Array.from(c), [0, 0.375, 0.5, 0.25, 0, 0.75, 1, 0.5, 0, 0, 0, 0]); // same as rasterio
});

test('cover_scale 1 equals the all-touched mask', () => {
  const g = poly([0.3, 0.2, 8.7, 1.1, 5.2, 9.4]);
  const mask = rasterizeAllTouched(g, 10, 10);
  const cov = coverageFractions(g, 10, 10, 1);
  assert.deepEqual(
    Array.from(cov),
    Array.from(mask, (v) => v / 255),
  );
});

test('geometry far outside, huge or non-finite coordinates terminate and burn nothing outside', () => {
  const far = poly([1e300, 1e300, 2e300, 1e300, 2e300, 2e300]);
  assert.equal(
    rasterizeAllTouched(far, 8, 8).reduce((a, b) => a + b, 0),
    0,
  );
  const huge = poly([-1e300, -1e300, 1e300, -1e300, 1e300, 1e300, -1e300, 1e300]);
  assert.ok(rasterizeAllTouched(huge, 8, 8).every((v) => v === 255));
  const bad = poly([0, 0, NaN, 3, 5, Infinity, 4, 4]);
  rasterizeAllTouched(bad, 8, 8);
  const steep: PixelGeometry = { polygons: [], lines: [Float64Array.from([1.0, 0.5, 1.02, 1e12])], points: new Float64Array(0) };
  const m = rasterizeAllTouched(steep, 4, 4);
  assert.deepEqual(
    [...m.keys()].filter((i) => m[i]),
    [1, 5, 9, 13],
  );
});

test('empty geometry gives an empty mask', () => {
  const g: PixelGeometry = { polygons: [], lines: [], points: new Float64Array(0) };
  assert.equal(
    rasterizeAllTouched(g, 3, 3).reduce((a, b) => a + b, 0),
    0,
  );
  assert.equal(
    coverageFractions(g, 3, 3, 10).reduce((a, b) => a + b, 0),
    0,
  );
});
