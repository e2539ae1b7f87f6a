/** fast-check arbitraries of POST bodies: GeoJSON Features and FeatureCollections, valid, degenerate and hostile. */
import fc from 'fast-check';

type Pos = [number, number];

const square = ([x, y]: Pos, d: number): Pos[] => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];
const feature = (geometry: unknown): Record<string, unknown> => ({ type: 'Feature', properties: {}, geometry });

/** Places where the fixtures have data (lon, lat), plus anywhere. */
export function positions(centres: readonly Pos[]): fc.Arbitrary<Pos> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...centres), fc.double({ min: -0.05, max: 0.05, noNaN: true }), fc.double({ min: -0.05, max: 0.05, noNaN: true }))
        .map(([[x, y], dx, dy]): Pos => [x + dx, y + dy]),
    },
    { weight: 1, arbitrary: fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })) },
  );
}

export function geometries(centres: readonly Pos[]): fc.Arbitrary<unknown> {
  const pos = positions(centres);
  const size = fc.constantFrom(1e-9, 0.001, 0.01, 0.1, 10, 400);
  const polygon = fc.tuple(pos, size).map(([p, d]) => ({ type: 'Polygon', coordinates: [square(p, d)] }));
  return fc.oneof(
    { weight: 6, arbitrary: polygon },
    {
      weight: 1,
      arbitrary: fc.tuple(pos, size, pos, size).map(([a, da, b, db]) => ({ type: 'MultiPolygon', coordinates: [[square(a, da)], [square(b, db)]] })),
    },
    { weight: 1, arbitrary: pos.map((p) => ({ type: 'Point', coordinates: p })) },
    { weight: 1, arbitrary: fc.tuple(pos, pos).map(([a, b]) => ({ type: 'LineString', coordinates: [a, b] })) },
    { weight: 1, arbitrary: polygon.map((g) => ({ type: 'GeometryCollection', geometries: [g, g] })) },
    {
      weight: 4,
      arbitrary: fc.constantFrom<unknown>(
        { type: 'MultiPolygon', coordinates: [] },
        { type: 'GeometryCollection', geometries: [] },
        { type: 'Polygon', coordinates: [] },
        { type: 'Polygon', coordinates: [[]] },
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [0, 0],
              [0, 0],
              [0, 0],
            ],
          ],
        },
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
              [0, 0],
            ],
          ],
        },
        {
          type: 'Polygon',
          coordinates: [
            [
              [-1e308, -1e308],
              [1e308, -1e308],
              [1e308, 1e308],
              [-1e308, -1e308],
            ],
          ],
        },
        {
          type: 'Polygon',
          coordinates: [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        },
        {
          type: 'Polygon',
          coordinates: [
            [
              ['a', 0],
              [1, 0],
              [1, 1],
              ['a', 0],
            ],
          ],
        },
        { type: 'Point', coordinates: [] },
        { type: 'Point', coordinates: [0, 0, 0, 0] },
        { type: 'Circle', coordinates: [0, 0] },
        { type: 'Polygon' },
        null,
        'Polygon',
      ),
    },
  );
}

/** A JSON text: a Feature, a FeatureCollection (1–40 features, or over the limit), or something else. */
export function bodies(centres: readonly Pos[]): fc.Arbitrary<string> {
  const geom = geometries(centres);
  return fc.oneof(
    { weight: 6, arbitrary: geom.map((g) => JSON.stringify(feature(g))) },
    {
      weight: 3,
      arbitrary: fc.array(geom, { minLength: 1, maxLength: 40 }).map((gs) => JSON.stringify({ type: 'FeatureCollection', features: gs.map(feature) })),
    },
    { weight: 1, arbitrary: geom.map((g) => JSON.stringify({ type: 'FeatureCollection', features: Array.from({ length: 1001 }, () => feature(g)) })) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1e400,0]}}',
        '{"type":"FeatureCollection","features":[]}',
        '{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}}',
        '{"type":"Feature","properties":[],"geometry":{"type":"Point","coordinates":[0,0]}}',
        '[]',
        '"x"',
        '',
        '{',
        '['.repeat(5000) + ']'.repeat(5000),
        '{"__proto__":{"x":1}}',
      ),
    },
  );
}
