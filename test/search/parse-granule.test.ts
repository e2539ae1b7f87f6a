import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Geometry } from '../../src/geo/geometry.ts';
import { footprintFromUmm, smallestLongitudeArc } from '../../src/search/footprint.ts';
import { parseGranule } from '../../src/search/parse-granule.ts';
import { loadRecording, recordingsAvailable } from '../helpers/cmr-replay.ts';
import { COLLECTION_ID, loadGranuleFixtures } from './granule-fixtures.ts';

const fixtures = loadGranuleFixtures();
const byId = (id: string) => fixtures.items.find((i) => i.meta['concept-id'] === id)!;

const geometry = (g: unknown) => ({ HorizontalSpatialDomain: { Geometry: g } });
const close = (a: number[], b: number[], tol: number, what: string) =>
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= tol, `${what}[${i}]: ${v} vs ${b[i]}`));

describe('parseGranule on the generated fixture records', () => {
  it('reads ids, temporal range, cloud cover and a GPolygon footprint', () => {
    const g = parseGranule(byId('G1000000001-RASTILE'));
    const exp = fixtures.expected['G1000000001-RASTILE']!;
    assert.equal(g.id, 'G1000000001-RASTILE', 'concept id');
    assert.equal(g.granuleUr, exp.granule_ur, 'granule_ur from meta.native-id');
    assert.equal(g.collectionConceptId, COLLECTION_ID, 'collection');
    assert.deepEqual(g.temporal, { start: '2024-05-01T10:00:00.000Z', end: '2024-05-01T10:00:30.000Z' }, 'RangeDateTime');
    assert.equal(g.cloudCover, 40, 'CloudCover');
    assert.equal(g.footprint?.type, 'Polygon', 'one GPolygon → Polygon');
    const ring = (g.footprint as Extract<Geometry, { type: 'Polygon' }>).coordinates[0]!;
    assert.equal(ring.length, 5, 'closed ring of 4 corners');
    assert.deepEqual(ring[0], ring[4], 'closed');
    close(g.bbox!, exp.footprint_envelope, 1e-12, 'bbox = envelope of the corners');
    // GDAL's densified WGS84 bounds agree with the corner envelope to ~1e-5° for a 4 km UTM granule.
    close(g.bbox!, exp.bounds_4326, 1e-4, 'bbox vs transform_bounds');
    assert.equal(g.umm['GranuleUR'], exp.granule_ur, 'raw UMM kept');
  });
  it('reads a BoundingRectangle footprint', () => {
    const g = parseGranule(byId('G1000000003-RASTILE'));
    assert.equal(g.footprint?.type, 'Polygon', 'rectangle → Polygon');
    assert.deepEqual(g.bbox, fixtures.expected['G1000000003-RASTILE']!.bounds_4326, 'bbox = the rectangle (GDAL transform_bounds)');
  });
  it('cuts the antimeridian granule into two pieces and reports west > east', () => {
    const g = parseGranule(byId('G1000000005-RASTILE'));
    const exp = fixtures.expected['G1000000005-RASTILE']!;
    assert.equal(g.footprint?.type, 'MultiPolygon', 'two pieces');
    const pieces = (g.footprint as Extract<Geometry, { type: 'MultiPolygon' }>).coordinates;
    assert.equal(pieces.length, 2, 'east and west pieces');
    const lons = pieces.map((p) => p[0]!.map((q) => q[0]!));
    assert.ok(lons[0]!.every((x) => x >= 179 && x <= 180) || lons[0]!.every((x) => x >= -180 && x <= -179), 'first piece on one side');
    assert.ok(
      pieces.every((p) => p[0]!.every((q) => q[0]! >= -180 && q[0]! <= 180)),
      'all longitudes in [-180, 180]',
    );
    assert.ok(lons.flat().includes(180) && lons.flat().includes(-180), 'cut at ±180');
    close(g.bbox!, exp.footprint_envelope, 1e-12, 'envelope west > east');
    assert.ok(g.bbox![0] > g.bbox![2], 'west > east');
    close(g.bbox!, exp.bounds_4326, 1e-2, 'close to GDAL transform_bounds across the antimeridian');
    assert.deepEqual(g.temporal, { start: '2024-05-02T22:00:00.000Z', end: '2024-05-02T22:00:00.000Z' }, 'SingleDateTime → start = end');
  });
  it('a repeat pass has the same footprint', () => {
    assert.deepEqual(parseGranule(byId('G1000000004-RASTILE')).footprint, parseGranule(byId('G1000000001-RASTILE')).footprint, 'G4 = G1');
  });
});

describe('footprintFromUmm', () => {
  it('BoundingRectangles with West > East become two pieces', () => {
    const f = footprintFromUmm(
      geometry({
        BoundingRectangles: [{ WestBoundingCoordinate: 170, EastBoundingCoordinate: -170, SouthBoundingCoordinate: -10, NorthBoundingCoordinate: 10 }],
      }),
    );
    assert.deepEqual(
      f.geometry,
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [170, -10],
              [180, -10],
              [180, 10],
              [170, 10],
              [170, -10],
            ],
          ],
          [
            [
              [-180, -10],
              [-170, -10],
              [-170, 10],
              [-180, 10],
              [-180, -10],
            ],
          ],
        ],
      },
      'split at the antimeridian',
    );
    assert.deepEqual(f.bbox, [170, -10, -170, 10], 'bbox crosses');
  });
  it('a ring around the north pole is closed over the pole', () => {
    const points = [0, 90, 180, -90].map((lon) => ({ Longitude: lon, Latitude: 80 }));
    const f = footprintFromUmm(geometry({ GPolygons: [{ Boundary: { Points: [...points, points[0]] } }] }));
    assert.equal(f.geometry?.type, 'MultiPolygon', 'cut at ±180');
    assert.deepEqual(f.bbox, [-180, 80, 180, 90], 'all longitudes, up to the pole');
  });
  it('an unclosed GPolygon ring is closed; Points give a MultiPoint; Lines give nothing', () => {
    const f = footprintFromUmm(
      geometry({
        GPolygons: [
          {
            Boundary: {
              Points: [
                { Longitude: 0, Latitude: 0 },
                { Longitude: 1, Latitude: 0 },
                { Longitude: 1, Latitude: 1 },
              ],
            },
          },
        ],
      }),
    );
    assert.deepEqual(
      f.geometry,
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      'closed',
    );
    const p = footprintFromUmm(
      geometry({
        Points: [
          { Longitude: 5, Latitude: 6 },
          { Longitude: 7, Latitude: 8 },
        ],
      }),
    );
    assert.deepEqual(
      p,
      {
        geometry: {
          type: 'MultiPoint',
          coordinates: [
            [5, 6],
            [7, 8],
          ],
        },
        bbox: [5, 6, 7, 8],
      },
      'points',
    );
    assert.deepEqual(footprintFromUmm(geometry({ Lines: [{ Points: [] }] })), { geometry: null, bbox: null }, 'lines');
    assert.deepEqual(footprintFromUmm(undefined), { geometry: null, bbox: null }, 'no spatial extent');
  });
  it('a GPolygon drawn as the planar world box (edge from -180 to 180) is kept as drawn', () => {
    const pts = [
      [-180, -90],
      [180, -90],
      [180, 90],
      [-180, 90],
      [-180, -90],
    ].map(([Longitude, Latitude]) => ({ Longitude, Latitude }));
    const f = footprintFromUmm(geometry({ GPolygons: [{ Boundary: { Points: pts } }] }));
    assert.deepEqual(f.bbox, [-180, -90, 180, 90], 'whole world');
  });
  it('smallestLongitudeArc picks the largest gap', () => {
    assert.deepEqual(
      smallestLongitudeArc([
        [10, 20],
        [-30, -20],
      ]),
      [-30, 20],
      'normal',
    );
    assert.deepEqual(
      smallestLongitudeArc([
        [170, 180],
        [-180, -170],
      ]),
      [170, -170],
      'across the antimeridian',
    );
    assert.deepEqual(
      smallestLongitudeArc([
        [-180, 0],
        [0, 180],
      ]),
      [-180, 180],
      'everything',
    );
  });
});

describe('parseGranule on recorded CMR items', { skip: !recordingsAvailable() && 'no ../shared/fixtures/cmr' }, () => {
  it('HLS (GPolygon, CLOUD_COVERAGE attribute)', () => {
    const items = (
      loadRecording('test_rasterio_backend/test_rasterio_part')[0]!.response.body as {
        items: Array<{ meta: Record<string, unknown>; umm: Record<string, unknown> }>;
      }
    ).items;
    const g = parseGranule(items[0]!);
    assert.equal(g.id, 'G3263856929-LPCLOUD', 'concept id');
    assert.equal(g.granuleUr, 'HLS.L30.T15UWP.2024283T165135.v2.0', 'granule_ur');
    assert.equal(g.collectionConceptId, 'C2021957657-LPCLOUD', 'collection');
    assert.deepEqual(g.temporal, { start: '2024-10-09T16:51:35.011Z', end: '2024-10-09T16:51:58.902Z' }, 'temporal');
    assert.equal(g.cloudCover, 0, 'CLOUD_COVERAGE attribute "0"');
    assert.deepEqual(g.bbox, [-92.09031812, 47.75581865, -91.50673052, 48.74595922], 'bbox of the 4 corners');
    assert.deepEqual((g.footprint as Extract<Geometry, { type: 'Polygon' }>).coordinates[0]![1], [-91.50673052, 48.74333722], 'points in given order');
  });
  it('GAMSSA (global BoundingRectangle, no cloud cover)', () => {
    const items = (
      loadRecording('test_xarray_backend/test_xarray_part')[0]!.response.body as {
        items: Array<{ meta: Record<string, unknown>; umm: Record<string, unknown> }>;
      }
    ).items;
    const g = parseGranule(items[0]!);
    assert.equal(g.granuleUr, '20241011120000-ABOM-L4_GHRSST-SSTfnd-GAMSSA_28km-GLOB-v02.0-fv01.0', 'granule_ur');
    assert.deepEqual(g.bbox, [-179.875, -89.875, 179.875, 89.875], 'rectangle');
    assert.equal(g.cloudCover, null, 'no cloud cover');
    assert.deepEqual(g.temporal, { start: '2024-10-11T00:00:00.000Z', end: '2024-10-12T00:00:00.000Z' }, 'temporal');
  });
});
