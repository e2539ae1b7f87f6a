/** TiTiler 2.x changes a 1.x user meets first: /docs, removed `@{scale}x` and `tile_scale`, response schemas. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

describe('TiTiler 2 migration answers', () => {
  let server: TestServer;
  const url = q(fixture('tiff', 'cog_deflate_pred2_rgb.tif'));
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  for (const alias of ['/docs', '/redoc']) {
    it(`${alias} leads to the API page`, async () => {
      const r = await server.get(alias, { redirect: 'manual' });
      assert.equal(r.status, 307);
      assert.equal(r.headers.get('location'), '/api.html');
      const page = await server.get(alias);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /swagger-ui/);
    });
  }

  for (const tile of ['/cog/tiles/WebMercatorQuad/8/87/48@2x.png', '/cog/tiles/WebMercatorQuad/8/87/48@2x']) {
    it(`${tile} is a 422 naming tilesize`, async () => {
      const r = await server.getJson<{ detail: Array<{ loc: string[]; msg: string }> }>(`${tile}?url=${url}`);
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.detail[0]!.loc, ['path', 'y']);
      assert.match(r.body.detail[0]!.msg, /removed in version 2.*tilesize/);
    });
  }

  for (const route of ['/cog/tiles/WebMercatorQuad/8/87/48.png', '/cog/WebMercatorQuad/tilejson.json', '/cog/WebMercatorQuad/map.html']) {
    it(`${route}?tile_scale=2 is a 422 naming tilesize`, async () => {
      const r = await server.getJson<{ detail: Array<{ loc: string[]; msg: string }> }>(`${route}?url=${url}&tile_scale=2`);
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.detail[0]!.loc, ['query', 'tile_scale']);
      assert.match(r.body.detail[0]!.msg, /tile_scale.*removed in version 2.*tilesize/);
    });
  }

  it('every $ref of the OpenAPI document resolves, success responses have schemas', async () => {
    const doc = (await (await server.get('/api')).json()) as {
      components: { schemas: Record<string, unknown> };
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
    };
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of refs) assert.ok(doc.components.schemas[ref.split('/').pop()!], ref);
    const schemaOf = (p: string): unknown => doc.paths[p]!['get']!.responses['200']!.content!['application/json']!.schema;
    assert.deepEqual(schemaOf('/cog/statistics'), { $ref: '#/components/schemas/Statistics' });
    assert.deepEqual(schemaOf('/cog/point/{lon},{lat}'), { $ref: '#/components/schemas/Point' });
    assert.deepEqual(schemaOf('/cog/{tileMatrixSetId}/tilejson.json'), { $ref: '#/components/schemas/TileJSON' });
  });
});
