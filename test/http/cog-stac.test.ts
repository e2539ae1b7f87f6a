/** GET /cog/stac: a STAC Item like rio-stac's, checked against gdalinfo of the same file. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface Item {
  type: string;
  id: string;
  bbox: number[];
  stac_extensions: string[];
  properties: Record<string, unknown>;
  assets: Record<
    string,
    { href: string; type: string; roles?: string[]; 'raster:bands'?: Array<Record<string, unknown>>; 'eo:bands'?: Array<{ name: string }> }
  >;
  links: unknown[];
  collection?: string;
}

describe('/cog/stac', () => {
  let server: TestServer;
  const file = fixture('cogvalidate', 'cog.tif');
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('proj, raster and eo extensions agree with gdalinfo', async () => {
    const r = await server.getJson<Item>(`/cog/stac?url=${q(file)}&datetime=2020-01-01T00:00:00Z&asset_roles=data&collection=demo`);
    assert.equal(r.status, 200);
    const item = r.body;
    assert.equal(item.type, 'Feature');
    assert.equal(item.id, 'cog.tif');
    assert.equal(item.collection, 'demo');
    assert.equal(item.properties['datetime'], '2020-01-01T00:00:00Z');
    assert.equal(item.stac_extensions.length, 3);
    const g = JSON.parse(execFileSync('gdalinfo', ['-json', '-stats', file], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } })) as {
      size: [number, number];
      geoTransform: number[];
      stac: { 'proj:epsg': number };
      wgs84Extent: { coordinates: number[][][] };
      bands: Array<{ minimum: number; maximum: number; mean: number; stdDev: number }>;
    };
    assert.equal(item.properties['proj:epsg'], g.stac['proj:epsg']);
    assert.deepEqual(item.properties['proj:shape'], [g.size[1], g.size[0]]);
    const [c, a, b, f, d, e] = g.geoTransform;
    assert.deepEqual(item.properties['proj:transform'], [a, b, c, d, e, f, 0, 0, 1]);
    const lons = g.wgs84Extent.coordinates[0]!.map((p) => p[0]!);
    assert.ok(Math.abs(item.bbox[0]! - Math.min(...lons)) < 1e-6);
    const band = item.assets['data']!['raster:bands']![0]!;
    assert.equal(band['data_type'], 'uint16');
    const stats = band['statistics'] as { minimum: number; maximum: number; mean: number; stddev: number; valid_percent: number };
    assert.equal(stats.minimum, g.bands[0]!.minimum);
    assert.equal(stats.maximum, g.bands[0]!.maximum);
    // gdalinfo prints 3 decimals
    assert.ok(Math.abs(stats.mean - g.bands[0]!.mean) < 5e-4);
    assert.ok(Math.abs(stats.stddev - g.bands[0]!.stdDev) < 5e-4);
    assert.equal(stats.valid_percent, 100);
    assert.deepEqual(item.assets['data']!['eo:bands'], [{ name: 'b1' }]);
    assert.deepEqual(item.assets['data']!.roles, ['data']);
    assert.equal(item.assets['data']!.href, file);
  });

  it('an interval datetime and extensions turned off', async () => {
    const r = await server.getJson<Item>(`/cog/stac?url=${q(file)}&datetime=2020-01-01T00:00:00Z/2020-02-01T00:00:00Z&with_raster=false&with_eo=false&id=x`);
    assert.equal(r.body.id, 'x');
    assert.equal(r.body.properties['start_datetime'], '2020-01-01T00:00:00Z');
    assert.equal(r.body.properties['datetime'], null);
    assert.equal(r.body.stac_extensions.length, 1);
    assert.equal(r.body.assets['data']!['raster:bands'], undefined);
  });
});
