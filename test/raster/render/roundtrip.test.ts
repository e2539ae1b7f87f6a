/** GeoTIFF and .npy outputs read back by GDAL (rasterio) and numpy (Debian's /usr/bin/python3). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CRS84, crsFromEpsg } from '../../../src/geo/crs.ts';
import type { Crs } from '../../../src/geo/crs.ts';
import { renderImage } from '../../../src/raster/render/index.ts';
import type { TypedArray } from '../../../src/dtype.ts';
import { makeImage, maskWith } from './image.ts';

const PY = '/usr/bin/python3';
const probe = spawnSync(PY, ['-c', 'import rasterio, numpy'], { encoding: 'utf8' });
const skip = probe.status !== 0 ? 'needs /usr/bin/python3 with rasterio and numpy' : false;
const dir = mkdtempSync(join(tmpdir(), 'rastile-render-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const READER = `
import json, sys, warnings
warnings.simplefilter("ignore")
import numpy, rasterio
path = sys.argv[1]
def jv(a):
    return [None if numpy.isnan(v) else float(v) for v in a.ravel().tolist()]
if path.endswith(".npy"):
    a = numpy.load(path)
    print(json.dumps({"dtype": str(a.dtype), "shape": list(a.shape), "fortran": bool(a.flags.f_contiguous and a.ndim > 1 and not a.flags.c_contiguous),
                      "first": [jv(a[b, 0, :4]) for b in range(a.shape[0])], "last": [jv(a[b, -1, -4:]) for b in range(a.shape[0])]}))
else:
    with rasterio.open(path) as s:
        a = s.read()
        print(json.dumps({"driver": s.driver, "dtype": s.dtypes[0], "count": s.count, "width": s.width, "height": s.height,
                          "transform": list(s.transform)[:6], "crs": s.crs.to_string() if s.crs else None,
                          "colorinterp": [c.name for c in s.colorinterp], "compression": s.compression.name if s.compression else None,
                          "first": [jv(a[b, 0, :4]) for b in range(s.count)], "last": [jv(a[b, -1, -4:]) for b in range(s.count)],
                          "mask": s.dataset_mask()[0, :4].tolist()}))
`;

interface Probe {
  [key: string]: unknown;
  first: Array<Array<number | null>>;
  last: Array<Array<number | null>>;
}

function readBack(body: Buffer, ext: 'tif' | 'npy'): Probe {
  const path = join(dir, `out-${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(path, body);
  const r = spawnSync(PY, ['-c', READER, path], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Probe;
}

const ramp = <T extends TypedArray>(arr: T, f: (i: number) => number): T => {
  for (let i = 0; i < arr.length; i++) arr[i] = f(i);
  return arr;
};

test('uint16 GeoTIFF with mask: dtype, count, size, transform, CRS, values (TiTiler pin: count 2)', { skip }, async () => {
  const w = 8;
  const h = 4;
  const img = makeImage([ramp(new Uint16Array(w * h), (i) => i * 1000)], {
    width: w,
    height: h,
    masks: [maskWith(w * h, [1])],
    bounds: [1000, 2000, 1800, 2200],
    crs: crsFromEpsg(3857),
  });
  const out = await renderImage(img, { format: 'tif', returnMask: true });
  assert.equal(out.contentType, 'image/tiff; application=geotiff');
  const p = readBack(out.body, 'tif');
  assert.equal(p.driver, 'GTiff');
  assert.deepEqual([p.dtype, p.count, p.width, p.height], ['uint16', 2, w, h]);
  assert.deepEqual(p.transform, [100, 0, 1000, 0, -50, 2200]);
  assert.equal(p.crs, 'EPSG:3857');
  assert.deepEqual(p.colorinterp, ['gray', 'alpha']);
  assert.equal(p.compression, 'deflate');
  assert.deepEqual(p.first, [
    [0, 1000, 2000, 3000],
    [65535, 0, 65535, 65535],
  ]);
  assert.deepEqual(p.last, [
    [28000, 29000, 30000, 31000],
    [65535, 65535, 65535, 65535],
  ]);
  assert.deepEqual(p.mask, [255, 0, 255, 255]);

  const bare = readBack((await renderImage(img, { format: 'tiff', returnMask: false })).body, 'tif');
  assert.equal(bare.count, 1);
});

test('RGB uint8 GeoTIFF in EPSG:4326 and OGC:CRS84', { skip }, async () => {
  const w = 5;
  const h = 3;
  const bands = [0, 1, 2].map((k) => ramp(new Uint8Array(w * h), (i) => i + 10 * k));
  for (const crs of [crsFromEpsg(4326), CRS84] as Crs[]) {
    const img = makeImage(bands, { width: w, height: h, masks: bands.map(() => maskWith(w * h, [0])), bounds: [-10, 40, 0, 46], crs });
    const p = readBack((await renderImage(img, { format: 'tif', returnMask: true })).body, 'tif');
    assert.deepEqual([p.dtype, p.count], ['uint8', 4]);
    assert.deepEqual(p.colorinterp, ['red', 'green', 'blue', 'alpha']);
    assert.equal(p.crs, 'EPSG:4326');
    assert.deepEqual(p.transform, [2, 0, -10, 0, -2, 46]);
    assert.deepEqual(p.first, [
      [0, 1, 2, 3],
      [10, 11, 12, 13],
      [20, 21, 22, 23],
      [0, 255, 255, 255],
    ]);
  }
});

test('float32, int16 and float64 GeoTIFFs; many strips; no CRS without an EPSG code', { skip }, async () => {
  const w = 300;
  const h = 700; // 5 × float32 × 300 = 6000-byte rows → many 64 KiB strips
  const n = w * h;
  const f = [0, 1, 2, 3].map((k) => ramp(new Float32Array(n), (i) => (i % 997) * 0.25 - k));
  f[0][1] = NaN;
  const custom: Crs = { id: 'CUSTOM:x', proj4: '+proj=merc', epsg: null, isGeographic: false, wkt: null };
  const img = makeImage(f, { width: w, height: h, masks: f.map(() => maskWith(n, [2])), bounds: [0, 0, 300, 700], crs: custom });
  const p = readBack((await renderImage(img, { format: 'tif', returnMask: true })).body, 'tif');
  assert.deepEqual([p.dtype, p.count, p.width, p.height, p.crs], ['float32', 5, w, h, null]);
  assert.deepEqual(p.first[0], [0, null, 0.5, 0.75]);
  assert.deepEqual(p.first[4], [3.4028234663852886e38, 3.4028234663852886e38, -3.4028234663852886e38, 3.4028234663852886e38]);
  const lastIdx = Array.from({ length: 4 }, (_, k) => n - 4 + k);
  assert.deepEqual(
    p.last[3],
    lastIdx.map((i) => Math.fround((i % 997) * 0.25 - 3)),
  );

  const i16 = makeImage([Int16Array.from([-5, 7, 300, -32000])], { width: 2, height: 2, masks: [maskWith(4, [3])] });
  const q = readBack((await renderImage(i16, { format: 'tif', returnMask: true })).body, 'tif');
  assert.equal(q.dtype, 'int16');
  assert.deepEqual(q.first, [
    [-5, 7],
    [32767, 32767],
  ]);
  assert.deepEqual(q.last, [
    [300, -32000],
    [32767, -32768],
  ]);

  const f64 = makeImage([Float64Array.from([1e300, -2.5, 0, 7])], { width: 2, height: 2 });
  const r = readBack((await renderImage(f64, { format: 'tif', returnMask: false })).body, 'tif');
  assert.deepEqual([r.dtype, r.count, r.first[0]], ['float64', 1, [1e300, -2.5]]);
});

test('.npy: (count + 1, H, W) in the data dtype, mask = dtype min/max (TiTiler pin: (2,256,256))', { skip }, async () => {
  const n = 256 * 256;
  const img = makeImage([ramp(new Uint16Array(n), (i) => i % 65536)], { width: 256, height: 256, masks: [maskWith(n, [0])] });
  const out = await renderImage(img, { format: 'npy', returnMask: true });
  assert.equal(out.contentType, 'application/x-binary');
  const p = readBack(out.body, 'npy');
  assert.deepEqual([p.dtype, p.shape], ['uint16', [2, 256, 256]]);
  assert.deepEqual(p.first, [
    [0, 1, 2, 3],
    [0, 65535, 65535, 65535],
  ]);
  assert.deepEqual(p.last[0], [65532, 65533, 65534, 65535]);

  const f = makeImage([Float32Array.from([1.5, -2, 3, 4, 5, 6])], { width: 3, height: 2, masks: [maskWith(6, [1])] });
  const q = readBack((await renderImage(f, { format: 'npy', returnMask: true })).body, 'npy');
  assert.deepEqual([q.dtype, q.shape], ['float32', [2, 2, 3]]);
  assert.deepEqual(q.first, [
    [1.5, -2, 3],
    [3.4028234663852886e38, -3.4028234663852886e38, 3.4028234663852886e38],
  ]);

  const i8 = makeImage([Int8Array.from([-128, 5, 127, 0])], { width: 4, height: 1 });
  const r = readBack((await renderImage(i8, { format: 'npy', returnMask: false })).body, 'npy');
  assert.deepEqual([r.dtype, r.shape, r.first], ['int8', [1, 1, 4], [[-128, 5, 127, 0]]]);
});
