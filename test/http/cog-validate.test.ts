/** GET /cog/validate against GDAL's validate_cloud_optimized_geotiff.py verdicts (scripts/fixtures/cog_validate.py). */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

const expected = JSON.parse(readFileSync(fixture('cogvalidate', 'expected.json'), 'utf8')) as Record<string, { errors: string[]; warnings: string[] }>;
/** rio-cogeo words the size rule "512xH or 512xW" where GDAL says "512xH or Wx512". */
const gdalWording = (m: string): string => m.replace('512xH or 512xW', '512xH or Wx512');

interface CogInfo {
  COG: boolean;
  COG_errors: string[];
  COG_warnings: string[];
  Compression: string;
  Profile: { Width: number; Height: number; Tiled: boolean; Dtype: string; Bands: number };
  GEO: { CRS: string; MinZoom: number; MaxZoom: number };
  IFD: Array<{ Level: number; Width: number; Height: number; Blocksize: number[]; Decimation: number }>;
}

describe('/cog/validate', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  for (const [name, gdal] of Object.entries(expected)) {
    it(`${name}: the errors and warnings of GDAL's validator`, async () => {
      const r = await server.getJson<CogInfo>(`/cog/validate?url=${q(fixture('cogvalidate', name))}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.COG_errors.map(gdalWording), gdal.errors);
      assert.deepEqual(r.body.COG_warnings.map(gdalWording), gdal.warnings);
      assert.equal(r.body.COG, gdal.errors.length === 0);
      const strict = await server.getJson<CogInfo>(`/cog/validate?url=${q(fixture('cogvalidate', name))}&strict=true`);
      assert.equal(strict.body.COG, gdal.errors.length === 0 && gdal.warnings.length === 0);
    });
  }

  it('cog.tif: profile, georeferencing and IFDs (gdalinfo: 600×600, 256² blocks, overviews 300, 150)', async () => {
    const r = await server.getJson<CogInfo>(`/cog/validate?url=${q(fixture('cogvalidate', 'cog.tif'))}`);
    assert.equal(r.body.Compression, 'DEFLATE');
    assert.deepEqual(r.body.Profile.Width, 600);
    assert.equal(r.body.Profile.Tiled, true);
    assert.equal(r.body.Profile.Dtype, 'uint16');
    assert.equal(r.body.GEO.CRS, 'http://www.opengis.net/def/crs/EPSG/0/32621');
    assert.deepEqual(
      r.body.IFD.map((i) => [i.Level, i.Width, i.Height, i.Blocksize, i.Decimation]),
      [
        [0, 600, 600, [256, 256], 0],
        [1, 300, 300, [256, 256], 2],
        [2, 150, 150, [256, 256], 4],
      ],
    );
  });

  const T = path.join(SHARED, 'fixtures', 'titiler');
  it('TiTiler pins: cog.tif is a COG; non_cog.tif (strips + external .ovr) is not', { skip: !existsSync(T) && 'needs ../shared/fixtures' }, async () => {
    const cog = await server.getJson<CogInfo>(`/cog/validate?url=${q(path.join(T, 'cog.tif'))}`);
    assert.equal(cog.status, 200);
    assert.equal(cog.body.COG, true);
    const non = await server.getJson<CogInfo>(`/cog/validate?url=${q(path.join(T, 'non_cog.tif'))}`);
    assert.equal(non.body.COG, false);
    assert.ok(non.body.COG_errors.includes('Overviews found in external .ovr file. They should be internal'), non.body.COG_errors.join('; '));
    assert.ok(non.body.COG_errors.includes('The file is greater than 512xH or 512xW, but is not tiled'));
  });

  it('a missing file is a 404, a non-TIFF a 400', async () => {
    assert.equal((await server.get(`/cog/validate?url=${q(fixture('cogvalidate', 'nope.tif'))}`)).status, 404);
    assert.equal((await server.get(`/cog/validate?url=${q(fixture('tiff', 'bad_not_a_tiff.tif'))}`)).status, 400);
  });
});
