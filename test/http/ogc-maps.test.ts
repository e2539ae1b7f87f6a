/** OGC API – Maps GET /cog/map and /stac/map: TiTiler's test_ogc_maps_cog pins (spec §2.3) on the upstream cog.tif. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fixture, q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

const T = path.join(SHARED, 'fixtures', 'titiler');
const skip = !existsSync(T) ? 'needs ../shared/fixtures' : false;

describe('OGC API – Maps', { skip }, () => {
  let server: TestServer;
  const cog = q(path.join(T, 'cog.tif'));
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });
  const size = async (r: Response): Promise<[number, number, string | undefined]> => {
    const m = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
    return [m.width!, m.height!, m.format];
  };

  it('no params: 1021×1024 PNG, dataset bbox and CRS headers', async () => {
    const r = await server.get(`/cog/map?url=${cog}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/png');
    assert.equal(r.headers.get('content-bbox'), '373185.0,8019284.949381611,639014.9492102272,8286015.0');
    assert.equal(r.headers.get('content-crs'), '<http://www.opengis.net/def/crs/EPSG/0/32621>');
    assert.deepEqual(await size(r), [1021, 1024, 'png']);
  });

  it('width=256 → 256×257; Accept: image/jpeg → JPEG; width=-256 → 422', async () => {
    assert.deepEqual(await size(await server.get(`/cog/map?url=${cog}&width=256`)), [256, 257, 'png']);
    const jpeg = await server.get(`/cog/map?url=${cog}&width=256&rescale=0,1000`, { headers: { accept: 'image/jpeg' } });
    assert.equal(jpeg.headers.get('content-type'), 'image/jpeg');
    assert.equal((await size(jpeg))[2], 'jpeg');
    assert.equal((await server.get(`/cog/map?url=${cog}&width=-256`)).status, 422);
    assert.equal((await server.get(`/cog/map?url=${cog}&bbox=0`)).status, 422);
  });

  it('f=tif is a georeferenced GeoTIFF (gdalinfo)', async () => {
    const r = await server.get(`/cog/map?url=${cog}&f=tif&width=128`);
    assert.equal(r.status, 200);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'map-')), 'map.tif');
    writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as { size: number[]; stac: Record<string, unknown> };
    assert.deepEqual(info.size, [128, 129]);
    assert.equal(info.stac['proj:epsg'], 32621);
  });

  it('bbox in 4326 → Content-Bbox in 32621; crs=[EPSG:4326] → the bbox itself', async () => {
    const bbox = '-56.228,72.715,-54.547,73.188';
    const r = await server.get(`/cog/map?url=${cog}&bbox=${bbox}&width=128`);
    assert.equal(r.status, 200);
    const got = r.headers.get('content-bbox')!.split(',').map(Number);
    const want = [524922.2217886819, 8068852.367048624, 581330.6416587981, 8123074.564952523];
    got.forEach((v, i) => assert.ok(Math.abs(v - want[i]!) < 1e-3, `${got} vs ${want}`));
    const g = await server.get(`/cog/map?url=${cog}&bbox=${bbox}&crs=${q('[EPSG:4326]')}&width=128`);
    assert.equal(g.headers.get('content-crs'), '<http://www.opengis.net/def/crs/EPSG/0/4326>');
    g.headers
      .get('content-bbox')!
      .split(',')
      .map(Number)
      .forEach((v, i) => assert.ok(Math.abs(v - [-56.228, 72.715, -54.547, 73.188][i]!) < 1e-9));
    // 6-value bbox (with heights) = the same 4
    const six = await server.get(`/cog/map?url=${cog}&bbox=-56.228,72.715,0,-54.547,73.188,10&width=128`);
    assert.equal(six.headers.get('content-bbox'), r.headers.get('content-bbox'));
  });

  it('/stac/map with assets', async () => {
    const r = await server.get(`/stac/map?url=${q(fixture('stac', 'item.json'))}&assets=red&width=64`);
    assert.equal(r.status, 200);
    assert.equal((await size(r))[0], 64);
  });

  it('/conformance lists OGC API – Maps classes', async () => {
    const r = await server.getJson<{ conformsTo: string[] }>('/conformance');
    assert.ok(r.body.conformsTo.includes('http://www.opengis.net/spec/ogcapi-maps-1/1.0/conf/core'));
  });
});
