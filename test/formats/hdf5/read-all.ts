/** Test helpers: every variable of an ArrayFile by path, and a variable's full array from its chunks. */
import type { ArrayFile, ArrayGroup, ArrayVariable } from '../../../src/formats/array/array-model.ts';

export function allVariables(file: ArrayFile): Map<string, ArrayVariable> {
  const out = new Map<string, ArrayVariable>();
  const visit = (g: ArrayGroup): void => {
    for (const v of g.variables.values()) out.set(v.path, v);
    for (const c of g.groups.values()) visit(c);
  };
  visit(file.root);
  return out;
}

export function allGroups(file: ArrayFile): Map<string, ArrayGroup> {
  const out = new Map<string, ArrayGroup>();
  const visit = (g: ArrayGroup): void => {
    out.set(g.path, g);
    for (const c of g.groups.values()) visit(c);
  };
  visit(file.root);
  return out;
}

/** The whole variable, row-major, unstored chunks filled with its fill value. */
export async function readAll(v: ArrayVariable): Promise<number[]> {
  const shape = v.shape;
  const total = shape.reduce((a, b) => a * b, 1);
  const out = new Array<number>(total).fill(v.fillValue ?? NaN);
  const grid = shape.map((s, i) => Math.ceil(s / v.chunkShape[i]));
  const rank = shape.length;
  const coords = new Array<number>(rank).fill(0);
  if (grid.some((g) => g === 0)) return out;
  for (;;) {
    const chunk = await v.readChunk(coords);
    if (chunk !== null) {
      const origin = coords.map((c, i) => c * v.chunkShape[i]);
      const n = v.chunkShape.reduce((a, b) => a * b, 1);
      for (let k = 0; k < n; k++) {
        // chunk-local row-major index → global row-major index (overhang of edge chunks dropped)
        let rest = k;
        let global = 0;
        let inside = true;
        for (let i = rank - 1, gmul = 1; i >= 0; i--) {
          const g = origin[i] + (rest % v.chunkShape[i]);
          rest = Math.floor(rest / v.chunkShape[i]);
          if (g >= shape[i]) inside = false;
          global += g * gmul;
          gmul *= shape[i];
        }
        if (inside) out[global] = chunk[k];
      }
    }
    let i = rank - 1;
    for (; i >= 0; i--) {
      if (++coords[i] < grid[i]) break;
      coords[i] = 0;
    }
    if (i < 0) break;
  }
  return out;
}
