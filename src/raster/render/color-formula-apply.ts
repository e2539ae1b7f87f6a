/**
 * Applies a parsed color formula (rio-tiler `apply_color_formula`): negative values → 0, then for
 * each operation the bands are scaled to 0..1 by the integer dtype maximum (uint8 255,
 * uint16 65535…; after the first operation the data is uint8), the operation runs in float64 and
 * the result is scaled back to uint8 with a truncating cast. Masks are unchanged.
 *
 * Deviations (TiTiler answers 500): float data (no `rescale` first) and formulas that reference
 * bands the image does not have are 400 BadRequest.
 */
import { Errors } from '../../errors.ts';
import { dtypeRange, isFloat, type DType, type TypedArray } from '../../dtype.ts';
import { castUint8 } from '../numpy-cast.ts';
import { EPSILON, type ColorFormula, type ColorOperation } from './color-formula-parse.ts';
import { saturatePlanes } from './lch.ts';

export function applyColorFormula(bands: readonly TypedArray[], dtype: DType, formula: ColorFormula): Uint8Array[] {
  if (isFloat(dtype)) {
    throw Errors.badRequest(`color_formula needs integer data but the image is ${dtype}: add a rescale to convert it to 0..255 first`);
  }
  checkBands(formula.ops, bands.length);
  let max = dtypeRange(dtype)[1];
  let current: readonly TypedArray[] = bands;
  const n = bands.length > 0 ? bands[0].length : 0;
  const planes = bands.map(() => new Float64Array(n));
  for (const op of formula.ops) {
    current.forEach((band, k) => {
      const p = planes[k];
      for (let i = 0; i < n; i++) {
        const v = band[i];
        p[i] = v > 0 ? v / max : 0;
      }
    });
    runOperation(op, planes);
    current = planes.map((p) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = castUint8(p[i] * 255);
      return out;
    });
    max = 255;
  }
  return current as Uint8Array[];
}

function checkBands(ops: readonly ColorOperation[], count: number): void {
  for (const op of ops) {
    const need = op.op === 'saturation' ? 3 : Math.max(0, ...op.bands);
    if (need > count) {
      throw Errors.badRequest(
        op.op === 'saturation'
          ? `color_formula saturation needs 3 bands but the image has ${count}`
          : `color_formula ${op.op} uses band ${need} but the image has ${count} band(s)`,
      );
    }
  }
}

function runOperation(op: ColorOperation, planes: Float64Array[]): void {
  if (op.op === 'saturation') {
    saturatePlanes(planes[0], planes[1], planes[2], op.proportion);
    return;
  }
  for (const b of op.bands) {
    if (op.op === 'gamma') gamma(planes[b - 1], op.g);
    else sigmoidal(planes[b - 1], op.contrast, op.bias);
  }
}

function gamma(p: Float64Array, g: number): void {
  const e = 1 / g;
  for (let i = 0; i < p.length; i++) p[i] = p[i] ** e;
}

/** Sigmoidal contrast (color-operations): scaled logistic for contrast > 0, its inverse for < 0. */
function sigmoidal(p: Float64Array, contrast: number, bias: number): void {
  const alpha = bias === 0 ? EPSILON : bias;
  const beta = contrast;
  if (beta === 0) return;
  if (beta > 0) {
    const low = 1 / (1 + Math.exp(beta * alpha));
    const denominator = 1 / (1 + Math.exp(beta * (alpha - 1))) - low;
    for (let i = 0; i < p.length; i++) p[i] = (1 / (1 + Math.exp(beta * (alpha - p[i]))) - low) / denominator;
    return;
  }
  const e1 = 1 + Math.exp(beta * alpha - beta);
  const e2 = 1 + Math.exp(beta * alpha);
  for (let i = 0; i < p.length; i++) {
    const x = p[i];
    p[i] = (beta * alpha - Math.log(1 / (x / e1 - x / e2 + 1 / e2) - 1)) / beta;
  }
}
