/** /stac/renders and /stac/renders/{id} on TiTiler's render_item.json (spec §12.5). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

const ITEM = path.join(SHARED, 'fixtures', 'titiler', 'render_item.json');

interface Render {
  valid: boolean;
  params: Record<string, unknown>;
  links: Array<{ href: string; rel: string; templated?: boolean }>;
}

describe('/stac/renders', { skip: !existsSync(ITEM) && 'needs ../shared/fixtures' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('lists every render with validity and links; old-style keys rewritten', async () => {
    const r = await server.getJson<{ renders: Record<string, Render>; links: Array<{ rel: string; href: string; title: string }> }>(
      `/stac/renders?url=${q(ITEM)}`,
    );
    assert.equal(r.status, 200);
    const { renders } = r.body;
    assert.deepEqual(Object.keys(renders).sort(), ['expression_old', 'index', 'missing_asset', 'ndvi', 'rgb_old', 'thumbnail']);
    assert.equal(r.body.links[0]!.rel, 'self');
    assert.equal(r.body.links[0]!.title, 'List STAC Renders metadata');
    for (const id of ['thumbnail', 'index', 'rgb_old', 'expression_old', 'ndvi']) assert.equal(renders[id]!.valid, true, id);
    assert.equal(renders['missing_asset']!.valid, false);
    assert.equal(renders['missing_asset']!.links.length, 1);
    assert.deepEqual(renders['rgb_old']!.params['assets'], ['B4|bidx=1', 'B3|bidx=1', 'B2|bidx=1']);
    assert.equal(renders['rgb_old']!.params['asset_bidx'], undefined);
    assert.deepEqual(renders['expression_old']!.params['assets'], ['B02|expression=b1*2']);
    const links = renders['thumbnail']!.links;
    assert.equal(links.length, 3);
    assert.match(links[1]!.href, /\/stac\/\{tileMatrixSetId\}\/tilejson\.json\?url=.*&assets=B4&assets=B3&assets=B2&rescale=0%2C150&colormap_name=rainbow/);
    assert.equal(links[1]!.templated, true);
    assert.match(links[2]!.href, /\/stac\/WMTSCapabilities\.xml\?url=/);
  });

  it('one render; an unknown id is a 404 "Render not found"', async () => {
    const one = await server.getJson<Render>(`/stac/renders/ndvi?url=${q(ITEM)}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.valid, true);
    assert.equal(one.body.params['colormap_name'], 'ylgn');
    const none = await server.getJson<{ detail: string }>(`/stac/renders/nope?url=${q(ITEM)}`);
    assert.equal(none.status, 404);
    assert.equal(none.body.detail, 'Render not found');
  });

  it('the tilejson link of a valid render answers', async () => {
    const r = await server.getJson<{ renders: Record<string, Render> }>(`/stac/renders?url=${q(ITEM)}`);
    const href = r.body.renders['index']!.links[1]!.href.replace('{tileMatrixSetId}', 'WebMercatorQuad');
    const tj = await server.get(href.slice(server.url.length));
    assert.equal(tj.status, 200);
  });
});
