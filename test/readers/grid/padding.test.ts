/**
 * `padding` (TiTiler tile parameter) as rio-tiler's `part` applies it to a same-CRS read: the
 * bounds grow by `padding` output pixels, the larger window is read at the grown output size,
 * then the padding is cropped. Oracle: rasterio 1.3 / GDAL 3.6 doing exactly that (rio-tiler's
 * steps, run live; skipped without rasterio). GDAL's resampling kernels already read source
 * pixels beyond the window, so inside the raster padding changes nothing (nearest or bilinear);
 * it changes pixels when the padded window reaches past the raster (the boundless VRT path).
 * A reprojected tile whose warp grid is the tile size reads the grid grown by `padding` pixels
 * and keeps its inside, as rio-tiler's WarpedVRT + window read: oracle = that read in rasterio.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { Bounds } from '../../../src/geo/bounds.ts';
import { createBlockCache } from '../../../src/formats/tiff/block-cache.ts';
import { openTiffGrid } from '../../../src/formats/tiff/tiff-grid.ts';
import { getTileMatrixSet } from '../../../src/geo/tms.ts';
import { GridReader } from '../../../src/readers/grid/grid-reader.ts';
import type { ReadPlan } from '../../../src/readers/grid/read-plan.ts';
import type { SourceOpener } from '../../../src/sources/open-source.ts';
import { fixture } from '../../helpers/test-server.ts';
import { hasRasterio } from '../../helpers/oracles.ts';

const FILE = fixture('datasets', 'rgb_uint8_utm.tif');

/** rio-tiler `part` with and without padding, band 1, for a pixel window's bounds. */
const ORACLE = `
import sys, json, rasterio
from rasterio import windows
from rasterio.enums import Resampling
f, rs, p = sys.argv[1], Resampling[sys.argv[2]], int(sys.argv[3])
col, row, ww, wh = (float(x) for x in sys.argv[4:8])
w, h = int(sys.argv[8]), int(sys.argv[9])
def read(src, bounds, height, width):
    win = windows.from_bounds(*bounds, transform=src.transform)
    (r0, r1), (c0, c1) = win.toranges()
    boundless = min(c0, r0) < 0 or c1 >= src.width or r1 >= src.height
    return src.read(1, window=win, out_shape=(height, width), resampling=rs, boundless=boundless)
with rasterio.open(f) as src:
    b = windows.bounds(windows.Window(col, row, ww, wh), src.transform)
    xres, yres = (b[2] - b[0]) / w, (b[3] - b[1]) / h
    pb = (b[0] - xres * p, b[1] - yres * p, b[2] + xres * p, b[3] + yres * p)
    plain = read(src, b, h, w)
    padded = read(src, pb, h + 2 * p, w + 2 * p)[p:-p, p:-p]
    print(json.dumps({"bounds": list(b), "plain": plain.ravel().tolist(), "padded": padded.ravel().tolist()}))
`;

interface Case {
  window: [number, number, number, number];
  width: number;
  height: number;
}

function oracle(c: Case, resampling: string, padding: number): { bounds: Bounds; plain: number[]; padded: number[] } {
  const args = [FILE, resampling, String(padding), ...c.window.map(String), String(c.width), String(c.height)];
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', ORACLE, ...args], { encoding: 'utf8' })) as { bounds: Bounds; plain: number[]; padded: number[] };
}

let reader: GridReader;
const plans: ReadPlan[] = [];
before(async () => {
  const bytes = new Uint8Array(readFileSync(FILE));
  const sources: SourceOpener = {
    async open(url) {
      return { url, size: bytes.length, fetch: async (offset: number, length: number) => bytes.slice(offset, offset + length) };
    },
    async openIfExists() {
      return null;
    },
  };
  const ds = await openTiffGrid('/data/rgb_uint8_utm.tif', { sources, blockCache: createBlockCache(8 << 20), maxBlockBytes: 64 << 20, sidecars: false });
  reader = new GridReader(ds, { maxReadPixels: 1e8 }, (p) => plans.push(p));
});

async function band1(c: Case, bounds: Bounds, resampling: 'nearest' | 'bilinear', padding?: number): Promise<number[]> {
  const img = await reader.part({ bounds, width: c.width, height: c.height, resampling, indexes: [1], ...(padding ? { padding } : {}) });
  assert.deepEqual([img.width, img.height], [c.width, c.height]);
  img.bounds.forEach((v, i) => assert.ok(Math.abs(v - bounds[i]!) < 1e-6, 'the output keeps the requested bounds'));
  return Array.from(img.bands[0]!);
}

const differing = (a: number[], b: number[]): number => a.reduce((n, v, i) => n + (v !== b[i] ? 1 : 0), 0);

describe('padding (same-CRS part)', { skip: !hasRasterio && 'rasterio not installed' }, () => {
  const inside: Case[] = [
    { window: [150, 100, 300, 250], width: 64, height: 53 },
    { window: [120.3, 60.7, 333, 277], width: 100, height: 83 },
  ];

  for (const c of inside) {
    for (const resampling of ['nearest', 'bilinear'] as const) {
      it(`inside the raster, ${resampling} ${c.window.join(',')} → ${c.width}×${c.height}: equal to rio-tiler's, unchanged by padding`, async () => {
        const o = oracle(c, resampling, 2);
        const plain = await band1(c, o.bounds, resampling);
        plans.length = 0;
        const padded = await band1(c, o.bounds, resampling, 2);
        const plan = plans[0]!;
        assert.ok(plan.kind === 'window');
        assert.equal(plan.padding, 2);
        assert.deepEqual([plan.readWidth, plan.readHeight], [c.width + 4, c.height + 4]);
        assert.equal(differing(plain, o.plain), 0, 'unpadded read = rasterio');
        assert.equal(differing(padded, o.padded), 0, 'padded read = rio-tiler padded read');
        assert.equal(differing(padded, plain), differing(o.padded, o.plain));
      });
    }
  }

  it('a padded window reaching past the raster (nearest): pixels change exactly as rio-tiler’s', async () => {
    const c: Case = { window: [10.3, 7.7, 500, 400], width: 64, height: 51 };
    const o = oracle(c, 'nearest', 2);
    const plain = await band1(c, o.bounds, 'nearest');
    const padded = await band1(c, o.bounds, 'nearest', 2);
    assert.equal(differing(plain, o.plain), 0);
    assert.equal(differing(padded, o.padded), 0);
    assert.ok(differing(o.padded, o.plain) > 0, 'the oracle changes');
    assert.equal(differing(padded, plain), differing(o.padded, o.plain));
  });
});

/** band 1 of a WarpedVRT onto a plan's grid (EPSG:3857), the window inside its padding, as rio-tiler reads it. */
const WARP_ORACLE = `
import sys, json, rasterio
from affine import Affine
from rasterio.vrt import WarpedVRT
from rasterio.windows import Window
from rasterio.enums import Resampling
f, g, p, rs = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), Resampling[sys.argv[4]]
with rasterio.open(f) as src:
    with WarpedVRT(src, crs='EPSG:3857', transform=Affine.from_gdal(*g['geoTransform']), width=g['width'], height=g['height'], add_alpha=True, resampling=rs) as vrt:
        w, h = g['width'] - 2 * p, g['height'] - 2 * p
        print(json.dumps(vrt.read(1, window=Window(p, p, w, h), out_shape=(h, w)).ravel().tolist()))
`;

describe('padding (reprojected tile)', { skip: !hasRasterio && 'rasterio not installed' }, () => {
  for (const reproject of ['nearest', 'bilinear'] as const) {
    it(`${reproject}: the padded warp grid read as rio-tiler's WarpedVRT window`, async () => {
      const tms = getTileMatrixSet('WebMercatorQuad');
      const wgs = reader.boundsIn(tms.geographicCrs);
      const t = tms.tileAt((wgs[0] + wgs[2]) / 2 + 0.01, (wgs[1] + wgs[3]) / 2 + 0.005, 14, true);
      plans.length = 0;
      const img = await reader.tile(tms, t.x, t.y, t.z, { indexes: [1], reproject, padding: 2 });
      const plan = plans[0]!;
      assert.ok(plan.kind === 'warp');
      assert.equal(plan.padding, 2);
      assert.deepEqual([plan.grid.width, plan.grid.height, plan.width, plan.height], [260, 260, 256, 256]);
      assert.deepEqual(img.bounds, tms.tileBounds(t.x, t.y, t.z));
      const ref = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', WARP_ORACLE, FILE, JSON.stringify(plan.grid), '2', reproject], { encoding: 'utf8' }),
      ) as number[];
      assert.equal(differing(Array.from(img.bands[0]!), ref), 0);
    });
  }
});
