import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Bounds } from '../../src/geo/bounds.ts';
import type { Geometry } from '../../src/geo/geometry.ts';
import { CoverageTracker, grownBox, isCovered, pointInFootprint, pointInRing, type CoverageArea } from '../../src/search/coverage.ts';
import { footprintKey, sameFootprint } from '../../src/search/footprint-key.ts';
import { boxRing } from '../../src/search/footprint.ts';
import { GRANULE_FIXTURES } from './granule-fixtures.ts';

const box = (w: number, s: number, e: number, n: number): Geometry => ({ type: 'Polygon', coordinates: [boxRing(w, s, e, n)] });

/** titiler-cmr's `_is_fully_covered` on one granule: a fresh tracker, one footprint. */
function coveredBy(area: CoverageArea, tolerance: number, ...footprints: Array<Geometry | null>): boolean {
  const t = new CoverageTracker(area, tolerance);
  let done = false;
  for (const f of footprints) done = t.add(f);
  return done;
}

const unit: CoverageArea = { kind: 'boxes', boxes: [[0, 0, 1, 1]] };

describe('coverage: titiler-cmr TestIsFullyCovered pins (§4.4)', () => {
  it('a granule without geometry never covers', () => {
    assert.equal(coveredBy(unit, 0, null), false, 'no footprint → not covered');
  });
  it('a granule equal to the tile covers it', () => {
    assert.equal(coveredBy(unit, 0, box(0, 0, 1, 1)), true, 'exact coverage');
  });
  it('an overshooting granule covers it, with or without tolerance 0.01', () => {
    assert.equal(coveredBy(unit, 0, box(-0.1, -0.1, 1.1, 1.1)), true, 'overshoot 0.1, tolerance 0');
    assert.equal(coveredBy(unit, 0.01, box(-0.1, -0.1, 1.1, 1.1)), true, 'overshoot 0.1, tolerance 0.01');
  });
  it('a partial granule does not cover it', () => {
    assert.equal(coveredBy(unit, 0, box(0, 0, 0.5, 1)), false, 'half the tile');
  });
  it('overshooting by 0.001 covers with tolerance 0 but not with 0.01', () => {
    assert.equal(coveredBy(unit, 0, box(0, 0, 1.001, 1)), true, 'tolerance 0');
    assert.equal(coveredBy(unit, 0.01, box(0, 0, 1.001, 1)), false, 'tolerance 0.01');
  });
  it('coverage accumulates over granules', () => {
    const t = new CoverageTracker(unit, 0);
    assert.equal(t.add(box(0, 0, 0.5, 1)), false, 'first half');
    assert.equal(t.covered, false, 'not yet covered');
    assert.equal(t.add(box(0.5, 0, 1, 1)), true, 'second half closes the seam');
    assert.equal(t.covered, true, 'covered stays true');
  });
});

describe('coverage: exact test', () => {
  it('finds a sliver gap that no sample point falls into', () => {
    assert.equal(coveredBy(unit, 0, box(0, 0, 0.3, 1), box(0.3001, 0, 1, 1)), false, 'gap of 1e-4 between x=0.3 and 0.3001');
    assert.equal(coveredBy(unit, 0, box(0, 0, 0.3, 1), box(0.3001, 0, 1, 1), box(0.29, 0.4, 0.31, 0.6)), false, 'gap partly patched');
    assert.equal(coveredBy(unit, 0, box(0, 0, 0.3, 1), box(0.3001, 0, 1, 1), box(0.29, -1, 0.31, 2)), true, 'gap patched');
  });
  it('handles slanted edges: two triangles make the square', () => {
    const lower: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    const upper: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    assert.equal(coveredBy(unit, 0, lower), false, 'one triangle');
    assert.equal(coveredBy(unit, 0, lower, upper), true, 'both triangles');
  });
  it('grown area has rounded corners (shapely buffer), not mitred ones', () => {
    // An octagon: the unit square grown by 0.01 with its corners cut along x ± y = const. It holds the
    // rounded corners (arc points reach 0.01/√2 diagonally) but not the square's mitred corners.
    const octagon: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [-0.0045, -0.01],
          [1.0045, -0.01],
          [1.01, -0.0045],
          [1.01, 1.0045],
          [1.0045, 1.01],
          [-0.0045, 1.01],
          [-0.01, 1.0045],
          [-0.01, -0.0045],
          [-0.0045, -0.01],
        ],
      ],
    };
    assert.equal(coveredBy(unit, 0.01, octagon), true, 'rounded corners fit inside the octagon');
    assert.equal(coveredBy(unit, 0.011, octagon), false, 'a larger tolerance does not');
    assert.equal(coveredBy(unit, 0.01, box(-0.008, -0.008, 1.008, 1.008)), false, 'edges must reach the full tolerance');
    const ring = grownBox([0, 0, 1, 1], 0.01);
    assert.equal(ring.length, 4 * 17 + 1, 'four quarter circles of 16 segments, closed (as GEOS buffer(t, 16))');
  });
  it('point areas: inside, on the edge, and grown by the tolerance', () => {
    const p: CoverageArea = { kind: 'point', lon: 0.5, lat: 0.5 };
    assert.equal(coveredBy(p, 0, box(0, 0, 1, 1)), true, 'inside');
    const edge: CoverageArea = { kind: 'point', lon: 1, lat: 0.5 };
    assert.equal(coveredBy(edge, 0, box(0, 0, 1, 1)), true, 'on the boundary counts (covered_by)');
    assert.equal(coveredBy(edge, 0.01, box(0, 0, 1, 1)), false, 'grown point sticks out');
    assert.equal(coveredBy(edge, 0.01, box(0, 0, 1, 1), box(1, 0, 2, 1)), true, 'neighbour closes it');
  });
  it('degenerate boxes (segments) are tested along their length', () => {
    const seg: CoverageArea = { kind: 'boxes', boxes: [[0.2, 0.5, 0.8, 0.5]] };
    assert.equal(coveredBy(seg, 0, box(0, 0, 0.5, 1)), false, 'half the segment');
    assert.equal(coveredBy(seg, 0, box(0, 0, 0.5, 1), box(0.5, 0, 1, 1)), true, 'both halves');
    assert.equal(coveredBy(seg, 0, box(0, 0, 0.5, 1), box(0.51, 0, 1, 1)), false, 'gap');
  });
  it('granule points and lines cover nothing', () => {
    assert.equal(coveredBy({ kind: 'point', lon: 1, lat: 1 }, 0, { type: 'Point', coordinates: [1, 1] }), false, 'a point footprint');
  });
});

describe('coverage: antimeridian', () => {
  // A footprint from 179.5°E to 179.5°W, cut at ±180 as footprint.ts does.
  const crossing: Geometry = {
    type: 'MultiPolygon',
    coordinates: [[boxRing(179.5, -1, 180, 1)], [boxRing(-180, -1, -179.5, 1)]],
  };
  const pieces: Bounds[] = [
    [179.8, -0.5, 180, 0.5],
    [-180, -0.5, -179.8, 0.5],
  ];
  it('covers an area split at the antimeridian, also when grown past ±180', () => {
    assert.equal(coveredBy({ kind: 'boxes', boxes: pieces }, 0, crossing), true, 'tolerance 0');
    assert.equal(coveredBy({ kind: 'boxes', boxes: pieces }, 0.01, crossing), true, 'tolerance 0.01 spills past ±180 onto the other piece');
    assert.equal(coveredBy({ kind: 'boxes', boxes: [[-180, -0.5, -179.4, 0.5]] }, 0, crossing), false, 'beyond the footprint');
  });
  it('a tile ending at 180 grown by the tolerance needs data west of -180', () => {
    const tile: CoverageArea = { kind: 'boxes', boxes: [[179, -0.5, 180, 0.5]] };
    assert.equal(coveredBy(tile, 0.01, box(178, -1, 180, 1)), false, 'nothing beyond 180');
    assert.equal(coveredBy(tile, 0.01, box(178, -1, 180, 1), box(-180, -1, -179, 1)), true, 'the western piece counts shifted by 360');
  });
  it('pointInFootprint tests both pieces and the ±360 copies', () => {
    assert.equal(pointInFootprint(179.9, 0, crossing), true, 'east piece');
    assert.equal(pointInFootprint(-179.9, 0, crossing), true, 'west piece');
    assert.equal(pointInFootprint(179.4, 0, crossing), false, 'outside');
    assert.equal(pointInFootprint(180, 0, crossing), true, 'on the cut');
  });
});

describe('coverage: helpers', () => {
  it('pointInRing counts the boundary as inside', () => {
    const ring = boxRing(0, 0, 1, 1);
    assert.equal(pointInRing(0, 0.5, ring), true, 'west edge');
    assert.equal(pointInRing(1, 1, ring), true, 'corner');
    assert.equal(pointInRing(1.0001, 0.5, ring), false, 'just outside');
  });
  it('sameFootprint ignores the start vertex, the direction and polygon order', () => {
    const a: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    const rotated: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [1, 1],
          [0, 1],
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      ],
    };
    const reversed: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
          [0, 0],
        ],
      ],
    };
    assert.equal(sameFootprint(a, rotated), true, 'rotation');
    assert.equal(sameFootprint(a, reversed), true, 'direction');
    assert.equal(sameFootprint(a, box(0, 0, 1, 1.0001)), false, 'different vertex');
    assert.equal(sameFootprint(null, null), false, 'no footprint is never a duplicate');
    const m1: Geometry = { type: 'MultiPolygon', coordinates: [[boxRing(0, 0, 1, 1)], [boxRing(2, 0, 3, 1)]] };
    const m2: Geometry = { type: 'MultiPolygon', coordinates: [[boxRing(2, 0, 3, 1)], [boxRing(0, 0, 1, 1)]] };
    assert.equal(sameFootprint(m1, m2), true, 'polygon order');
  });
  it('footprintKey: equal exactly when the rings are the same cyclic sequence in either direction (brute force)', () => {
    // Rings over a 3-value alphabet (many ties and periodic rings): the key must equal the brute-force
    // canonical form (least joined text over every rotation of both directions), which sameFootprint used.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const bruteKey = (open: number[][]): string => {
      const texts = open.map((p) => `${p[0]},${p[1]}`);
      const all: string[] = [];
      for (const seq of [texts, [...texts].reverse()]) {
        for (let i = 0; i < seq.length; i++) all.push([...seq.slice(i), ...seq.slice(0, i)].join(';'));
      }
      return all.sort()[0]!;
    };
    const polygon = (open: number[][]): Geometry => ({ type: 'Polygon', coordinates: [[...open, open[0]!]] });
    const rings = Array.from({ length: 300 }, () => Array.from({ length: 1 + rand(8) }, () => [rand(3), rand(2)]));
    const keys = rings.map((r) => footprintKey(polygon(r)));
    const brute = rings.map(bruteKey);
    for (let a = 0; a < rings.length; a++) {
      const r = rings[a]!;
      const start = rand(r.length);
      const rotated = [...r.slice(start), ...r.slice(0, start)];
      assert.equal(footprintKey(polygon(rotated)), keys[a], `ring ${a} rotated by ${start}`);
      assert.equal(footprintKey(polygon([...rotated].reverse())), keys[a], `ring ${a} reversed`);
      for (let b = 0; b < a; b++) {
        assert.equal(keys[a] === keys[b], brute[a] === brute[b], `rings ${a} and ${b}: ${JSON.stringify(r)} vs ${JSON.stringify(rings[b])}`);
      }
    }
  });
  it('isCovered with no rings is false', () => {
    assert.equal(isCovered([boxRing(0, 0, 1, 1)], []), false, 'nothing covers');
  });
});

describe('coverage: GEOS oracle (scripts/fixtures/granules.py → coverage-oracle.json)', () => {
  interface OracleCase {
    area: number[];
    tolerance: number;
    footprints: Array<number[][] | null>;
    taken: number;
  }
  const oracle = JSON.parse(readFileSync(path.join(GRANULE_FIXTURES, 'coverage-oracle.json'), 'utf8')) as { random: OracleCase[]; granules: OracleCase[] };

  /** titiler-cmr's loop: granules taken before the area (grown by the tolerance) is covered. */
  function taken(c: OracleCase): number {
    const area: CoverageArea = c.area.length === 2 ? { kind: 'point', lon: c.area[0]!, lat: c.area[1]! } : { kind: 'boxes', boxes: [c.area as Bounds] };
    const tracker = new CoverageTracker(area, c.tolerance);
    for (let i = 0; i < c.footprints.length; i++) {
      const ring = c.footprints[i];
      if (tracker.add(ring === null || ring === undefined ? null : { type: 'Polygon', coordinates: [ring] })) return i + 1;
    }
    return c.footprints.length;
  }

  it('agrees with GEOS on 80 random searches (boxes and points, tolerances 0, 0.005, 0.02)', () => {
    oracle.random.forEach((c, i) => assert.equal(taken(c), c.taken, `case ${i}: area ${JSON.stringify(c.area)}, tolerance ${c.tolerance}`));
  });
  it('agrees with GEOS on boxes over the fixture granules G1..G4', () => {
    oracle.granules.forEach((c, i) => assert.equal(taken(c), c.taken, `case ${i}: area ${JSON.stringify(c.area)}, tolerance ${c.tolerance}`));
  });
});

describe('grownBox with a tolerance below float resolution (found by the API fuzzer)', () => {
  it('grows nothing instead of returning a broken ring', () => {
    assert.deepEqual(grownBox([-75.5, 46.04, -75.5, 46.04], 2e-323), grownBox([-75.5, 46.04, -75.5, 46.04], 0));
    const tracker = new CoverageTracker({ kind: 'point', lon: -75.5, lat: 46.04 }, 2e-323);
    assert.equal(tracker.covered, false);
  });
});
