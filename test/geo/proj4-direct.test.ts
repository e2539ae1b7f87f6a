/**
 * The allocation-free point path (src/geo/proj4-direct.ts) must give proj4js's own numbers: for
 * every pair it accepts, each point transforms to the same doubles as `proj4.transform` (bit for
 * bit, failures alike), and pairs with a datum step keep proj4js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crsFromDefinition, crsFromEpsg } from '../../src/geo/crs-registry.ts';
import { directTransform, isDirectPair } from '../../src/geo/proj4-direct.ts';
import { makeProj, transformOne } from '../../src/geo/proj4-lib.ts';

/** CRSs of the tile path: Web Mercator, geographic, UTM, Lambert, LAEA, polar stereographic, sinusoidal, feet. */
const CODES = [3857, 4326, 32632, 32615, 32735, 2154, 3035, 3413, 3031, 4269, 26915];
const EXTRA = [
  '+proj=sinu +lon_0=0 +x_0=0 +y_0=0 +R=6371007.181 +units=m +no_defs',
  '+proj=tmerc +lat_0=0 +lon_0=-99 +k=0.9996 +x_0=500000 +y_0=0 +datum=NAD83 +units=us-ft +no_defs',
];

/** Deterministic points: lon/lat over the globe, projected over ±2e7 m, and edge values. */
function points(geographic: boolean, n: number): Array<[number, number]> {
  let s = 12345;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const out: Array<[number, number]> = [
    [0, 0],
    [180, 90],
    [-180, -90],
    [NaN, 0],
    [Infinity, 1],
  ];
  for (let i = 0; i < n; i++) out.push(geographic ? [rnd() * 400 - 200, rnd() * 190 - 95] : [rnd() * 4e7 - 2e7, rnd() * 4e7 - 2e7]);
  return out;
}

test('the direct path gives proj4js.transform’s doubles for every pair it accepts', () => {
  const crss = [...CODES.map((c) => crsFromEpsg(c)), ...EXTRA.map((d) => crsFromDefinition(d))];
  let direct = 0;
  for (const a of crss) {
    for (const b of crss) {
      const src = makeProj(a.proj4);
      const dst = makeProj(b.proj4);
      if (!isDirectPair(src, dst)) continue;
      direct++;
      const gx = new Float64Array(2);
      const gy = new Float64Array(2);
      for (const [x, y] of points(a.isGeographic, 150)) {
        gx.fill(7);
        gy.fill(7);
        const okRef = transformOne(src, dst, x, y, gx, 0, gy);
        const ok = directTransform(src, dst, x, y, gx, 1, gy);
        const what = `${a.proj4} → ${b.proj4} at (${x}, ${y})`;
        assert.equal(ok, okRef, what);
        assert.ok(Object.is(gx[1], gx[0]) && Object.is(gy[1], gy[0]), `${what}: ${gx[1]}, ${gy[1]} vs proj4js ${gx[0]}, ${gy[0]}`);
      }
    }
  }
  assert.ok(direct >= 60, `${direct} pairs took the direct path`);
});

test('the tile path’s pairs are direct; pairs with a datum shift are not', () => {
  const p = (c: number): object => makeProj(crsFromEpsg(c).proj4);
  for (const [a, b] of [
    [3857, 4326],
    [4326, 3857],
    [3857, 32632],
    [32632, 3857],
    [3857, 2154],
  ])
    assert.ok(isDirectPair(p(a), p(b)), `${a} → ${b}`);
  const osgb = makeProj(crsFromEpsg(27700).proj4); // 7-parameter shift to WGS 84
  assert.equal(isDirectPair(osgb, p(4326)), false);
  assert.equal(isDirectPair(p(4326), osgb), false);
});
