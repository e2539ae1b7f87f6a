/** Warp kernels leave nodata samples out inline, per band, for every method. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DType, TypedArray } from '../../../src/dtype.ts';
import { allocate } from '../../../src/dtype.ts';
import type { WarpResampling } from '../../../src/raster/resampling.ts';
import { warpSample, type SourceRegion } from '../../../src/raster/warp/warp-sample.ts';

/** 4×4 window: band 1 = r*4+c with nodata at (1,1); band 2 = r*4+c + 100 everywhere. */
function region(nodata: number, dtype: DType = 'float32'): SourceRegion {
  const b1 = allocate(dtype, 16);
  const b2 = allocate(dtype, 16);
  for (let i = 0; i < 16; i++) {
    b1[i] = i;
    b2[i] = i + 100;
  }
  b1[5] = nodata;
  return { bands: [b1, b2], valid: null, nodata, col0: 0, row0: 0, width: 4, height: 4 };
}

/** One destination pixel whose centre maps to source (2, 2); returns both bands' values. */
function sample(method: WarpResampling, src: SourceRegion, scale = 2, dtype: DType = 'float64'): { values: number[]; written: number } {
  const bands: TypedArray[] = [allocate(dtype, 1), allocate(dtype, 1)];
  const written = new Uint8Array(1);
  warpSample(method, src, new Float64Array([2]), new Float64Array([2]), scale, scale, { bands, written, dtype });
  return { values: bands.map((b) => b[0]), written: written[0] };
}

describe('warpSample nodata', () => {
  // The 2×2 footprint / bilinear neighbourhood of (2, 2) holds source pixels 5 (nodata), 6, 9, 10.
  const cases: Array<[WarpResampling, number, number]> = [
    ['bilinear', 25 / 3, (105 + 106 + 109 + 110) / 4],
    ['average', 25 / 3, (105 + 106 + 109 + 110) / 4],
    ['min', 6, 105],
    ['max', 10, 110],
    ['sum', 25, 430],
    ['med', 9, 109],
    ['q1', 6, 106], // sorted[floor(0.25 · count)]
    ['q3', 10, 110],
    ['mode', 6, 105],
    ['rms', Math.sqrt((36 + 81 + 100) / 3), Math.sqrt((105 ** 2 + 106 ** 2 + 109 ** 2 + 110 ** 2) / 4)],
  ];
  for (const [method, band1, band2] of cases) {
    it(`${method}: the nodata sample is left out of band 1 only`, () => {
      const got = sample(method, region(-1));
      assert.equal(got.written, 255);
      assert.ok(Math.abs(got.values[0] - band1) < 1e-9, `${method} band 1: ${got.values[0]} vs ${band1}`);
      assert.ok(Math.abs(got.values[1] - band2) < 1e-9, `${method} band 2: ${got.values[1]} vs ${band2}`);
    });
  }

  it('a NaN nodata (and NaN samples) never contribute', () => {
    const got = sample('bilinear', region(NaN));
    assert.ok(Math.abs(got.values[0] - 25 / 3) < 1e-9);
    const med = sample('med', region(NaN));
    assert.equal(med.values[0], 9);
  });

  it('integer destinations are rounded and clamped', () => {
    const got = sample('average', region(7, 'uint8'), 2, 'uint8');
    assert.deepEqual(got.values, [Math.round(25 / 3), 108]); // 8.33 → 8; (105+106+109+110)/4 = 107.5 → 108
  });

  it('a footprint of nodata only writes nothing', () => {
    const src = region(-1);
    src.bands = [src.bands[0]];
    for (const i of [6, 9, 10]) src.bands[0][i] = -1;
    const bands = [new Float64Array([42])];
    const written = new Uint8Array(1);
    warpSample('average', src, new Float64Array([2]), new Float64Array([2]), 2, 2, { bands, written, dtype: 'float64' });
    assert.equal(bands[0][0], 42);
    assert.equal(written[0], 0);
  });
});

describe('warpSample nearest', () => {
  /** GWKNearest, written plainly: floor(coord + 1e-10), validity, nodata by value (NaN by NaN). */
  function reference(
    src: SourceRegion,
    sx: Float64Array,
    sy: Float64Array,
    dst: TypedArray[],
    written: Uint8Array,
    offset: number,
    stride: number,
    width: number,
  ): void {
    for (let i = 0; i < sx.length; i++) {
      const d = offset + Math.floor(i / width) * stride + (i % width);
      const c = Math.floor(sx[i]! + 1e-10) - src.col0;
      const r = Math.floor(sy[i]! + 1e-10) - src.row0;
      if (!(c >= 0 && r >= 0 && c < src.width && r < src.height)) continue;
      const k = r * src.width + c;
      if (src.valid !== null && src.valid[k] === 0) continue;
      src.bands.forEach((b, j) => {
        const v = b[k]!;
        if (src.nodata !== null && (Number.isNaN(src.nodata) ? Number.isNaN(v) : v === src.nodata)) return;
        dst[j]![d] = v;
        written[d] = 255;
      });
    }
  }
  const dtypes: DType[] = ['uint8', 'int8', 'uint16', 'int16', 'uint32', 'int32', 'float32', 'float64'];
  const nodatas: Array<number | null> = [null, 3, -1, 300, NaN];
  for (const dtype of dtypes) {
    for (const nodata of nodatas) {
      for (const withValid of [false, true]) {
        it(`${dtype}, nodata ${nodata}, ${withValid ? 'a validity mask' : 'no mask'}, into the same and into float64 bands`, () => {
          const w = 7;
          const h = 5;
          const bands = [allocate(dtype, w * h), allocate(dtype, w * h)];
          for (let i = 0; i < w * h; i++) {
            bands[0]![i] = (i * 5) % 11;
            bands[1]![i] = i % 3 === 0 ? -1 : (i * 7) % 13;
          }
          if (dtype.startsWith('float')) bands[0]![4] = NaN;
          const valid = withValid ? Uint8Array.from({ length: w * h }, (_, i) => (i % 4 === 1 ? 0 : 255)) : null;
          const src: SourceRegion = { bands, valid, nodata, col0: 2, row0: 1, width: w, height: h };
          const n = 6 * 4;
          const sx = Float64Array.from({ length: n }, (_, i) => 1.5 + (i % 6) * 1.4 + (i === 5 ? NaN : 0));
          const sy = Float64Array.from({ length: n }, (_, i) => 0.7 + Math.floor(i / 6) * 1.6 - 1e-11);
          for (const out of [dtype, 'float64' as DType]) {
            const got = [allocate(out, 40), allocate(out, 40)];
            const want = [allocate(out, 40), allocate(out, 40)];
            const gw = new Uint8Array(40);
            const ww = new Uint8Array(40);
            warpSample('nearest', src, sx, sy, 1, 1, { bands: got, written: gw, dtype: out }, { offset: 3, stride: 9, width: 6 });
            reference(src, sx, sy, want, ww, 3, 9, 6);
            assert.deepEqual(gw, ww);
            assert.deepEqual(got, want);
          }
        });
      }
    }
  }
});

describe('warpSample nearest with a memo (kept coordinates)', () => {
  it('gives what it gives without one, whether the window is the one remembered or another', () => {
    const w = 6;
    const band = allocate('uint16', w * w);
    for (let i = 0; i < band.length; i++) band[i] = i + 1;
    const sx = Float64Array.from({ length: 9 }, (_, i) => 1.2 + (i % 3) * 1.5);
    const sy = Float64Array.from({ length: 9 }, (_, i) => 1.1 + Math.floor(i / 3) * 1.5);
    const memo = {};
    const windows = [
      { col0: 0, row0: 0, valid: null },
      { col0: 0, row0: 0, valid: null },
      { col0: 1, row0: 0, valid: null },
      { col0: 1, row0: 0, valid: Uint8Array.from({ length: w * w }, (_, i) => (i % 2 ? 0 : 255)) },
      { col0: 1, row0: 0, valid: null },
    ];
    for (const { col0, row0, valid } of windows) {
      const src: SourceRegion = { bands: [band], valid, nodata: null, col0, row0, width: w, height: w };
      const run = (m?: object): Uint16Array => {
        const out = new Uint16Array(9);
        warpSample('nearest', src, sx, sy, 1, 1, { bands: [out], written: new Uint8Array(9), dtype: 'uint16' }, undefined, m);
        return out;
      };
      assert.deepEqual(run(memo), run());
    }
  });
});
