/** Loads the oracle fixtures written by scripts/fixtures/render_oracle.py. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dtypeCtor, type DType, type TypedArray } from '../../../src/dtype.ts';

const DIR = fileURLToPath(new URL('../../fixtures/render/', import.meta.url));

export interface ArrayRef {
  file: string;
  dtype: string;
  length: number;
}

export function loadArray(ref: ArrayRef): TypedArray {
  const buf = readFileSync(DIR + ref.file);
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  return new (dtypeCtor(ref.dtype as DType))(copy.buffer, 0, ref.length);
}

export function num(v: number | string): number {
  if (typeof v === 'number') return v;
  return v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : Number.NaN;
}

export interface RescaleCase {
  name: string;
  dtype: DType;
  width: number;
  height: number;
  ranges: Array<[number | string, number | string]>;
  bands: ArrayRef[];
  masks: ArrayRef[];
  expected: ArrayRef[];
}

export interface ColormapCase {
  name: string;
  kind: 'lut' | 'discrete' | 'intervals';
  colormap_name?: string;
  colormap?: unknown;
  values: ArrayRef;
  mask: ArrayRef;
  expected_rgb: ArrayRef;
  expected_alpha: ArrayRef;
}

export interface FormulaCase {
  name: string;
  formula: string;
  dtype: DType;
  bands: ArrayRef[];
  expected: ArrayRef[];
}

export interface RenderOracle {
  rescale: RescaleCase[];
  casts: { inputs: Array<number | string>; uint8: number[] };
  colormaps: ColormapCase[];
  formulas: FormulaCase[];
  colormap_facts: { viridis: number[][]; terrain_r: number[][]; count: number };
}

export const oracle = JSON.parse(readFileSync(DIR + 'render.json', 'utf8')) as RenderOracle;
