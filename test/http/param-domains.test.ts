/**
 * Parameter domains declared once (src/http/validation/params.ts): every out-of-domain value is a
 * 422 naming the parameter and the rule, and /api states the bounds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ValidationIssue as Issue } from '../../src/http/validation/issues.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;
const UTM = q(fixture('datasets', 'uint16_nodata_utm.tif'));
const GEO = q(fixture('datasets', 'float64_global_4326.tif'));

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

async function issuesOf(path: string): Promise<Issue[]> {
  const r = await server.get(path);
  const text = await r.text();
  assert.equal(r.status, 422, `${path.slice(0, 200)} → ${r.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { detail: Issue[] }).detail;
}

/** The request is a 422 whose first issue is located at `loc` and whose message matches `msg`. */
async function rejects(path: string, loc: Array<string | number>, msg: RegExp): Promise<void> {
  const issues = await issuesOf(path);
  assert.deepEqual(issues[0]!.loc, loc, JSON.stringify(issues));
  assert.match(issues[0]!.msg, msg);
}

describe('finite numbers', () => {
  it('rescale: NaN, infinities and overflowing literals', async () => {
    for (const v of ['NaN,NaN', 'inf,-inf', '1e309,1', '0,inf']) {
      await rejects(`/cog/preview.png?url=${UTM}&rescale=${v}`, ['query', 'rescale', 0], /finite/);
    }
  });
  it('bbox corners: NaN, ±Infinity, -1e400 (was a 500)', async () => {
    for (const [box, name] of [
      ['-1e400,0,1,1', 'minx'],
      ['0,nan,1,1', 'miny'],
      ['0,0,inf,1', 'maxx'],
    ] as const) {
      await rejects(`/cog/bbox/${box}.png?url=${GEO}`, ['path', name], /finite number/);
    }
  });
  it('point coordinates and categories', async () => {
    await rejects(`/cog/point/1e400,0?url=${GEO}`, ['path', 'lon'], /finite number/);
    await rejects(`/cog/statistics?url=${GEO}&categorical=true&c=nan`, ['query', 'c', 0], /finite number/);
  });
  it('nodata: nan and inf by name are legal, an overflowing literal is not', async () => {
    for (const v of ['nan', 'inf', '-inf', '0']) assert.equal((await server.get(`/cog/statistics?url=${UTM}&max_size=32&nodata=${v}`)).status, 200, v);
    await rejects(`/cog/statistics?url=${UTM}&nodata=1e400`, ['query', 'nodata'], /finite number/);
  });
  it('integers beyond 2^53 are not integers', async () => {
    await rejects(`/cog/statistics?url=${UTM}&max_size=99999999999999999999`, ['query', 'max_size'], /valid integer/);
  });
});

describe('ranges and ordered pairs', () => {
  it('percentiles within [0, 100]', async () => {
    await rejects(`/cog/statistics?url=${UTM}&p=101`, ['query', 'p', 0], /less than or equal to 100/);
    await rejects(`/cog/statistics?url=${UTM}&p=50&p=-1`, ['query', 'p', 1], /greater than or equal to 0/);
  });
  it('bbox: inverted or empty', async () => {
    await rejects(`/cog/bbox/6,47,5,46.png?url=${GEO}`, ['path', 'maxx'], /maxx must be greater than minx/);
    await rejects(`/cog/bbox/5,47,6,47.png?url=${GEO}`, ['path', 'maxy'], /maxy must be greater than miny/);
  });
  it('rescale and histogram_range: minimum above maximum', async () => {
    await rejects(`/cog/preview.png?url=${UTM}&rescale=10,1`, ['query', 'rescale', 0], /minimum must be less than or equal to maximum/);
    await rejects(`/cog/statistics?url=${UTM}&histogram_range=10,1`, ['query', 'histogram_range'], /less than or equal/);
    await rejects(`/cog/statistics?url=${UTM}&histogram_range=1e400,1`, ['query', 'histogram_range'], /finite/);
  });
  it('tilejson: minzoom above maxzoom, negative zooms', async () => {
    await rejects(
      `/cog/WebMercatorQuad/tilejson.json?url=${UTM}&minzoom=30&maxzoom=5`,
      ['query', 'maxzoom'],
      /maxzoom must be greater than or equal to minzoom/,
    );
    await rejects(`/cog/WebMercatorQuad/tilejson.json?url=${UTM}&maxzoom=-5`, ['query', 'maxzoom'], /greater than or equal to 0/);
    assert.equal((await server.get(`/cog/WebMercatorQuad/tilejson.json?url=${UTM}&minzoom=3&maxzoom=3`)).status, 200);
  });
  it('colormap intervals: lower bound above upper', async () => {
    const cmap = q(
      JSON.stringify([
        [
          [10, 0],
          [255, 0, 0, 255],
        ],
      ]),
    );
    await rejects(`/cog/preview.png?url=${UTM}&colormap=${cmap}`, ['query', 'colormap'], /interval 0 has its lower bound 10 above its upper bound 0/);
  });
  it('buffer, padding and width × height are bounded', async () => {
    await rejects(`/cog/tiles/WebMercatorQuad/0/0/0.png?url=${UTM}&buffer=100000`, ['query', 'buffer'], /less than or equal to 512/);
    await rejects(`/cog/preview.png?url=${UTM}&width=10000&height=10000`, ['query', 'height'], /width × height must be at most 67108864/);
  });
});

describe('sizes', () => {
  it('histogram_bins is at most 10,000 (and at least 1)', async () => {
    await rejects(`/cog/statistics?url=${UTM}&histogram_bins=1000000000`, ['query', 'histogram_bins'], /at most 10000/);
    await rejects(`/cog/statistics?url=${UTM}&histogram_bins=0`, ['query', 'histogram_bins'], /at least 1/);
    const r = await server.getJson<Record<string, { histogram: [number[], number[]] }>>(`/cog/statistics?url=${UTM}&histogram_bins=10000&max_size=64`);
    assert.equal(r.status, 200);
    assert.equal(Object.values(r.body)[0]!.histogram[0].length, 10000);
  });
  it('list lengths: bidx, p', async () => {
    const many = (k: string, n: number): string => Array.from({ length: n }, (_, i) => `${k}=${i % 100}`).join('&');
    await rejects(`/cog/statistics?url=${UTM}&${many('p', 101)}`, ['query', 'p'], /at most 100 items after validation, not 101/);
    await rejects(`/cog/statistics?url=${UTM}&${many('bidx', 1001)}`, ['query', 'bidx'], /at most 1000 items/);
  });
  it('expression length and nesting depth', async () => {
    await rejects(`/cog/statistics?url=${UTM}&expression=${'b1%2B'.repeat(1400)}b1`, ['query', 'expression'], /at most 4096 characters/);
    await rejects(`/cog/statistics?url=${UTM}&expression=${'('.repeat(65)}b1${')'.repeat(65)}`, ['query', 'expression'], /deeper than 64/);
    // The granule mosaic's expression shares the declaration (validated before any CMR search).
    await rejects(
      `/raster/tiles/WebMercatorQuad/1/1/1.png?collection_concept_id=C1-X&expression=${'b1%2B'.repeat(1400)}b1`,
      ['query', 'expression'],
      /at most 4096 characters/,
    );
    await rejects(
      `/raster/tiles/WebMercatorQuad/1/1/1.png?collection_concept_id=C1-X&expression=${'('.repeat(65)}b1${')'.repeat(65)}`,
      ['query', 'expression'],
      /deeper than 64/,
    );
  });
});

describe('CRS definitions that describe no projection', () => {
  it('dst_crs and coord_crs → 422', async () => {
    for (const def of ['+proj=merc +a=0', '+proj=ortho +lat_0=91', '+proj=utm +zone=99', '+proj=tmerc +k=0']) {
      await rejects(`/cog/bbox/5,45,6,46.png?url=${GEO}&dst_crs=${q(def)}`, ['query', 'dst_crs'], /invalid CRS definition/);
      await rejects(`/cog/point/5,45?url=${GEO}&coord_crs=${q(def)}`, ['query', 'coord_crs'], /invalid CRS definition/);
    }
    assert.equal((await server.get(`/cog/point/5,45?url=${GEO}&coord_crs=${q('+proj=longlat +datum=WGS84')}`)).status, 200);
  });
});

describe('/api states the bounds', () => {
  it('minimum, maximum, maxItems, maxLength', async () => {
    const api = (
      await server.getJson<{
        paths: Record<string, Record<string, { parameters: Array<{ name: string; schema: Record<string, unknown>; description?: string }> }>>;
      }>('/api')
    ).body;
    const params = api.paths['/cog/statistics']!['get']!.parameters;
    const byName = (n: string) => params.find((p) => p.name === n)!;
    assert.deepEqual((byName('p').schema['items'] as Record<string, unknown>)['minimum'], 0);
    assert.deepEqual((byName('p').schema['items'] as Record<string, unknown>)['maximum'], 100);
    assert.equal(byName('p').schema['maxItems'], 100);
    assert.equal(byName('bidx').schema['maxItems'], 1000);
    assert.equal(byName('expression').schema['maxLength'], 4096);
    assert.match(byName('histogram_bins').description ?? '', /at most 10000/);
    const tj = api.paths['/cog/{tileMatrixSetId}/tilejson.json']!['get']!.parameters.find((p) => p.name === 'maxzoom')!;
    assert.match(tj.description ?? '', /greater than or equal to minzoom/);
  });
});
