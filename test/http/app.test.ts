/** Application-level endpoints, OpenAPI document, common headers, and the `rastile` CLI. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { fixture, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const execFileAsync = promisify(execFile);
/** The CLI on the TypeScript sources (not a possibly stale dist/ build). */
const run = (file: string, args: string[], opts: { cwd: string }) => execFileAsync(file, args, { ...opts, env: { ...process.env, RASTILE_FROM_SOURCE: '1' } });

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

describe('application endpoints', () => {
  it('/healthz answers 200 with versions and no Cache-Control', async () => {
    const r = await server.getJson<{ versions: Record<string, string> }>('/healthz');
    assert.equal(r.status, 200);
    assert.equal(r.body.versions['rastile'], (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
    assert.ok(r.body.versions['node']);
    assert.equal(r.headers.get('cache-control'), null);
  });

  it('/api is an OpenAPI 3.1 document of every route with parameters, enums, defaults and media types', async () => {
    const r = await server.get('/api');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/vnd\.oai\.openapi\+json/);
    const doc = (await r.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>;
            responses: Record<string, { content?: Record<string, unknown> }>;
            requestBody?: unknown;
          }
        >
      >;
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
    const info = doc.paths['/cog/info']['get'].responses['200'].content?.['application/json'] as { schema: { $ref: string } };
    assert.equal(info.schema.$ref, '#/components/schemas/Info');
    for (const p of [
      '/cog/info',
      '/cog/info.geojson',
      '/cog/statistics',
      '/cog/tiles',
      '/cog/tiles/{tileMatrixSetId}',
      '/tileMatrixSets',
      '/tileMatrixSets/{tileMatrixSetId}',
      '/healthz',
    ]) {
      assert.ok(doc.paths[p], p);
    }
    const stats = doc.paths['/cog/statistics'];
    assert.ok(stats['get'] && stats['post']);
    assert.ok(stats['post'].requestBody);
    const params = Object.fromEntries(stats['get'].parameters.map((x) => [x.name, x]));
    assert.equal(params['url'].required, true);
    assert.deepEqual(params['resampling'].schema['enum'], ['nearest', 'bilinear', 'cubic', 'cubic_spline', 'lanczos', 'average', 'mode', 'gauss', 'rms']);
    assert.equal(params['resampling'].schema['default'], 'nearest');
    assert.equal(params['max_size'].schema['default'], 1024);
    assert.equal(params['bidx'].schema['type'], 'array');
    const cover = Object.fromEntries(stats['post'].parameters.map((x) => [x.name, x]))['cover_scale'];
    assert.equal(cover.schema['maximum'], 1000);
    assert.ok(stats['get'].responses['200'].content?.['application/json']);
    const tms = doc.paths['/cog/tiles/{tileMatrixSetId}']['get'].parameters.find((x) => x.name === 'tileMatrixSetId')!;
    assert.equal(tms.in, 'path');
    assert.equal((tms.schema['enum'] as string[]).length, 13);
  });

  it('/api leaves hidden legacy aliases out (concept_id, datetime, bands_regex)', async () => {
    const doc = (await (await server.get('/api')).json()) as { paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>> };
    for (const path of ['/raster/tiles/{tileMatrixSetId}/{z}/{x}/{y}', '/granules']) {
      const names = doc.paths[path]!['get']!.parameters.map((x) => x.name);
      assert.ok(names.includes('collection_concept_id') && names.includes('temporal') && names.includes('assets_regex'), `${path}: ${names.join(',')}`);
      for (const hidden of ['concept_id', 'datetime', 'bands_regex']) assert.ok(!names.includes(hidden), `${path} documents ${hidden}`);
    }
  });

  it('/api.html renders the docs page with its assets', async () => {
    const r = await server.get('/api.html');
    assert.equal(r.status, 200);
    const html = await r.text();
    assert.match(html, /swagger-ui-bundle\.js/);
    const js = await server.get('/api.html/static/swagger-ui-bundle.js');
    assert.equal(js.status, 200);
  });

  it('landing page and conformance', async () => {
    const r = await server.getJson<{ links: Array<{ rel: string }> }>('/');
    assert.ok(r.body.links.some((l) => l.rel === 'service-desc'));
    const c = await server.getJson<{ conformsTo: string[] }>('/conformance');
    assert.deepEqual(c.body.conformsTo, [...c.body.conformsTo].sort());
  });

  it('unknown paths are a JSON 404, CORS headers are set', async () => {
    const r = await server.get('/nope');
    assert.equal(r.status, 404);
    assert.deepEqual(await r.json(), { detail: 'Not Found' });
    const ok = await server.get('/healthz', { headers: { origin: 'https://example.com' } });
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
  });

  it('GET responses carry the configured Cache-Control', async () => {
    const r = await server.get(`/cog/info?url=${encodeURIComponent(fixture('datasets', 'palette_3413.tif'))}`);
    assert.equal(r.headers.get('cache-control'), 'private, max-age=3600');
  });
});

describe('rastile CLI', () => {
  it('`rastile info <path>` prints the /cog/info JSON', async () => {
    const file = fixture('datasets', 'int16_scale_laea.tif');
    const { stdout } = await run(process.execPath, [path.join(REPO, 'bin', 'rastile.js'), 'info', file], { cwd: REPO });
    const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as { files: Record<string, { info: unknown }> };
    assert.deepEqual(JSON.parse(stdout), expected.files['int16_scale_laea.tif'].info);
  });

  it('`rastile info` of a missing file exits 1 with a message', async () => {
    await assert.rejects(
      run(process.execPath, [path.join(REPO, 'bin', 'rastile.js'), 'info', 'nope.tif'], { cwd: REPO }),
      (err: { code: number; stderr: string }) => {
        assert.equal(err.code, 1);
        assert.match(err.stderr, /rastile info:/);
        return true;
      },
    );
  });

  it('without a command prints usage and exits 2', async () => {
    await assert.rejects(run(process.execPath, [path.join(REPO, 'bin', 'rastile.js')], { cwd: REPO }), (err: { code: number }) => err.code === 2);
  });
});
