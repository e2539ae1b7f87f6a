/**
 * Sparse warps against GDAL: low-zoom tiles (WebMercatorQuad, WorldCRS84Quad), world bboxes in
 * EPSG:4326 and EPSG:3857, of a UTM dataset lying 10° east of its zone's central meridian (where
 * the transverse Mercator bends most), compared with rio-tiler's read on
 * rasterio 1.3 / GDAL 3.6.2 (scripts/fixtures/warp_sparse.py). Almost every output pixel is far
 * from the data here: the block plan skips those blocks, and the pixels that hold data must
 * still be GDAL's: equal data wherever both hold data, and the masks equal except for a few
 * pixels on the data's own edge (GDAL's warper reaches a source-edge pixel our nearest
 * sampling rounds off; the warp before the block plan already differed there: at most 1 % of
 * the valid pixels, each next to a pixel GDAL leaves empty).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { fetchNpy } from '../helpers/npy.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface Arr {
  offset: number;
  dtype: string;
  shape: number[];
}

interface SparseCase {
  file: string;
  kind: 'tile' | 'bbox';
  tms?: string;
  z?: number;
  x?: number;
  y?: number;
  tilesize?: number;
  bounds?: number[];
  crs?: number;
  width?: number;
  height?: number;
  data: Arr;
  mask: Arr;
}

const { cases } = JSON.parse(readFileSync(fixture('warp', 'sparse.json'), 'utf8')) as { cases: SparseCase[] };
const blob = inflateSync(readFileSync(fixture('warp', 'sparse.bin.z')));

function oracle(a: Arr): Uint16Array | Uint8Array {
  const n = a.shape.reduce((x, y) => x * y, 1);
  const bytes = new Uint8Array(blob.buffer, blob.byteOffset + a.offset, n * (a.dtype === 'uint16' ? 2 : 1)).slice();
  return a.dtype === 'uint16' ? new Uint16Array(bytes.buffer) : bytes;
}

function datasetPath(file: string): string {
  return fixture('warp', file);
}

function requestOf(c: SparseCase): string {
  const url = q(datasetPath(c.file));
  if (c.kind === 'tile') return `/cog/tiles/${c.tms}/${c.z}/${c.x}/${c.y}.npy?url=${url}&tilesize=${c.tilesize}`;
  return `/cog/bbox/${c.bounds!.join(',')}/${c.width}x${c.height}.npy?url=${url}&dst_crs=epsg:${c.crs}&coord_crs=epsg:${c.crs}`;
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

describe('sparse warps equal rio-tiler on GDAL, pixel for pixel', () => {
  it('the fixture covers z1 tiles and world bboxes', () => {
    assert.ok(cases.some((c) => c.kind === 'tile' && c.tms === 'WebMercatorQuad' && c.z === 1));
    assert.ok(cases.some((c) => c.kind === 'tile' && c.tms === 'WorldCRS84Quad' && c.z === 0));
    assert.ok(cases.some((c) => c.kind === 'bbox' && c.crs === 4326));
  });
  for (const c of cases) {
    const req = requestOf(c);
    it(`${c.file} ${c.kind === 'tile' ? `${c.tms}/${c.z}/${c.x}/${c.y}@${c.tilesize}` : `${c.bounds!.join(',')} EPSG:${c.crs} ${c.width}x${c.height}`}`, async () => {
      const ours = await fetchNpy(server, req);
      const data = oracle(c.data);
      const mask = oracle(c.mask);
      const [, h, w] = c.data.shape;
      assert.deepEqual(ours.shape, [2, h, w]);
      const n = h * w;
      let valid = 0;
      let maskDiff = 0;
      const wrong: string[] = [];
      const gdalValid = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < w && y < h && mask[y * w + x] !== 0;
      for (let i = 0; i < n; i++) {
        // our mask is the dtype's maximum (65535) where valid, the oracle's 255
        const m = ours.data[n + i] !== 0;
        const g = mask[i] !== 0;
        if (g) valid++;
        const x = i % w;
        const y = Math.floor(i / w);
        if (m && g && ours.data[i] !== data[i]) wrong.push(`data at (${x}, ${y}): ours ${ours.data[i]}, GDAL ${data[i]}`);
        if (m === g) continue;
        maskDiff++;
        let edge = false;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (!gdalValid(x + dx, y + dy)) edge = true;
        if (!edge) wrong.push(`mask at (${x}, ${y}) inside GDAL's data: ours ${m}, GDAL ${g}`);
      }
      assert.ok(valid > 0);
      assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} of ${n} pixels differ (${valid} valid in GDAL's)`);
      assert.ok(maskDiff <= Math.max(1, 0.01 * valid), `${maskDiff} mask pixels differ of ${valid} valid`);
    });
  }
});
