/** Finding groups, variables and coordinate variables in an ArrayFile's tree (NetCDF scoping: a group sees its ancestors' dimensions). */
import { Errors } from '../../errors.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable } from './array-model.ts';

/** Every group of the tree, root first (depth-first, in file order). */
export function allGroups(root: ArrayGroup): ArrayGroup[] {
  const out: ArrayGroup[] = [root];
  for (const g of root.groups.values()) out.push(...allGroups(g));
  return out;
}

/** The group at `path` ('/a/b', 'a/b'; '' or '/' or undefined: the root) with its ancestors (root first); unknown → 400 listing the groups. */
export function findGroup(file: ArrayFile, path: string | undefined): ArrayGroup[] {
  const parts = (path ?? '').split('/').filter((p) => p !== '');
  const chain: ArrayGroup[] = [file.root];
  for (const part of parts) {
    const next = chain[chain.length - 1].groups.get(part);
    if (next === undefined) {
      const groups = allGroups(file.root)
        .slice(1)
        .map((g) => g.path);
      throw Errors.badRequest(`Group '${path}' not found in '${file.location}' (groups: ${groups.length > 0 ? groups.join(', ') : 'none'})`);
    }
    chain.push(next);
  }
  return chain;
}

/** A variable by name (or a relative path 'sub/name') in the last group of `chain`; unknown → 400 naming what exists. */
export function findVariable(chain: readonly ArrayGroup[], name: string): ArrayVariable {
  let group = chain[chain.length - 1];
  const parts = name.split('/').filter((p) => p !== '');
  for (const part of parts.slice(0, -1)) {
    const g = group.groups.get(part);
    if (g === undefined) break;
    group = g;
  }
  const v = group.variables.get(parts[parts.length - 1] ?? '');
  if (v !== undefined) return v;
  const here = chain[chain.length - 1];
  const names = [...here.variables.keys()];
  throw Errors.badRequest(
    `Variable '${name}' not found in group '${here.path}'${names.length > 0 ? ` (variables: ${names.join(', ')})` : ' (it has no variables: give a group)'}`,
  );
}

/** The 1-D coordinate variable of dimension `dim` (same name, that one dimension), searched from the group outwards. */
export function findCoordinate(chain: readonly ArrayGroup[], dim: string): ArrayVariable | null {
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i].variables.get(dim);
    if (v !== undefined && v.dims.length === 1 && v.dims[0] === dim) return v;
  }
  return null;
}

/** A variable named `name` anywhere on the chain (grid-mapping variables), searched from the group outwards. */
export function findInScope(chain: readonly ArrayGroup[], name: string): ArrayVariable | null {
  if (name.startsWith('/')) {
    const parts = name.split('/').filter((p) => p !== '');
    let g: ArrayGroup | undefined = chain[0];
    for (const p of parts.slice(0, -1)) g = g?.groups.get(p);
    return g?.variables.get(parts[parts.length - 1] ?? '') ?? null;
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i].variables.get(name);
    if (v !== undefined) return v;
  }
  return null;
}

/** Whether a variable is a coordinate variable of its own dimension (listed apart from data variables). */
export const isCoordinateVariable = (v: ArrayVariable): boolean => v.dims.length === 1 && v.dims[0] === v.name;
