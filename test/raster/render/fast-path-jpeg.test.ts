/**
 * The fast colormap path encodes the automatic format's JPEG from its own RGB: the bytes are
 * exactly those of the generic pipeline (postProcess → coerceDtype → encodeCanvas).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WGS84 } from '../../../src/geo/crs.ts';
import { getColormap } from '../../../src/raster/colormap/index.ts';
import type { ColorMap } from '../../../src/raster/colormap/types.ts';
import type { DType, TypedArray } from '../../../src/dtype.ts';
import { allocate } from '../../../src/dtype.ts';
import type { ImageData, Rgba } from '../../../src/raster/image-data.ts';
import { coerceDtype } from '../../../src/raster/render/dtype-coerce.ts';
import { encodeCanvas } from '../../../src/raster/render/encode-canvas.ts';
import { postProcess, renderImage } from '../../../src/raster/render/index.ts';

function image(dtype: DType, fill: (i: number) => number): ImageData {
  const w = 41;
  const h = 29;
  const band: TypedArray = allocate(dtype, w * h);
  for (let i = 0; i < w * h; i++) band[i] = fill(i);
  const mask = new Uint8Array(w * h).fill(255);
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

async function generic(img: ImageData, opts: { rescale?: Array<[number, number]>; colormap?: ColorMap }): Promise<Buffer> {
  const canvas = coerceDtype(postProcess(img, opts), 'jpeg', true, img.datasetStatistics);
  return encodeCanvas(canvas, 'jpeg', true, img);
}

describe('fast colormap path, automatic format without transparency → JPEG', () => {
  const viridis: ColorMap = { kind: 'lut', table: getColormap('viridis') };
  // a partly transparent (alpha 128, not 0) colormap keeps JPEG too
  const halfAlpha = getColormap('terrain').slice();
  for (let k = 3; k < 1024; k += 4) halfAlpha[k] = 128;
  const cases: Array<[string, ImageData, Array<[number, number]> | undefined, ColorMap | undefined]> = [
    ['uint16 rescaled, viridis', image('uint16', (i) => (i * 37) % 3000), [[0, 2500]], viridis],
    ['float32 rescaled, alpha 128', image('float32', (i) => Math.cos(i) * 40), [[-30, 30]], { kind: 'lut', table: halfAlpha }],
    ['uint8, viridis', image('uint8', (i) => (i * 7) % 256), undefined, viridis],
  ];
  for (const [label, img, rescale, colormap] of cases) {
    it(label, async () => {
      const out = await renderImage(img, { rescale, colormap, returnMask: true });
      assert.equal(out.contentType, 'image/jpeg');
      assert.equal(out.format, 'jpeg');
      assert.ok(out.body.equals(await generic(img, { rescale, colormap })), 'same JPEG bytes as the generic path');
    });
  }

  it('a dataset palette (256 entries) gives the same JPEG as the generic path', async () => {
    const palette = new Map<number, Rgba>();
    for (let k = 0; k < 256; k++) palette.set(k, [k, 255 - k, (k * 3) & 255, 255]);
    const img = { ...image('uint8', (i) => i % 256), colormap: palette };
    const out = await renderImage(img, { returnMask: true });
    assert.equal(out.contentType, 'image/jpeg');
    assert.ok(out.body.equals(await generic(img, {})));
  });
});
