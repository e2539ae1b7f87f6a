/**
 * GIF frames and animations: the colormap fast path (gif-colormap-frame.ts) gives the pixels of
 * the generic path (postProcess → 8 bits → RGBA → indexFrame), and encodeAnimatedGif's
 * repeated frames (the first frame's repeats reuse its block on the global colour table) decode,
 * with Pillow, to the frames given, in order, with their delay.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { DType, TypedArray } from '../../../src/dtype.ts';
import { allocate } from '../../../src/dtype.ts';
import { getColormap } from '../../../src/raster/colormap/index.ts';
import type { ColorMap } from '../../../src/raster/colormap/types.ts';
import type { ImageData } from '../../../src/raster/image-data.ts';
import { coerceDtype } from '../../../src/raster/render/dtype-coerce.ts';
import { canvasToRgba, encodeAnimatedGif, indexFrame, type IndexedFrame } from '../../../src/raster/render/encode-gif.ts';
import { colormapGifFrame } from '../../../src/raster/render/gif-colormap-frame.ts';
import { postProcess, type RenderOptions } from '../../../src/raster/render/render-image.ts';
import { makeImage } from './image.ts';
import { rgbaOf } from '../../helpers/gif-pixels.ts';

const W = 37;
const H = 23;

function image(dtype: DType, fill: (i: number) => number, masked: (i: number) => boolean, bands = 1): ImageData {
  const data: TypedArray[] = [];
  for (let b = 0; b < bands; b++) {
    const band = allocate(dtype, W * H);
    for (let i = 0; i < W * H; i++) band[i] = fill(i + b);
    data.push(band);
  }
  const mask = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) mask[i] = masked(i) ? 0 : 255;
  return makeImage(data, { width: W, height: H, masks: data.map(() => mask) });
}

function generic(img: ImageData, options: Omit<RenderOptions, 'format'>): IndexedFrame {
  const canvas = coerceDtype(postProcess(img, options), 'jpeg', false, img.datasetStatistics);
  return indexFrame(canvasToRgba(canvas, options.returnMask), canvas.width, canvas.height);
}

/** A LUT with every third entry transparent (alpha 0) and some entries sharing a colour. */
function holeyLut(): ColorMap {
  const table = new Uint8Array(1024);
  for (let k = 0; k < 256; k++) table.set([k % 50, (k * 3) % 256, 255 - k, k % 3 === 0 ? 0 : 200], 4 * k);
  return { kind: 'lut', table };
}

describe('colormapGifFrame: the generic path’s pixels', () => {
  const viridis: ColorMap = { kind: 'lut', table: getColormap('viridis') };
  const cases: Array<[string, ImageData, Omit<RenderOptions, 'format'>]> = [
    [
      'uint16, rescale, viridis, masked pixels',
      image(
        'uint16',
        (i) => 1000 + ((i * 37) % 5000),
        (i) => i % 13 === 0,
      ),
      { rescale: [[2000, 5000]], colormap: viridis, returnMask: true },
    ],
    [
      'float32, rescale, viridis',
      image(
        'float32',
        (i) => Math.sin(i / 9) * 3.3,
        (i) => i % 29 === 0,
      ),
      { rescale: [[-2, 2]], colormap: viridis, returnMask: true },
    ],
    [
      'int16, rescale, negative values',
      image(
        'int16',
        (i) => (i % 400) - 200,
        () => false,
      ),
      { rescale: [[-150, 150]], colormap: viridis, returnMask: true },
    ],
    [
      'uint8, no rescale, entries with alpha 0 and shared colours',
      image(
        'uint8',
        (i) => i % 256,
        (i) => i % 7 === 0,
      ),
      { colormap: holeyLut(), returnMask: true },
    ],
  ];
  for (const [name, img, options] of cases) {
    it(name, () => {
      const fast = colormapGifFrame(img, options);
      assert.ok(fast !== null, 'the fast path applies');
      assert.deepEqual(rgbaOf(fast), rgbaOf(generic(img, options)));
      assert.ok(fast.palette.length <= 256);
    });
  }

  it('a colormap without transparent entries: one shared palette, equal colours share the first index', () => {
    const pairs = new Uint8Array(1024);
    for (let k = 0; k < 256; k++) pairs.set([k >> 1, 100, 255 - (k >> 1), 255], 4 * k); // entries 2m and 2m+1 alike
    const options = { colormap: { kind: 'lut', table: pairs } as ColorMap, returnMask: true };
    const img = image(
      'uint8',
      (i) => i % 256,
      (i) => i % 11 === 0,
    );
    const f = colormapGifFrame(img, options)!;
    assert.equal(f.palette.length, 256);
    assert.equal(colormapGifFrame(img, options)!.palette, f.palette, 'the same palette array for every frame');
    for (let i = 0; i < W * H; i++) if (i % 11 !== 0) assert.equal(f.index[i], (i % 256) & ~1, `pixel ${i}`);
    assert.deepEqual(rgbaOf(f), rgbaOf(generic(img, options)));
  });

  it('leaves other frames to the generic path', () => {
    const viridis: ColorMap = { kind: 'lut', table: getColormap('viridis') };
    assert.equal(
      colormapGifFrame(
        image(
          'uint16',
          (i) => i,
          () => false,
        ),
        { colormap: viridis, returnMask: true },
      ),
      null,
      'uint16 without rescale',
    );
    assert.equal(
      colormapGifFrame(
        image(
          'uint8',
          (i) => i,
          () => false,
          3,
        ),
        { colormap: viridis, returnMask: true },
      ),
      null,
      '3 bands',
    );
    assert.equal(
      colormapGifFrame(
        image(
          'uint8',
          (i) => i,
          () => false,
        ),
        { returnMask: true },
      ),
      null,
      'no colormap',
    );
    assert.equal(
      colormapGifFrame(
        image(
          'uint8',
          (i) => i,
          () => false,
        ),
        { colormap: viridis, returnMask: false },
      ),
      null,
      'no mask',
    );
    // 256 distinct colours used plus a transparent pixel: 257 colours
    const distinct = new Uint8Array(1024);
    for (let k = 0; k < 256; k++) distinct.set([k, 255 - k, k >> 1, 255], 4 * k);
    const all = image(
      'uint8',
      (i) => i % 256,
      (i) => i === 300,
    );
    assert.equal(colormapGifFrame(all, { colormap: { kind: 'lut', table: distinct }, returnMask: true }), null, '257 colours');
  });
});

describe('encodeAnimatedGif: repeated frames, decoded by Pillow', () => {
  it('gives the frames in order, the first one repeated from the global colour table', () => {
    const viridis: ColorMap = { kind: 'lut', table: getColormap('viridis') };
    const a = colormapGifFrame(
      image(
        'uint16',
        (i) => (i * 11) % 3000,
        (i) => i % 5 === 0,
      ),
      { rescale: [[0, 3000]], colormap: viridis, returnMask: true },
    )!;
    const b = colormapGifFrame(
      image(
        'uint8',
        (i) => (i * 7) % 256,
        () => false,
      ),
      { colormap: holeyLut(), returnMask: true },
    )!;
    const c = generic(
      image(
        'uint8',
        (i) => (i * 5) % 256,
        () => false,
        3,
      ),
      { returnMask: true },
    );
    // another viridis frame: the same palette array as a's (the whole colormap), so no local table
    const d = colormapGifFrame(
      image(
        'uint16',
        (i) => 500 + ((i * 13) % 2000),
        (i) => i % 9 === 0,
      ),
      { rescale: [[0, 3000]], colormap: viridis, returnMask: true },
    )!;
    assert.equal(d.palette, a.palette, 'one palette array per colormap');
    assert.equal(d.palette.length, 256);
    const copied = { ...d, palette: d.palette.map((rgb) => [...rgb]) };
    assert.equal(encodeAnimatedGif([a, copied], 250).length - encodeAnimatedGif([a, d], 250).length, 3 * 256, 'the shared palette is written once');
    // (c last: after an opaque frame, Pillow disposes to palette entry 0, opaque, whatever the encoder)
    const order = [a, a, b, d, a, d, c, c];
    const dir = mkdtempSync(path.join(tmpdir(), 'rastile-gif-'));
    try {
      writeFileSync(path.join(dir, 'a.gif'), encodeAnimatedGif(order, 250));
      const script = `
import sys, json
from PIL import Image, ImageSequence
im = Image.open(sys.argv[1])
out = {'loop': im.info.get('loop'), 'frames': []}
for f in ImageSequence.Iterator(im):
    px = f.convert('RGBA').tobytes()
    out['frames'].append({'duration': f.info.get('duration'), 'rgba': [0 if px[i + 3] == 0 else v for i in range(0, len(px), 4) for v in px[i:i + 4]]})
print(json.dumps(out))`;
      const got = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, path.join(dir, 'a.gif')], { encoding: 'utf8', maxBuffer: 64 << 20 })) as {
        loop: number;
        frames: Array<{ duration: number; rgba: number[] }>;
      };
      assert.equal(got.loop, 0);
      assert.equal(got.frames.length, order.length);
      got.frames.forEach((f, i) => {
        assert.equal(f.duration, 250);
        assert.deepEqual(Uint8Array.from(f.rgba), rgbaOf(order[i]!), `frame ${i}`);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('colormapGifFrame: 16-bit frames of 2¹⁷ pixels and more (value → index table)', () => {
  const viridis: ColorMap = { kind: 'lut', table: getColormap('viridis') };
  const BW = 512;
  const BH = 300;
  const big = (dtype: DType, fill: (i: number) => number): ImageData => {
    const band = allocate(dtype, BW * BH);
    const mask = new Uint8Array(BW * BH);
    for (let i = 0; i < BW * BH; i++) {
      band[i] = fill(i);
      mask[i] = i % 17 === 0 ? 0 : 255;
    }
    return makeImage([band], { width: BW, height: BH, masks: [mask] });
  };
  const cases: Array<[DType, (i: number) => number, [number, number]]> = [
    ['uint16', (i) => (i * 7919) % 65536, [2000, 6000]],
    ['uint16', (i) => (i * 7919) % 65536, [0.5, 60000.25]],
    ['int16', (i) => ((i * 7919) % 65536) - 32768, [-1000, 20000]],
    ['uint16', (i) => (i * 7919) % 65536, [2000, 6000]], // the first table again
  ];
  for (const [dtype, fill, range] of cases) {
    it(`${dtype}, rescale ${range}: the generic path's pixels`, () => {
      const img = big(dtype, fill);
      const options = { rescale: [range], colormap: viridis, returnMask: true };
      const fast = colormapGifFrame(img, options);
      assert.ok(fast !== null);
      assert.deepEqual(rgbaOf(fast), rgbaOf(generic(img, options)));
    });
  }
});
