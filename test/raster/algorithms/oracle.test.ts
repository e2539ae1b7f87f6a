/**
 * Every algorithm against the numpy oracle (scripts/fixtures/algorithms_oracle.py, TiTiler's
 * numpy.ma code with numpy 2 dtype rules): size, dtype, bounds, band descriptions and masks
 * exactly; values at valid pixels exactly for integer outputs, within 1e-5 relative for floats.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { type DType, isFloat } from '../../../src/dtype.ts';
import { applyAlgorithm, validateAlgorithmParams } from '../../../src/raster/algorithms/index.ts';
import { decodeArray, decodeImage, oracle, type OracleCase } from './fixtures.ts';

const doc = oracle();

function label(c: OracleCase): string {
  return `${c.algorithm} on ${c.input} ${JSON.stringify(c.params)}`;
}

function decodeWide(b64: string, dtype: string): number[] {
  const buf = Buffer.from(b64, 'base64');
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  const arr = dtype === 'int64' ? new BigInt64Array(copy.buffer) : new BigUint64Array(copy.buffer);
  return Array.from(arr, Number);
}

const close = (a: number, b: number): boolean =>
  (Number.isNaN(a) && Number.isNaN(b)) || a === b || Math.abs(a - b) <= 1e-5 * Math.max(Math.abs(a), Math.abs(b));

describe('algorithms vs numpy oracle', () => {
  test('fixture covers all 18 algorithms', () => {
    assert.equal(new Set(doc.cases.map((c) => c.algorithm)).size, 18);
  });

  for (const c of doc.cases) {
    test(label(c), async () => {
      const img = decodeImage(doc.inputs[c.input]);
      const params = validateAlgorithmParams(c.algorithm, c.params);
      if (c.error !== undefined) {
        await assert.rejects(
          () => applyAlgorithm(c.algorithm, params, img),
          (e: unknown) => isRastileError(e, 'BadRequest') && e.message === c.error,
        );
        return;
      }
      const exp = c.expected!;
      const out = await applyAlgorithm(c.algorithm, params, img);
      assert.equal(out.width, exp.width);
      assert.equal(out.height, exp.height);
      // numpy's int64/uint64 sums are float64 in our image model
      const wide = exp.dtype === 'int64' || exp.dtype === 'uint64';
      assert.equal(out.dtype, wide ? 'float64' : exp.dtype);
      assert.deepEqual(out.bounds, exp.bounds);
      assert.deepEqual(out.bandDescriptions, exp.bandDescriptions);
      assert.equal(out.bands.length, exp.bands.length);
      assert.equal(out.masks.length, exp.bands.length);
      assert.deepEqual(out.nodata, null);
      for (let b = 0; b < exp.bands.length; b++) {
        const want = wide ? decodeWide(exp.bands[b], exp.dtype) : decodeArray(exp.bands[b], exp.dtype as DType);
        const wantMask = decodeArray(exp.masks[b], 'uint8');
        assert.equal(out.bands[b].length, want.length);
        assert.deepEqual(out.masks[b], wantMask, `mask of band ${b + 1}`);
        const bad: string[] = [];
        for (let i = 0; i < want.length; i++) {
          if (wantMask[i] === 0) continue;
          const ok = !wide && isFloat(exp.dtype as DType) ? close(out.bands[b][i], want[i]) : out.bands[b][i] === want[i];
          if (!ok) bad.push(`[${i}] ${out.bands[b][i]} != ${want[i]}`);
        }
        assert.deepEqual(bad.slice(0, 5), [], `band ${b + 1}: ${bad.length} pixels differ`);
      }
    });
  }
});
