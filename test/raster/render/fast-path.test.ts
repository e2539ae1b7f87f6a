/** The fused colormap→PNG fast path gives exactly the pixels of the generic pipeline. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { WGS84 } from '../../../src/geo/crs.ts';
import { getColormap } from '../../../src/raster/colormap/index.ts';
import type { DType, TypedArray } from '../../../src/dtype.ts';
import { allocate } from '../../../src/dtype.ts';
import type { ImageData } from '../../../src/raster/image-data.ts';
import { postProcess, renderImage } from '../../../src/raster/render/index.ts';

function image(dtype: DType, fill: (i: number) => number, masked: (i: number) => boolean): ImageData {
  const w = 37;
  const h = 23;
  const band: TypedArray = allocate(dtype, w * h);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    band[i] = fill(i);
    mask[i] = masked(i) ? 0 : 255;
  }
  return {
    width: w,
    height: h,
    dtype,
    bands: [band],
    masks: [mask],
    bounds: [0, 0, 1, 1],
    crs: WGS84,
    bandNames: ['b1'],
    bandDescriptions: ['b1'],
    nodata: null,
    scales: [1],
    offsets: [0],
  };
}

async function pixels(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().raw().toBuffer();
}

function expected(img: ImageData, opts: Parameters<typeof postProcess>[1]): Buffer {
  const c = postProcess(img, opts);
  const n = c.width * c.height;
  const out = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) {
    if (c.alpha[i] === 0) continue;
    for (let k = 0; k < 3; k++) out[4 * i + k] = c.bands[k][i];
    out[4 * i + 3] = c.alpha[i];
  }
  return out;
}

describe('fast colormap PNG path', () => {
  const cases: Array<[string, ImageData, [number, number] | undefined]> = [
    [
      'uint16 rescaled',
      image(
        'uint16',
        (i) => (i * 97) % 5000,
        (i) => i % 11 === 0,
      ),
      [0, 4000],
    ],
    [
      'float32 rescaled with NaN',
      image(
        'float32',
        (i) => (i % 7 === 0 ? NaN : Math.sin(i) * 30),
        (i) => i % 13 === 0,
      ),
      [-10, 30],
    ],
    [
      'int16 negative range',
      image(
        'int16',
        (i) => (i % 200) - 100,
        () => false,
      ),
      [-50, 50],
    ],
    [
      'uint8 without rescale',
      image(
        'uint8',
        (i) => i % 256,
        (i) => i % 5 === 0,
      ),
      undefined,
    ],
  ];
  for (const [label, img, rescale] of cases) {
    for (const name of ['viridis', 'terrain']) {
      it(`${label}, ${name}`, async () => {
        const colormap = { kind: 'lut' as const, table: getColormap(name) };
        const opts = { rescale: rescale ? [rescale] : undefined, colormap };
        const out = await renderImage(img, { ...opts, format: 'png', returnMask: true });
        assert.equal(out.contentType, 'image/png');
        assert.ok((await pixels(out.body)).equals(expected(img, opts)));
      });
    }
  }
  it('auto format without transparent pixels still becomes JPEG', async () => {
    const img = image(
      'uint16',
      (i) => i,
      () => false,
    );
    const out = await renderImage(img, { rescale: [[0, 1000]], colormap: { kind: 'lut', table: getColormap('viridis') }, returnMask: true });
    assert.equal(out.contentType, 'image/jpeg');
  });
});
