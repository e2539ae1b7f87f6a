import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { isRastileError } from '../../../src/errors.ts';
import { parseColormapParam, type ColorMap } from '../../../src/raster/colormap/index.ts';
import { parseColorFormula, renderImage } from '../../../src/raster/render/index.ts';
import { makeImage, maskWith } from './image.ts';
import { decodePng, pixel } from './png-decode.ts';

const W = 16;
const H = 16;
const N = W * H;

async function rejectsWith(p: Promise<unknown>, kind: string, message?: string) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(isRastileError(e), String(e));
    assert.equal(e.kind, kind);
    if (message !== undefined) assert.equal(e.message, message);
    return true;
  });
}

test('opaque uint8 image → automatic JPEG (1 band); explicit PNG → grey + alpha', async () => {
  const img = makeImage([new Uint8Array(N)], { width: W, height: H });
  const auto = await renderImage(img, { returnMask: true });
  assert.equal(auto.format, 'jpeg');
  assert.equal(auto.contentType, 'image/jpeg');
  const meta = await sharp(auto.body).metadata();
  assert.deepEqual([meta.format, meta.channels, meta.width, meta.height], ['jpeg', 1, W, H]);

  const png = decodePng((await renderImage(img, { format: 'png', returnMask: true })).body);
  assert.deepEqual([png.channels, png.depth, png.width, png.height], [2, 8, W, H]);
  assert.deepEqual(pixel(png, 3, 3), [0, 255]);
});

test('uint16: one masked pixel → PNG 2×uint8, none → JPEG 1×uint8, all masked → PNG', async () => {
  const data = new Uint16Array(N).fill(1000);
  const oneMasked = await renderImage(makeImage([data], { width: W, height: H, masks: [maskWith(N, [5])] }), { returnMask: true });
  assert.equal(oneMasked.format, 'png');
  const png = decodePng(oneMasked.body);
  assert.deepEqual([png.channels, png.depth], [2, 8]);
  // auto PNG is 8-bit: full uint16 range rescale, trunc(1000 / 65535 · 255) = 3
  assert.deepEqual(pixel(png, 0, 0), [3, 255]);
  assert.deepEqual(pixel(png, 5, 0), [0, 0]);

  const opaque = await renderImage(makeImage([data], { width: W, height: H }), { returnMask: true });
  assert.equal(opaque.format, 'jpeg');
  assert.equal((await sharp(opaque.body).metadata()).channels, 1);

  const empty = await renderImage(makeImage([data], { width: W, height: H, masks: [new Uint8Array(N)] }), { returnMask: true });
  assert.equal(empty.format, 'png');
  const e = decodePng(empty.body);
  assert.deepEqual([e.channels, e.depth], [2, 8]);
  assert.ok(e.data.every((v) => v === 0));
});

test('explicit .png of uint16 data is a 16-bit PNG with a 0/65535 alpha', async () => {
  const data = Uint16Array.from({ length: N }, (_, i) => i * 200);
  const img = makeImage([data], { width: W, height: H, masks: [maskWith(N, [1])] });
  for (const format of ['png', 'pngraw'] as const) {
    const png = decodePng((await renderImage(img, { format, returnMask: true })).body);
    assert.deepEqual([png.channels, png.depth], [2, 16]);
    assert.deepEqual(pixel(png, 2, 0), [400, 65535]);
    assert.deepEqual(pixel(png, 1, 0), [0, 0]);
    assert.deepEqual(pixel(png, 15, 15), [51000, 65535]);
  }
});

test('rescale truncates (500 with 0,1000 → 127); one range serves every band', async () => {
  const b = new Uint16Array(N).fill(500);
  const c = new Uint16Array(N).fill(2000);
  const img = makeImage([b, b, c], { width: W, height: H, masks: [maskWith(N, [0]), maskWith(N, []), maskWith(N, [])] });
  const one = decodePng((await renderImage(img, { format: 'png', rescale: [[0, 1000]], returnMask: true })).body);
  assert.deepEqual([one.channels, one.depth], [4, 8]);
  assert.deepEqual(pixel(one, 1, 0), [127, 127, 255, 255]);
  // pixel 0 is masked in band 1 only: still valid (any band valid), band 1 value rescaled to 0
  assert.deepEqual(pixel(one, 0, 0), [0, 127, 255, 255]);
  const per = decodePng(
    (
      await renderImage(img, {
        format: 'png',
        rescale: [
          [0, 1000],
          [0, 500],
          [1000, 3000],
        ],
        returnMask: true,
      })
    ).body,
  );
  assert.deepEqual(pixel(per, 1, 0), [127, 255, 127, 255]);
});

test('float data without rescale: dtype-range coercion, masks stay correct (TiTiler quirk fixed)', async () => {
  const data = Float32Array.from({ length: N }, (_, i) => (i % 2 ? 1e38 : -5));
  const img = makeImage([data], { width: W, height: H, masks: [maskWith(N, [3])] });
  const png = decodePng((await renderImage(img, { format: 'png', returnMask: true })).body);
  assert.deepEqual([png.channels, png.depth], [2, 8]);
  assert.deepEqual(pixel(png, 0, 0), [127, 255]);
  // float32 overflow in `v − min` (numpy does the same in float32): huge values give 0
  assert.deepEqual(pixel(png, 1, 0), [0, 255]);
  assert.deepEqual(pixel(png, 3, 0), [0, 0]);
  // dataset statistics replace the dtype range
  const stats = makeImage([Float32Array.from({ length: N }, (_, i) => i / 25.5)], {
    width: W,
    height: H,
    datasetStatistics: [[0, 10]],
  });
  const s = decodePng((await renderImage(stats, { format: 'png', returnMask: true })).body);
  assert.deepEqual(pixel(s, 1, 0), [1, 255]);
  assert.deepEqual(pixel(s, 15, 15), [255, 255]);
});

test('JPEG drops the mask; WebP repeats one band to RGB and keeps alpha', async () => {
  const img = makeImage([new Uint8Array(N).fill(90)], { width: W, height: H, masks: [maskWith(N, [0])] });
  const jpeg = await renderImage(img, { format: 'jpg', returnMask: true });
  assert.equal(jpeg.contentType, 'image/jpg');
  const jm = await sharp(jpeg.body).metadata();
  assert.deepEqual([jm.format, jm.channels, jm.hasAlpha], ['jpeg', 1, false]);

  const webp = await renderImage(img, { format: 'webp', returnMask: true });
  assert.equal(webp.contentType, 'image/webp');
  const wm = await sharp(webp.body).metadata();
  assert.deepEqual([wm.format, wm.channels, wm.hasAlpha, wm.width], ['webp', 4, true, W]);
  const { data } = await sharp(webp.body).raw().toBuffer({ resolveWithObject: true });
  assert.equal(data[3], 0);
  assert.equal(data[4 * 20 + 3], 255);
  assert.ok(Math.abs(data[4 * 20] - 90) <= 3);
  const noMask = await sharp((await renderImage(img, { format: 'webp', returnMask: false })).body).metadata();
  assert.deepEqual([noMask.channels, noMask.hasAlpha], [3, false]);
});

test('float data with a discrete colormap → opaque JPEG RGB (TiTiler pin)', async () => {
  const data = new Float32Array(N).fill(1);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) data[y * W + x] = 1000;
  const cmap = parseColormapParam('{"1":[0,0,0,255],"1000":[255,255,255,255]}') as ColorMap;
  const out = await renderImage(makeImage([data], { width: W, height: H }), { colormap: cmap, returnMask: true });
  assert.equal(out.format, 'jpeg');
  const { data: px, info } = await sharp(out.body).raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 3);
  const at = (x: number, y: number) => [...px.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)];
  for (const v of at(0, 0)) assert.ok(v >= 250);
  for (const v of at(11, 11)) assert.ok(v <= 5);
});

test('partial-alpha colormap → PNG; transparent pixels have colour 0 (TiTiler pin)', async () => {
  const data = Uint8Array.from({ length: N }, (_, i) => i % 4);
  const img = makeImage([data], { width: W, height: H, masks: [maskWith(N, [0])] });
  const cmap = parseColormapParam('{"0":[9,9,9,255],"1":[10,20,30,0],"2":[100,100,100,50],"3":[255,255,255,255]}') as ColorMap;
  const out = await renderImage(img, { colormap: cmap, returnMask: true });
  assert.equal(out.format, 'png');
  const png = decodePng(out.body);
  assert.deepEqual([png.channels, png.depth], [4, 8]);
  assert.deepEqual(pixel(png, 0, 0), [0, 0, 0, 0]); // masked
  assert.deepEqual(pixel(png, 1, 0), [0, 0, 0, 0]); // colormap alpha 0
  assert.deepEqual(pixel(png, 2, 0), [100, 100, 100, 50]);
  assert.deepEqual(pixel(png, 3, 0), [255, 255, 255, 255]);
  assert.deepEqual(pixel(png, 0, 1), [9, 9, 9, 255]); // value 0, valid
});

test('a colormap alpha between 1 and 254 does not make the automatic format PNG', async () => {
  const img = makeImage([new Uint8Array(N).fill(2)], { width: W, height: H });
  const cmap = parseColormapParam('{"2":[100,100,100,50]}') as ColorMap;
  assert.equal((await renderImage(img, { colormap: cmap, returnMask: true })).format, 'jpeg');
});

test('the dataset palette applies to 1-band data when no colormap is given', async () => {
  const palette = new Map<number, [number, number, number, number]>([
    [0, [0, 0, 0, 0]],
    [1, [255, 0, 0, 255]],
  ]);
  const one = makeImage([Uint8Array.from({ length: N }, (_, i) => i % 2)], { width: W, height: H, colormap: palette });
  const out = await renderImage(one, { returnMask: true });
  assert.equal(out.format, 'png');
  const png = decodePng(out.body);
  assert.deepEqual(pixel(png, 1, 0), [255, 0, 0, 255]);
  assert.deepEqual(pixel(png, 0, 0), [0, 0, 0, 0]);
  // a user colormap wins over the palette
  const user = decodePng((await renderImage(one, { format: 'png', colormap: parseColormapParam('{"0":[1,2,3],"1":[4,5,6]}')!, returnMask: true })).body);
  assert.deepEqual(pixel(user, 0, 0), [1, 2, 3, 255]);
  // multi-band data ignores the palette (2 bands + mask are written as RGB, like GDAL)
  const two = makeImage([new Uint8Array(N).fill(1), new Uint8Array(N).fill(1)], { width: W, height: H, colormap: palette });
  const plain = decodePng((await renderImage(two, { format: 'png', returnMask: true })).body);
  assert.deepEqual([plain.channels, ...pixel(plain, 0, 0)], [3, 1, 1, 255]);
});

test('a source alpha band keeps partial transparency', async () => {
  const alpha = Uint8Array.from({ length: N }, (_, i) => (i === 0 ? 0 : i === 1 ? 128 : 255));
  const img = makeImage([new Uint8Array(N).fill(7)], { width: W, height: H, masks: [maskWith(N, [0])], alpha });
  const png = decodePng((await renderImage(img, { format: 'png', returnMask: true })).body);
  assert.deepEqual(
    [pixel(png, 0, 0), pixel(png, 1, 0), pixel(png, 2, 0)],
    [
      [0, 0],
      [7, 128],
      [7, 255],
    ],
  );
});

test('return_mask=false writes no alpha band', async () => {
  const img = makeImage([new Uint8Array(N).fill(7)], { width: W, height: H, masks: [maskWith(N, [0])] });
  const out = await renderImage(img, { returnMask: false });
  assert.equal(out.format, 'png'); // the choice still looks at the mask
  const png = decodePng(out.body);
  assert.equal(png.channels, 1);
  assert.deepEqual(pixel(png, 0, 0), [7]);
});

test('color formula runs after rescale', async () => {
  const band = new Uint16Array(N).fill(250);
  const img = makeImage([band, band, band], { width: W, height: H });
  const png = decodePng((await renderImage(img, { format: 'png', rescale: [[0, 1000]], colorFormula: parseColorFormula('gamma r 2'), returnMask: true })).body);
  // 250 → 63; gamma: trunc((63/255)^(1/2) · 255) = 126
  assert.deepEqual(pixel(png, 0, 0), [126, 63, 63, 255]);
});

test("encoding errors carry TiTiler's message (InvalidFormat)", async () => {
  const u8 = () => new Uint8Array(4);
  const four = makeImage([u8(), u8(), u8(), u8()], { width: 2, height: 2 });
  await rejectsWith(
    renderImage(four, { format: 'png', returnMask: true }),
    'InvalidFormat',
    'Could not encode array of shape (4,2,2) and of datatype `uint8` using PNG driver',
  );
  assert.equal(decodePng((await renderImage(four, { format: 'png', returnMask: false })).body).channels, 4);
  await rejectsWith(
    renderImage(makeImage([new Float32Array(4)], { width: 2, height: 2 }), { format: 'pngraw', returnMask: true }),
    'InvalidFormat',
    'Could not encode array of shape (1,2,2) and of datatype `float32` using PNG driver',
  );
  await rejectsWith(renderImage(makeImage([new Int16Array(4)], { width: 2, height: 2 }), { format: 'pngraw', returnMask: true }), 'InvalidFormat');
  await rejectsWith(
    renderImage(makeImage([u8(), u8()], { width: 2, height: 2 }), { format: 'jpeg', returnMask: true }),
    'InvalidFormat',
    'Could not encode array of shape (2,2,2) and of datatype `uint8` using JPEG driver',
  );
  await rejectsWith(renderImage(four, { format: 'webp', returnMask: true }), 'InvalidFormat');
});

test('explicit .png of int16 data is coerced to 8-bit over the dtype range', async () => {
  const img = makeImage([Int16Array.from([-32768, 0, 32767, 100])], { width: 2, height: 2 });
  const png = decodePng((await renderImage(img, { format: 'png', returnMask: true })).body);
  assert.deepEqual([png.depth, ...png.data], [8, 0, 255, 127, 255, 255, 255, 127, 255]);
});

test('pipeline errors: colormap on multi-band data, formula on floats or missing bands, JP2', async () => {
  const two = makeImage([new Uint8Array(4), new Uint8Array(4)], { width: 2, height: 2 });
  await rejectsWith(renderImage(two, { colormap: parseColormapParam('{"0":[0,0,0]}')!, returnMask: true }), 'BadRequest', 'Source data must be 1 band');
  await rejectsWith(
    renderImage(makeImage([new Float32Array(4)], { width: 2, height: 2 }), {
      colorFormula: parseColorFormula('gamma r 2'),
      returnMask: true,
    }),
    'BadRequest',
  );
  await rejectsWith(
    renderImage(makeImage([new Uint8Array(4)], { width: 2, height: 2 }), {
      colorFormula: parseColorFormula('gamma b 2'),
      returnMask: true,
    }),
    'BadRequest',
    'color_formula gamma uses band 3 but the image has 1 band(s)',
  );
  await rejectsWith(
    renderImage(two, { colorFormula: parseColorFormula('saturation 2'), returnMask: true }),
    'BadRequest',
    'color_formula saturation needs 3 bands but the image has 2',
  );
  await assert.rejects(renderImage(two, { format: 'jp2', returnMask: true }), /JPEG 2000/); // 2×2: the codec refuses such small images
});
