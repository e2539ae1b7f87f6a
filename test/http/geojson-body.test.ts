/**
 * GeoJSON bodies validated fully (empty or wrongly nested geometries, non-finite positions, unclosed
 * rings, feature and vertex limits) → 422 naming the path; POST statistics over many features keeps
 * the server answering.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseFeatureOrCollection } from '../../src/http/geojson-body.ts';
import { RequestValidationError } from '../../src/http/validation/issues.ts';
import type { ValidationIssue as Issue } from '../../src/http/validation/issues.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
const UTM_FILE = fixture('datasets', 'uint16_nodata_utm.tif');
const STATS = `/cog/statistics?url=${q(UTM_FILE)}&coord_crs=epsg:32618`;
// the fixture covers [300000, 4488000, 316800, 4500000] in EPSG:32618
const square = (x: number, y: number, d: number): number[][] => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];
const feature = (geometry: unknown): unknown => ({ type: 'Feature', properties: {}, geometry });

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

async function postIssues(body: string | unknown, path = STATS): Promise<Issue[]> {
  const r = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  assert.equal(r.status, 422, `${r.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { detail: Issue[] }).detail;
}

describe('empty and degenerate geometries (were 500s)', () => {
  it('empty MultiPolygon, empty GeometryCollection, Polygon with coordinates []', async () => {
    let [d] = await postIssues(feature({ type: 'MultiPolygon', coordinates: [] }));
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry', 'coordinates']);
    assert.equal(d!.type, 'too_short');
    [d] = await postIssues(feature({ type: 'GeometryCollection', geometries: [] }));
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry', 'geometries']);
    [d] = await postIssues(feature({ type: 'Polygon', coordinates: [] }));
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry', 'coordinates']);
    [d] = await postIssues(feature({ type: 'Polygon', coordinates: [[]] }));
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry', 'coordinates', 0]);
    assert.match(d!.msg, /at least 4 items/);
  });
  it('empty FeatureCollection', async () => {
    const [d] = await postIssues({ type: 'FeatureCollection', features: [] });
    assert.deepEqual(d!.loc, ['body', 'FeatureCollection', 'features']);
  });
  it('wrong nesting, non-finite positions, unclosed rings', async () => {
    let [d] = await postIssues(feature({ type: 'Polygon', coordinates: square(300000, 4488000, 100) }));
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry', 'coordinates', 0, 0]);
    assert.equal(d!.type, 'list_type');
    // JSON has no NaN, but 1e400 parses to Infinity
    [d] = await postIssues(`{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1e400,0]}}`);
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry', 'coordinates']);
    assert.match(d!.msg, /finite numbers/);
    const open = square(300000, 4488000, 100)
      .slice(0, 4)
      .concat([[300001, 4488000]]);
    [d] = await postIssues({
      type: 'FeatureCollection',
      features: [feature({ type: 'Polygon', coordinates: [square(300000, 4488000, 100)] }), feature({ type: 'MultiPolygon', coordinates: [[open]] })],
    });
    assert.deepEqual(d!.loc, ['body', 'FeatureCollection', 'features', 1, 'geometry', 'coordinates', 0, 0]);
    assert.match(d!.msg, /same start and end/);
  });
});

describe('geometries without an area or beyond the float range (were 500s, found by the API fuzzer)', () => {
  it('a Point or a flat line → 400; ±1e308 corners → 400', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'Point', coordinates: [300500, 4488500] }, /has no area/],
      [
        {
          type: 'LineString',
          coordinates: [
            [300500, 4488500],
            [300500, 4488500],
          ],
        },
        /has no area/,
      ],
      [
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
        /too large/,
      ],
    ];
    for (const [geometry, msg] of cases) {
      for (const route of [STATS, `/cog/feature?url=${q(UTM_FILE)}&coord_crs=epsg:32618`]) {
        const r = await fetch(`${server.url}${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(feature(geometry)),
        });
        const body = (await r.json()) as { detail: string };
        assert.equal(r.status, 400, `${route} ${JSON.stringify(geometry).slice(0, 60)} → ${r.status} ${JSON.stringify(body)}`);
        assert.match(body.detail, msg);
      }
    }
  });
});

describe('limits', () => {
  it('more features than the limit (default 1000)', async () => {
    const fc = { type: 'FeatureCollection', features: Array.from({ length: 1001 }, () => feature({ type: 'Point', coordinates: [300500, 4488500] })) };
    const [d] = await postIssues(fc);
    assert.deepEqual(d!.loc, ['body', 'FeatureCollection', 'features']);
    assert.match(d!.msg, /at most 1000 items after validation, not 1001 \(RASTILE_MAX_FEATURES\)/);
  });
  it('more vertices than the limit (default 100,000)', async () => {
    const ring = Array.from({ length: 100_001 }, (_, i) => [300000 + (i % 1000), 4488000 + Math.floor(i / 1000)]);
    ring.push(ring[0]!);
    const [d] = await postIssues(feature({ type: 'Polygon', coordinates: [ring] }));
    assert.deepEqual(d!.loc, ['body', 'Feature', 'geometry']);
    assert.match(d!.msg, /more than 100000 positions \(RASTILE_MAX_VERTICES\)/);
  });
  it('limits are parameters of the parser; the issue list stays short', () => {
    const fc = { type: 'FeatureCollection', features: Array.from({ length: 200 }, () => feature({ type: 'Point', coordinates: ['x', 0] })) };
    assert.throws(
      () => parseFeatureOrCollection(fc, { maxFeatures: 1000, maxVertices: 1000 }),
      (e: unknown) => e instanceof RequestValidationError && e.issues.length === 50,
    );
    assert.throws(
      () => parseFeatureOrCollection({ type: 'FeatureCollection', features: [fc.features[0], fc.features[0]] }, { maxFeatures: 1, maxVertices: 10 }),
      RequestValidationError,
    );
  });
});

describe('file:// URL with an encoded NUL', () => {
  it('400 like the plain path', async () => {
    for (const u of [`file://${UTM_FILE}%2500`, `${UTM_FILE}%00`]) {
      const r = await server.getJson<{ detail: string }>(`/cog/info?url=${u}`);
      assert.equal(r.status, 400);
      assert.match(r.body.detail, /NUL character/);
    }
  });
});

describe('many features do not stop the server', () => {
  it('/healthz answers while a large-but-allowed FeatureCollection is processed', async () => {
    const features = Array.from({ length: 400 }, (_, i) =>
      feature({ type: 'Polygon', coordinates: [square(300000 + (i % 20) * 800, 4488000 + Math.floor(i / 20) * 600, 500)] }),
    );
    let statsDone = false;
    let healthBeforeDone = 0;
    const stats = fetch(`${server.url}${STATS}&max_size=64`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'FeatureCollection', features }),
    }).then(async (r) => {
      const body = (await r.json()) as { features: Array<{ properties: { statistics: Record<string, { count: number }> } }> };
      statsDone = true;
      return { status: r.status, body };
    });
    while (!statsDone) {
      const h = await fetch(`${server.url}/healthz`);
      await h.arrayBuffer();
      if (!statsDone && h.status === 200) healthBeforeDone++;
      if (healthBeforeDone >= 3) break;
    }
    const { status, body } = await stats;
    assert.equal(status, 200);
    assert.equal(body.features.length, 400);
    assert.ok(healthBeforeDone >= 1, 'no /healthz answer before the statistics request finished');
  });
});
