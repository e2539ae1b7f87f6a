/**
 * Files GDAL reads through more than the TIFF itself: PAM sidecars (`.aux.xml`), local
 * engineering CRSs. Expected values: scripts/fixtures/real_files.py (rasterio 1.3 / GDAL 3.6.2).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { inflateSync } from 'node:zlib';
import { assertClose } from '../helpers/assert-close.ts';
import { fetchNpy, npyBand } from '../helpers/npy.ts';
import { fixture, q, SHARED, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface OracleTile {
  z: number;
  x: number;
  y: number;
  offset: number;
  length: number;
}

interface Expected {
  rotated_tiles: { maxzoom: number; tiles: OracleTile[] };
  gcps_tiles: { maxzoom: number; tiles: OracleTile[] };
  files: Record<string, { info: Record<string, unknown>; statistics: Record<string, Record<string, number>>; statistics_shape: number[] }>;
}

const expected = JSON.parse(readFileSync(fixture('realfiles', 'expected.json'), 'utf8')) as Expected;
const url = (name: string): string => q(fixture('realfiles', name));

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

describe('PAM sidecars (.aux.xml)', () => {
  for (const name of ['dem_pam.tif', 'pam_precedence.tif', 'pam_georef.tif']) {
    it(`${name}: /cog/info equals rasterio's`, async () => {
      const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${url(name)}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, expected.files[name].info);
    });
    it(`${name}: /cog/statistics equals rio-tiler's`, async () => {
      const r = await server.getJson<Record<string, Record<string, number>>>(`/cog/statistics?url=${url(name)}`);
      assert.equal(r.status, 200);
      const want = expected.files[name].statistics;
      assert.deepEqual(Object.keys(r.body), Object.keys(want));
      for (const b of Object.keys(want)) {
        for (const k of ['min', 'max', 'mean', 'count', 'std', 'valid_pixels', 'masked_pixels']) {
          assertClose(r.body[b][k], want[b][k], 1e-9, `${b}.${k}`);
        }
      }
    });
  }

  it('dem_pam.tif: tilejson minmax comes from the sidecar statistics', async () => {
    const r = await server.getJson<{ minmax?: number[][] }>(`/cog/WebMercatorQuad/tilejson.json?url=${url('dem_pam.tif')}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.minmax, [[1000, 2500]]);
  });

  it('dem_pam.tif: a plain PNG preview is stretched over the stored min/max (not uniform grey)', async () => {
    const r = await server.get(`/cog/preview.png?url=${url('dem_pam.tif')}`);
    assert.equal(r.status, 200);
    const png = Buffer.from(await r.arrayBuffer());
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    let lo = 255;
    let hi = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      lo = Math.min(lo, data[i]);
      hi = Math.max(hi, data[i]);
    }
    // data spans exactly the stored [1000, 2500]: the stretch reaches both ends of 0..255
    assert.ok(lo <= 1 && hi >= 254, `grey levels ${lo}..${hi}`);
  });
});

describe('local engineering CRS (LOCAL_CS)', () => {
  const name = 'local_cs.tif';
  it("/cog/info equals rasterio's (WKT crs)", async () => {
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${url(name)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, expected.files[name].info);
  });
  it("/cog/statistics equals rio-tiler's", async () => {
    const r = await server.getJson<Record<string, Record<string, number>>>(`/cog/statistics?url=${url(name)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const want = expected.files[name].statistics;
    for (const b of Object.keys(want)) {
      for (const k of ['min', 'max', 'mean', 'count', 'std', 'valid_pixels', 'masked_pixels']) assertClose(r.body[b][k], want[b][k], 1e-9, `${b}.${k}`);
    }
  });
  it('/cog/preview and /cog/bbox in the dataset CRS render', async () => {
    const p = await server.get(`/cog/preview.png?url=${url(name)}`);
    assert.equal(p.status, 200);
    const meta = await sharp(Buffer.from(await p.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [80, 64]);
    const b = await server.get(`/cog/bbox/100,80,500,400.png?url=${url(name)}&coord_crs=${q(String(expected.files[name].info.crs))}`);
    assert.equal(b.status, 200);
    const bm = await sharp(Buffer.from(await b.arrayBuffer())).metadata();
    assert.deepEqual([bm.width, bm.height], [40, 32]);
  });
  it('/cog/info.geojson falls back to world bounds like rio-tiler', async () => {
    const r = await server.getJson<{ bbox: number[] }>(`/cog/info.geojson?url=${url(name)}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.bbox, [-180, -90, 180, 90]);
  });
  it('a WebMercatorQuad tile is a clear 400', async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/tiles/WebMercatorQuad/0/0/0.png?url=${url(name)}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /local engineering CRS "Cartesian \(Meter\)"/);
  });
});

describe('not a TIFF: the format found is named', () => {
  for (const [name, format] of [
    ['netcdf3.nc', 'a NetCDF-3 \\(classic\\) file'],
    ['netcdf4.nc', 'an HDF5 \\(or NetCDF-4\\) file'],
  ] as const) {
    it(`${name}: 400 naming ${format.replace(/\\/g, '')} and the array backend`, async () => {
      const r = await server.getJson<{ detail: string }>(`/cog/info?url=${url(name)}`);
      assert.equal(r.status, 400);
      assert.match(
        r.body.detail,
        new RegExp(`is not a TIFF file: it is ${format}; NetCDF/HDF5/Zarr files are read by the array routes: /zarr\\?url=…&variable=…`),
      );
    });
  }
});

/** Our WebMercatorQuad tiles of `file` against rio-tiler's (uint8 samples then the 0/1 mask, per tile). */
function tilesMatch(file: string, oracle: { maxzoom: number; tiles: OracleTile[] }, blobName: string, minShare = 99): void {
  const blob = inflateSync(readFileSync(fixture('realfiles', blobName)));
  for (const t of oracle.tiles) {
    it(`WebMercatorQuad ${t.z}/${t.x}/${t.y} (native zoom ${oracle.maxzoom}) equals rio-tiler's`, async () => {
      const npy = await fetchNpy(server, `/cog/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.npy?url=${url(file)}`);
      const data = npyBand(npy, 0);
      const mask = npyBand(npy, 1);
      const n = 256 * 256;
      let equal = 0;
      let either = 0;
      for (let i = 0; i < n; i++) {
        const ok = blob[t.offset + n + i] === 1;
        const ours = mask[i] !== 0;
        if (!ok && !ours) continue;
        either++;
        if (ok === ours && data[i] === blob[t.offset + i]) equal++;
      }
      // nearest sampling may pick a neighbour where a pixel centre falls on a source pixel edge
      const share = (100 * equal) / either;
      assert.ok(either > 0 && share >= minShare, `${share.toFixed(2)} % of ${either} pixels valid in either tile equal`);
    });
  }
}

describe('rotated geotransform: tiles sized like rio-tiler (envelope of the rotated bounds)', () => {
  it("/cog/info equals rasterio's (envelope bounds)", async () => {
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${url('rotated_utm.tif')}`);
    assert.equal(r.status, 200);
    const want = expected.files['rotated_utm.tif'].info;
    assertClose(r.body.bounds as number[], want.bounds as number[], 1e-9, 'bounds');
    assert.deepEqual({ ...r.body, bounds: null }, { ...want, bounds: null });
  });
  tilesMatch('rotated_utm.tif', expected.rotated_tiles, 'rotated_utm_tiles.bin.z');
});

describe("GCP-georeferenced raster: GDAL's GCP polynomial warp, like rio-tiler's WarpedVRT", () => {
  it("/cog/info equals rio-tiler's (through its WarpedVRT: driver VRT)", async () => {
    const r = await server.getJson<Record<string, unknown>>(`/cog/info?url=${url('gcps_utm.tif')}`);
    assert.equal(r.status, 200);
    const want = expected.files['gcps_utm.tif'].info;
    assertClose(r.body.bounds as number[], want.bounds as number[], 1e-6, 'bounds');
    assert.deepEqual({ ...r.body, bounds: null, driver: null }, { ...want, bounds: null, driver: null });
  });
  it("/cog/statistics equals rio-tiler's", async () => {
    const r = await server.getJson<Record<string, Record<string, number>>>(`/cog/statistics?url=${url('gcps_utm.tif')}`);
    assert.equal(r.status, 200);
    const want = expected.files['gcps_utm.tif'].statistics;
    for (const k of ['min', 'max', 'mean', 'count', 'valid_pixels']) assertClose(r.body.b1[k], want.b1[k], 1e-9, k);
  });
  // like rio-tiler's WarpedVRT: GDAL's order-2 GCP polynomial (6 GCPs), its suggested grid, then
  // the tile (99.9–100 % equal; GDAL's approximate transformer moves a few edge picks)
  tilesMatch('gcps_utm.tif', expected.gcps_tiles, 'gcps_utm_tiles.bin.z', 99.5);
  const noRioTiler = !existsSync(path.join(SHARED, 'fixtures', 'rio-tiler')) && 'needs ../shared/fixtures/rio-tiler';
  it("rio-tiler's cog_gcps.tif (210 GCPs): the WarpedVRT's grid and bounds", { skip: noRioTiler }, async () => {
    const f = q(path.join(SHARED, 'fixtures', 'rio-tiler', 'cog_gcps.tif'));
    const r = await server.getJson<{ bounds: number[]; width: number; height: number }>(`/cog/info?url=${f}`);
    assert.equal(r.status, 200);
    // rasterio 1.3: WarpedVRT(src, src_crs=gcps crs, src_transform=from_gcps(gcps), add_alpha=True)
    assertClose(r.body.bounds, [75.60523871698537, 9.225819284185055, 78.20447677546821, 11.190381006581049], 1e-9, 'bounds');
    assert.deepEqual([r.body.width, r.body.height], [1417, 1071]);
  });
});

describe('non-Earth CRSs (rio-tiler test files, when ../shared is present)', () => {
  const shared = path.join(SHARED, 'fixtures', 'rio-tiler');
  const skip = !existsSync(shared) && 'needs ../shared/fixtures/rio-tiler';
  const europa = q(`${shared}/cog_nonearth.tif`);
  it('a WebMercatorQuad tile is a 400 that says the CRS is not on the Earth', { skip }, async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/tiles/WebMercatorQuad/0/0/0.png?url=${europa}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /"GCS_EUROPA" is not on the Earth \(its ellipsoid's semi-major axis is 1560800 m/);
  });
  it("a point in the dataset CRS (coord_crs = the /info crs) equals rasterio's sample", { skip }, async () => {
    const info = await server.getJson<{ crs: string }>(`/cog/info?url=${europa}`);
    // rasterio 1.3: src.sample([(-1299597.0, 401145.0)]) → 0.15588311851024628 (row 812, col 282)
    const r = await server.getJson<{ values: number[] }>(`/cog/point/-1299597.0,401145.0?url=${europa}&coord_crs=${q(info.body.crs)}`);
    assert.equal(r.status, 200);
    assertClose(r.body.values, [0.15588311851024628], 1e-7, 'value');
  });
  const mars = q(`${shared}/cog_hirise_mars.tif`);
  it('a point on Mars (JPEG YCbCr) in its own CRS equals gdallocationinfo', { skip }, async () => {
    const info = await server.getJson<{ crs: string }>(`/cog/info?url=${mars}`);
    // gdallocationinfo -geoloc cog_hirise_mars.tif 7377000.3 -861000.7 → (123P, 196L) 111 111 111;
    // rasterio 1.3 src.sample gives the same
    const r = await server.getJson<{ values: number[] }>(`/cog/point/7377000.3,-861000.7?url=${mars}&coord_crs=${q(info.body.crs)}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.values, [111, 111, 111]);
  });
  it("points on pixel corners pick rasterio's pixel (sample / gdallocationinfo)", { skip }, async () => {
    const info = await server.getJson<{ crs: string }>(`/cog/info?url=${mars}`);
    // rasterio 1.3: x, y = src.transform * (col, row); src.sample([(x, y)]) (gdallocationinfo agrees)
    const cases: [number, number, number[]][] = [
      [7380376.572003578, -864451.8175876411, [131, 131, 131]], // col 799, row 887
      [7380706.660554562, -867452.7088532383, [11, 11, 11]], // col 865, row 1487
      [7381556.888640429, -864046.6972667855, [97, 97, 97]], // col 1035, row 806
      [7378105.962880143, -866742.4979203803, [125, 125, 125]], // col 345, row 1345
      [7378941.186940966, -862771.3184789068, [111, 93, 79]], // col 512, row 551
    ];
    for (const [x, y, want] of cases) {
      const r = await server.getJson<{ values: number[] }>(`/cog/point/${x},${y}?url=${mars}&coord_crs=${q(info.body.crs)}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.values, want, `${x},${y}`);
    }
  });
  it('a lon/lat point on Mars is a 400 that says why (PROJ: the ellipsoids are on different bodies)', { skip }, async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/point/-53.6,-14.55?url=${mars}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /^Cannot place the point: The CRS "GCS_MARS" is not on the Earth/);
  });
});
