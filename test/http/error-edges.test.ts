/**
 * Errors at the HTTP edge: geo failures reach the client as 400 `{"detail"}` instead of an
 * unhandled 500 (a feature without area: no invertible output geotransform; a raster whose
 * geotransform has no inverse, written by rasterio: scripts/fixtures/errors.py); typed geo
 * errors; `Internal` is a logged 500; context fields appear next to `detail` and local paths
 * only when the client sent them.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { Errors, isRastileError } from '../../src/errors.ts';
import { invertGeoTransform } from '../../src/geo/affine.ts';
import { crsFromDefinition, crsFromEpsg } from '../../src/geo/crs-registry.ts';
import { makeProj } from '../../src/geo/proj4-lib.ts';
import { installErrorHandlers } from '../../src/http/error-handler.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const DEGENERATE = fixture('errors', 'degenerate_geotransform.tif');
const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');

describe('geo throws typed errors', () => {
  it('a geotransform without inverse is BadRequest (datasets are checked when opened; what is left is client geometry)', () => {
    assert.throws(
      () => invertGeoTransform([500000, 1, 1, 5600000, 1, 1]),
      (e) => isRastileError(e, 'BadRequest') && e.message === 'Geotransform is not invertible',
    );
    assert.throws(
      () => invertGeoTransform([0, NaN, 0, 0, 0, -1]),
      (e) => isRastileError(e, 'BadRequest'),
    );
  });

  it('proj4js failures and unknown codes are InvalidCrs', () => {
    assert.throws(
      () => makeProj('+proj=nosuchmethod +ellps=WGS84'),
      (e) => isRastileError(e, 'InvalidCrs'),
    );
    assert.throws(
      () => makeProj('GARBAGE[]'),
      (e) => isRastileError(e, 'InvalidCrs'),
    );
    assert.throws(
      () => crsFromDefinition('+proj=nosuchmethod'),
      (e) => isRastileError(e, 'InvalidCrs'),
    );
    assert.throws(
      () => crsFromEpsg(99999),
      (e) => isRastileError(e, 'InvalidCrs') && e.context?.crs === 'EPSG:99999' && isRastileError(e.cause, 'InvalidCrs'),
    );
  });
});

describe('a geo failure over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const point = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [8.5, 46.5] } };
  for (const path of ['/cog/feature.png', '/cog/feature/16x16.png']) {
    it(`POST ${path} with a Point (no area) → 400 {"detail"}, not 500`, async () => {
      const r = await server.post(`${path}?url=${q(DEMO)}`, point);
      assert.equal(r.status, 400);
      assert.match(r.headers.get('content-type') ?? '', /application\/json/);
      const body = (await r.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['detail']);
      assert.match(String(body['detail']), /no area|not invertible/);
    });
  }

  it('a band index beyond the band count names the band next to detail', async () => {
    const r = await server.getJson<Record<string, unknown>>(`/cog/statistics?url=${q(DEMO)}&bidx=2`);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { detail: 'Band index 2 is out of range: the dataset has 1 band(s)', band: 2 });
  });

  it('a missing local file shows the url the client sent', async () => {
    const missing = fixture('errors', 'missing.tif');
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${q(missing)}`);
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { detail: `File not found: ${missing}`, url: missing });
  });

  for (const path of ['/cog/info', '/cog/bbox/15,50.55,15.001,50.551.png']) {
    it(`${path} of a raster whose geotransform has no inverse (GDAL opens it) → 400 {"detail"}`, async () => {
      const r = await server.get(`${path}?url=${q(DEGENERATE)}`);
      assert.equal(r.status, 400);
      const body = (await r.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['detail']);
      assert.match(String(body['detail']), /not invertible/);
    });
  }
});

describe('error handler: kinds, context and status', () => {
  let app: FastifyInstance;
  const logged: unknown[] = [];
  before(async () => {
    app = Fastify({ disableRequestLogging: true, logger: { level: 'debug', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
    installErrorHandlers(app, 1024);
    app.get('/internal', async () => {
      throw Errors.internal('window outside level 0');
    });
    app.get('/band', async () => {
      throw Errors.invalidBandIndex('Band 4 does not exist', { context: { band: 4, ifd: 0 } });
    });
    app.get('/missing', async () => {
      throw Errors.sourceNotFound('File not found: a.tif', { context: { url: '/srv/data/a.tif' } });
    });
    app.get('/plain', async () => {
      throw new TypeError('x is undefined');
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
  });

  it('Internal is 500 with its message, and logged', async () => {
    logged.length = 0;
    const r = await app.inject({ url: '/internal' });
    assert.equal(r.statusCode, 500);
    const id = r.headers['x-request-id'];
    assert.equal(typeof id, 'string');
    assert.deepEqual(r.json(), { detail: 'window outside level 0', request_id: id });
    assert.equal(logged.length, 1);
    // The client's request id leads to the log line.
    assert.deepEqual([(logged[0] as { level: number }).level, (logged[0] as { reqId: unknown }).reqId], [50, id]);
  });

  it('a 4xx is logged at debug with its reason, and carries no request id', async () => {
    logged.length = 0;
    const r = await app.inject({ url: '/band' });
    assert.equal(r.headers['x-request-id'], undefined);
    assert.equal(logged.length, 1);
    const line = logged[0] as { level: number; status: number; reason: string };
    assert.deepEqual([line.level, line.status, line.reason], [20, 400, 'Band 4 does not exist']);
  });

  it('context fields appear next to detail', async () => {
    const r = await app.inject({ url: '/band' });
    assert.equal(r.statusCode, 400);
    assert.deepEqual(r.json(), { detail: 'Band 4 does not exist', band: 4, ifd: 0 });
  });

  it('a local path appears only when the client sent it as ?url=', async () => {
    assert.deepEqual((await app.inject({ url: '/missing?url=a.tif' })).json(), { detail: 'File not found: a.tif' });
    const sent = await app.inject({ url: `/missing?url=${q('/srv/data/a.tif')}` });
    assert.equal(sent.statusCode, 404);
    assert.deepEqual(sent.json(), { detail: 'File not found: a.tif', url: '/srv/data/a.tif' });
  });

  it('an untyped error is a generic 500', async () => {
    const r = await app.inject({ url: '/plain' });
    assert.equal(r.statusCode, 500);
    const id = r.headers['x-request-id'];
    assert.equal(typeof id, 'string');
    assert.deepEqual(r.json(), { detail: `Internal Server Error (request id ${String(id)})`, request_id: id });
  });
});
