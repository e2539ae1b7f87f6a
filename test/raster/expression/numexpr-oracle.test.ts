/** Band-math results and dtypes against numexpr 2.8.4 + numpy.nan_to_num (fixtures from scripts/fixtures/stats_oracle.py). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression, parseExpression } from '../../../src/raster/expression/index.ts';
import { isRastileError } from '../../../src/errors.ts';
import type { TypedArray } from '../../../src/dtype.ts';
import { loadArray, loadJson, type ArrayRef } from '../fixture-data.ts';

interface Result {
  expr: string;
  dtype?: string;
  values?: ArrayRef;
  error?: string;
}
interface Fixture {
  cases: Array<{ dtype: string; length: number; bands: Record<string, ArrayRef>; results: Result[] }>;
  stacks: Array<{ blocks: string[]; dtype: string }>;
  stackInputs: Record<string, ArrayRef>;
}

const fixture = loadJson<Fixture>('expressions.json');

/** numexpr dtype → ours: bool → uint8 (0/1), int64 → float64 (we have no int64). */
const OUR_DTYPE: Record<string, string> = { bool: 'uint8', int32: 'int32', int64: 'float64', float32: 'float32', float64: 'float64' };

/** numexpr 2.8.4 raises for these; we evaluate them (documented extensions). */
const EXTENSIONS = new Set(['b1**b2', 'b1<<1', 'b1>>1']);

function close(got: number, want: number, dtype: string): boolean {
  if (Object.is(got, want) || got === want) return true;
  const tol = dtype === 'float32' ? 4e-7 : 1e-13;
  return Math.abs(got - want) <= tol * Math.max(Math.abs(want), 1e-30);
}

for (const c of fixture.cases) {
  const inputs: Array<TypedArray | undefined> = [];
  for (const [name, ref] of Object.entries(c.bands)) inputs[Number(name.slice(1))] = loadArray(ref);
  test(`numexpr oracle on ${c.dtype} bands`, () => {
    const failures: string[] = [];
    for (const r of c.results) {
      if (r.error) {
        if (EXTENSIONS.has(r.expr)) continue;
        let threw = false;
        try {
          compileExpression(parseExpression(r.expr)).evaluate(inputs, [], c.length);
        } catch (err) {
          threw = isRastileError(err, 'InvalidExpression');
        }
        if (!threw) failures.push(`${r.expr}: numexpr raised "${r.error}", we did not raise InvalidExpression`);
        continue;
      }
      const out = compileExpression(parseExpression(r.expr)).evaluate(inputs, [], c.length);
      const want = OUR_DTYPE[r.dtype as string];
      if (out.dtype !== want) failures.push(`${r.expr}: dtype ${out.dtype}, numexpr ${r.dtype}`);
      const values = loadArray(r.values as ArrayRef);
      const got = out.bands[0];
      for (let i = 0; i < c.length; i++) {
        if (!close(got[i], values[i], out.dtype)) {
          failures.push(`${r.expr}[${i}]: ${got[i]} vs ${values[i]}`);
          break;
        }
      }
    }
    assert.deepEqual(failures, []);
  });
}

test('multi-block output dtype follows numpy stacking of the block dtypes', () => {
  const inputs: Array<TypedArray | undefined> = [];
  for (const [name, ref] of Object.entries(fixture.stackInputs)) inputs[Number(name.slice(1))] = loadArray(ref);
  for (const s of fixture.stacks) {
    const out = compileExpression(parseExpression(s.blocks.join(';'))).evaluate(inputs, [], 8);
    assert.equal(out.dtype, OUR_DTYPE[s.dtype], s.blocks.join(';'));
    assert.equal(out.bands.length, s.blocks.length);
  }
});
