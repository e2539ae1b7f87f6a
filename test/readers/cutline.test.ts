/**
 * readers/cutline.ts against rasterio 1.3 (/usr/bin/python3, run by the test):
 * features.geometry_mask(all_touched=True, invert=True) over the image's bounds, also with the
 * geometry in another CRS than the image.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { WGS84, crsFromEpsg } from '../../src/geo/crs.ts';
import type { Geometry } from '../../src/geo/geometry.ts';
import type { ImageData } from '../../src/raster/image-data.ts';
import { cutlineMask, cutToGeometry } from '../../src/readers/cutline.ts';

const PYTHON = '/usr/bin/python3';
const skip = existsSync(PYTHON) ? false : `${PYTHON} not installed`;

const W = 12;
const H = 9;
const BOUNDS: [number, number, number, number] = [10, 40, 13, 42.25]; // 0.25° pixels

/** rasterio's all-touched mask (1 inside) of `geometry` (already in EPSG:4326) over the grid. */
function rasterioMask(geometry: Geometry): number[] {
  const code = `import json, sys
from rasterio.features import geometry_mask
from rasterio.transform import from_bounds
g, b, w, h = json.load(sys.stdin)
m = geometry_mask([g], out_shape=(h, w), transform=from_bounds(*b, w, h), all_touched=True, invert=True)
print(json.dumps(m.astype(int).ravel().tolist()))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', code], { input: JSON.stringify([geometry, BOUNDS, W, H]), encoding: 'utf8' })) as number[];
}

function image(): ImageData {
  const shared = new Uint8Array(W * H).fill(255);
  shared[0] = 0;
  const own = new Uint8Array(W * H).fill(255);
  own[W * H - 1] = 0;
  return {
    width: W,
    height: H,
    dtype: 'uint8',
    bands: [new Uint8Array(W * H), new Uint8Array(W * H), new Uint8Array(W * H)],
    masks: [shared, shared, own],
    bounds: BOUNDS,
    crs: WGS84,
    bandNames: ['b1', 'b2', 'b3'],
    bandDescriptions: ['', '', ''],
    nodata: null,
    scales: [1, 1, 1],
    offsets: [0, 0, 0],
  };
}

const POLYGON: Geometry = {
  type: 'Polygon',
  coordinates: [
    [
      [10.1, 40.3],
      [12.6, 40.05],
      [11.9, 42.1],
      [10.1, 40.3],
    ],
    [
      [11.2, 40.7],
      [11.8, 40.7],
      [11.5, 41.2],
      [11.2, 40.7],
    ],
  ],
};

test('cutlineMask is rasterio all_touched geometry_mask', { skip }, () => {
  const want = rasterioMask(POLYGON).map((v) => v * 255);
  assert.deepEqual([...cutlineMask(image(), POLYGON, WGS84)], want);
});

test('cutToGeometry ANDs every mask with the cutline, keeping shared masks shared', { skip }, () => {
  const img = image();
  const cutline = rasterioMask(POLYGON);
  const { cut, pixels } = cutToGeometry(img, POLYGON, WGS84);
  assert.equal(cut.masks[0], cut.masks[1]);
  assert.notEqual(cut.masks[0], img.masks[0]);
  assert.deepEqual(
    [...cut.masks[0]],
    cutline.map((v, i) => (i === 0 ? 0 : v * 255)),
  );
  assert.deepEqual(
    [...cut.masks[2]],
    cutline.map((v, i) => (i === W * H - 1 ? 0 : v * 255)),
  );
  assert.equal(img.masks[0][1], 255, 'the input masks are not modified');
  assert.equal(pixels.polygons.length, 1);
  assert.deepEqual(
    [...pixels.polygons[0][0].slice(0, 2)].map((v) => Math.round(v * 1e9) / 1e9),
    [0.4, 7.8],
  ); // (10.1, 40.3) in pixels
});

test('a geometry in another CRS is transformed to the image CRS first', { skip }, () => {
  const mercator = crsFromEpsg(3857);
  const toMerc = ([lon, lat]: number[]): number[] => [(lon * Math.PI * 6378137) / 180, 6378137 * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))];
  const ring = [
    [10.1, 40.3],
    [12.6, 40.05],
    [11.9, 42.1],
    [10.1, 40.3],
  ];
  const merc: Geometry = { type: 'Polygon', coordinates: [ring.map(toMerc)] };
  const want = rasterioMask({ type: 'Polygon', coordinates: [ring] }).map((v) => v * 255);
  assert.deepEqual([...cutlineMask(image(), merc, mercator)], want);
});
