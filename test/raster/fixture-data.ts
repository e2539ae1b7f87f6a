/** Loads the committed oracle fixtures written by scripts/fixtures/stats_oracle.py. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dtypeCtor, type DType, type TypedArray } from '../../src/dtype.ts';

const DIR = fileURLToPath(new URL('../fixtures/stats/', import.meta.url));

export interface ArrayRef {
  /** Bundle file holding the array, at `offset` bytes. */
  file: string;
  offset: number;
  dtype: string;
  length: number;
}

const bundles = new Map<string, Uint8Array>();

export function loadJson<T>(name: string): T {
  return JSON.parse(readFileSync(DIR + name, 'utf8')) as T;
}

/** Reads a little-endian raw array (the fixtures are written little-endian; so is every supported host). */
export function loadArray(ref: ArrayRef): TypedArray {
  let bundle = bundles.get(ref.file);
  if (!bundle) {
    bundle = new Uint8Array(readFileSync(DIR + ref.file));
    bundles.set(ref.file, bundle);
  }
  const Ctor = dtypeCtor(ref.dtype as DType);
  const bytes = ref.length * Ctor.BYTES_PER_ELEMENT;
  if (ref.offset + bytes > bundle.byteLength) throw new Error(`fixture ${ref.file} is too short`);
  // copy: every test gets its own, aligned array
  return new Ctor(bundle.slice(ref.offset, ref.offset + bytes).buffer, 0, ref.length);
}

/** JSON numbers with NaN/±Inf spelled as strings by the oracle. */
export function num(v: number | string): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  throw new Error(`not a number: ${v}`);
}
