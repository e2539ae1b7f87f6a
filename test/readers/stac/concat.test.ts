import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { WGS84 } from '../../../src/geo/crs.ts';
import { allocate, type DType } from '../../../src/dtype.ts';
import type { ImageData } from '../../../src/raster/image-data.ts';
import { concatAssetImages } from '../../../src/readers/stac/concat.ts';
import { promoteDtypes } from '../../../src/raster/dtype-promote.ts';
import { resizeNearest } from '../../../src/raster/resize.ts';

function image(dtype: DType, width: number, height: number, bands: number[][], masks?: number[][]): ImageData {
  const n = width * height;
  const shared = new Uint8Array(n).fill(255);
  return {
    width,
    height,
    dtype,
    bands: bands.map((v) => {
      const a = allocate(dtype, n);
      a.set(v);
      return a;
    }),
    masks: masks ? masks.map((m) => Uint8Array.from(m)) : bands.map(() => shared),
    bounds: [0, 0, width, height],
    crs: WGS84,
    bandNames: bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: bands.map((_, i) => `b${i + 1}`),
    nodata: 0,
    scales: bands.map(() => 1),
    offsets: bands.map(() => 0),
  };
}

describe('numpy concatenate dtype', () => {
  it('matches numpy.result_type on arrays', () => {
    const cases: Array<[DType[], DType]> = [
      [['uint16', 'uint16'], 'uint16'],
      [['uint8', 'uint16'], 'uint16'],
      [['uint8', 'int8'], 'int16'],
      [['uint16', 'int8'], 'int32'],
      [['uint16', 'int16'], 'int32'],
      [['int16', 'int32'], 'int32'],
      [['uint8', 'int16'], 'int16'],
      [['uint32', 'int8'], 'float64'], // int64 in numpy
      [['uint16', 'float32'], 'float32'],
      [['int16', 'float32'], 'float32'],
      [['uint32', 'float32'], 'float64'],
      [['int32', 'float32'], 'float64'],
      [['float32', 'float64'], 'float64'],
      [['uint8', 'uint32'], 'uint32'],
    ];
    for (const [inputs, want] of cases) assert.equal(promoteDtypes(inputs), want, inputs.join('+'));
  });
});

describe('nearest resize', () => {
  it('2× upsampling repeats pixels; shared masks stay shared', () => {
    const img = image('uint16', 2, 2, [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    const out = resizeNearest(img, 4, 4);
    assert.deepEqual([...out.bands[0]], [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
    assert.equal(out.masks[0], out.masks[1]);
  });

  it('non-integer ratios sample floor((i + 0.5) * src / dst)', () => {
    const img = image('uint8', 3, 1, [[10, 20, 30]], [[255, 0, 255]]);
    const out = resizeNearest(img, 5, 1);
    // (i+0.5)*0.6 → 0.3, 0.9, 1.5, 2.1, 2.7
    assert.deepEqual([...out.bands[0]], [10, 10, 20, 30, 30]);
    assert.deepEqual([...out.masks[0]], [255, 255, 0, 255, 255]);
  });
});

describe('asset concatenation', () => {
  it('renames bands, describes them by asset, promotes dtypes, resizes to the largest', () => {
    const a = image('uint16', 2, 2, [[1, 2, 3, 4]]);
    const b = image('int16', 1, 1, [[-5]]);
    const out = concatAssetImages(
      [
        { asset: 'A', img: a },
        { asset: 'B', img: b },
      ],
      false,
    );
    assert.equal(out.dtype, 'int32');
    assert.deepEqual([out.width, out.height], [2, 2]);
    assert.deepEqual(out.bandNames, ['b1', 'b2']);
    assert.deepEqual(out.bandDescriptions, ['A_b1', 'B_b1']);
    assert.deepEqual([...out.bands[1]], [-5, -5, -5, -5]);
    assert.ok(out.bands[0] instanceof Int32Array, 'uint16 band cast to int32');
  });

  it('asset_as_band: names the band after the asset, only for 1-band assets', () => {
    const a = image('uint8', 1, 1, [[1]]);
    const rgb = image('uint8', 1, 1, [[1], [2], [3]]);
    assert.deepEqual(concatAssetImages([{ asset: 'A', img: a }], true).bandDescriptions, ['A']);
    assert.throws(
      () =>
        concatAssetImages(
          [
            { asset: 'A', img: a },
            { asset: 'rgb', img: rgb },
          ],
          true,
        ),
      (e: unknown) => isRastileError(e, 'BadRequest') && /multibands asset: 'rgb'/.test(e.message),
    );
  });

  it('dataset statistics only when every asset has them', () => {
    const a = { ...image('uint16', 1, 1, [[1]]), datasetStatistics: [[0, 10]] as Array<[number, number]> };
    const b = image('uint16', 1, 1, [[1]]);
    assert.deepEqual(
      concatAssetImages(
        [
          { asset: 'A', img: a },
          { asset: 'A2', img: a },
        ],
        false,
      ).datasetStatistics,
      [
        [0, 10],
        [0, 10],
      ],
    );
    assert.equal(
      concatAssetImages(
        [
          { asset: 'A', img: a },
          { asset: 'B', img: b },
        ],
        false,
      ).datasetStatistics,
      undefined,
    );
  });
});
