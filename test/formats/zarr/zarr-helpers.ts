/** Shared pieces of the Zarr tests: the fixtures' expectations and a whole-variable reader. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TypedArray } from '../../../src/dtype.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable } from '../../../src/formats/array/array-model.ts';

export const ZARR_DIR = path.resolve(import.meta.dirname, '../../fixtures/zarr');

export interface ExpectedArray {
  dims: (string | null)[] | null;
  shape: number[];
  chunks: number[];
  dtype: string;
  fill_value: number | boolean | null;
  attrs: Record<string, unknown>;
  missing: number[][];
  values: (number | string | null)[] | null;
}
export interface ExpectedStore {
  attrs: Record<string, unknown>;
  arrays: Record<string, ExpectedArray>;
}
export const EXPECTED = JSON.parse(readFileSync(path.join(ZARR_DIR, 'expected.json'), 'utf8')) as Record<string, ExpectedStore>;

/** The variable at `p` ('sub/temp') of a file. */
export function variableAt(file: ArrayFile, p: string): ArrayVariable {
  const parts = p.split('/');
  let g: ArrayGroup = file.root;
  for (const part of parts.slice(0, -1)) g = g.groups.get(part)!;
  const v = g.variables.get(parts.at(-1)!);
  assert.ok(v, `variable ${p}`);
  return v;
}

/** Every variable path of a file ('a', 'g/b'), depth first. */
export function variablePaths(g: ArrayGroup, prefix = ''): string[] {
  const out = [...g.variables.keys()].map((k) => prefix + k);
  for (const [name, sub] of g.groups) out.push(...variablePaths(sub, `${prefix}${name}/`));
  return out;
}

/**
 * Reads a whole variable chunk by chunk into row-major values (NaN as null), filling chunks
 * that are not stored with the fill value; returns the values and the missing chunk coordinates.
 */
export async function readAll(v: ArrayVariable): Promise<{ values: (number | null)[]; missing: number[][] }> {
  const total = v.shape.reduce((a, b) => a * b, 1);
  const out = new Array<number | null>(total).fill(null);
  const missing: number[][] = [];
  const grid = v.shape.map((s, k) => Math.ceil(s / v.chunkShape[k]!));
  const coords = grid.map(() => 0);
  const chunkLen = v.chunkShape.reduce((a, b) => a * b, 1);
  for (;;) {
    const got = await v.readChunk(coords);
    if (got === null) missing.push([...coords]);
    const chunk: TypedArray | null = got;
    if (chunk !== null) assert.equal(chunk.length, chunkLen);
    const inChunk = v.chunkShape.map(() => 0);
    for (let i = 0; i < chunkLen; i++) {
      let idx = 0;
      let inside = true;
      for (let k = 0; k < v.shape.length; k++) {
        const g = coords[k]! * v.chunkShape[k]! + inChunk[k]!;
        if (g >= v.shape[k]!) inside = false;
        idx = idx * v.shape[k]! + g;
      }
      if (inside) {
        const x = chunk === null ? v.fillValue : chunk[i]!;
        out[idx] = x === null || Number.isNaN(x) ? null : x;
      }
      for (let k = v.shape.length - 1; k >= 0; k--) {
        if (++inChunk[k]! < v.chunkShape[k]!) break;
        inChunk[k] = 0;
      }
    }
    let k = grid.length - 1;
    for (; k >= 0; k--) {
      if (++coords[k]! < grid[k]!) break;
      coords[k] = 0;
    }
    if (k < 0) return { values: out, missing };
  }
}
