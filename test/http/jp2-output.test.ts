/** JPEG 2000 output (.jp2): decoded back by GDAL (rasterio), equal to the same image as .npy. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hasRasterio } from '../helpers/oracles.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const COMPARE = `
import sys, numpy as np, rasterio
with rasterio.open(sys.argv[1]) as src:
    a = src.read()
    driver = src.driver
b = np.load(sys.argv[2])
print(driver, a.dtype, list(a.shape), bool(a.dtype == b.dtype and a.shape == b.shape and (a == b).all()))
`;

describe('.jp2 output', { skip: !hasRasterio && 'needs rasterio' }, () => {
  let server: TestServer;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jp2-'));
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const roundTrip = async (route: string, query: string): Promise<string> => {
    const jp2 = await server.get(`${route}.jp2?${query}`);
    assert.equal(jp2.status, 200, await jp2.clone().text());
    assert.equal(jp2.headers.get('content-type'), 'image/jp2');
    const npy = await server.get(`${route}.npy?${query}`);
    const a = path.join(dir, 'out.jp2');
    const b = path.join(dir, 'out.npy');
    writeFileSync(a, Buffer.from(await jp2.arrayBuffer()));
    writeFileSync(b, Buffer.from(await npy.arrayBuffer()));
    return execFileSync('/usr/bin/python3', ['-c', COMPARE, a, b], { encoding: 'utf8' }).trim();
  };

  it('uint16, one band, no mask: lossless', async () => {
    assert.equal(
      await roundTrip('/cog/preview', `url=${q(fixture('cogvalidate', 'cog.tif'))}&max_size=96&return_mask=false`),
      'JP2OpenJPEG uint16 [1, 96, 96] True',
    );
  });

  it('uint8 RGB with its mask band (4 components)', async () => {
    const out = await roundTrip('/cog/tiles/WebMercatorQuad/0/0/0', `url=${q(fixture('tiff', 'cog_deflate_pred2_rgb.tif'))}&tilesize=64`);
    assert.match(out, /^JP2OpenJPEG uint8 \[4, 64, 64\] True$/);
  });

  it('float data is a 400 naming the dtype', async () => {
    const r = await server.get(`/cog/preview.jp2?url=${q(fixture('tiff', 'cog_zstd_pred3_float32_nan.tif'))}&max_size=32`);
    assert.equal(r.status, 400);
  });
});
