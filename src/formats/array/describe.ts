/**
 * Listings of an array file's group, shaped like xarray's (titiler.xarray's /dataset/keys and
 * /dataset/dict: `Dataset.to_dict(data=False)`): data variables, coordinates, dimension sizes,
 * attributes. Plain data, no reads.
 */
import { Errors } from '../../errors.ts';
import { unlistableMessage } from '../zarr/zarr-hierarchy.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable, AttrValue } from './array-model.ts';
import { findGroup, isCoordinateVariable } from './array-groups.ts';
import { spatialDims } from './spatial-axes.ts';

export interface VariableDict {
  dims: string[];
  attrs: Record<string, AttrValue>;
  dtype: string;
  shape: number[];
}

export interface DatasetDict {
  coords: Record<string, VariableDict>;
  attrs: Record<string, AttrValue>;
  dims: Record<string, number>;
  data_vars: Record<string, VariableDict>;
}

const HIDDEN_ATTRS = new Set([
  'DIMENSION_LIST',
  'REFERENCE_LIST',
  'CLASS',
  'NAME',
  '_Netcdf4Dimid',
  '_Netcdf4Coordinates',
  '_NCProperties',
  '_ARRAY_DIMENSIONS',
]);

const visibleAttrs = (attrs: Readonly<Record<string, AttrValue>>): Record<string, AttrValue> =>
  Object.fromEntries(Object.entries(attrs).filter(([k]) => !HIDDEN_ATTRS.has(k)));

const dictOf = (v: ArrayVariable): VariableDict => ({ dims: [...v.dims], attrs: visibleAttrs(v.attrs), dtype: v.storedType ?? v.dtype, shape: [...v.shape] });

/** Names of the grid-mapping and coordinate variables other variables point at (listed as coordinates, as decode_coords="all" does). */
function referenced(group: ArrayGroup): Set<string> {
  const out = new Set<string>();
  for (const v of group.variables.values()) {
    for (const key of ['grid_mapping', 'coordinates', 'bounds']) {
      const a = v.attrs[key];
      if (typeof a === 'string') for (const name of a.split(/[\s:]+/)) if (name !== '') out.add(name);
    }
  }
  return out;
}

/** The group's variables split like xarray does: coordinates (dimension coordinates, grid mappings, bounds) and data variables. */
export function describeGroup(file: ArrayFile, group?: string): DatasetDict {
  // A store opened for a few named variables (it cannot be listed) must not pass for a listing.
  if (file.probed !== undefined) throw Errors.badRequest(unlistableMessage(file.location), { context: { url: file.location } });
  const chain = findGroup(file, group);
  const g = chain[chain.length - 1];
  const refs = referenced(g);
  const out: DatasetDict = { coords: {}, attrs: visibleAttrs(g.attrs), dims: {}, data_vars: {} };
  for (const v of g.variables.values()) {
    v.dims.forEach((d, i) => (out.dims[d] = v.shape[i]));
    if (isCoordinateVariable(v) || refs.has(v.name)) out.coords[v.name] = dictOf(v);
    else out.data_vars[v.name] = dictOf(v);
  }
  return out;
}

/** Data variables of a group (titiler.xarray /dataset/keys, /variables). */
export function dataVariables(file: ArrayFile, group?: string): string[] {
  return Object.keys(describeGroup(file, group).data_vars);
}

/** Whether a variable has recognisable x/y dimensions (the dataset page links only those to a map). */
export const isGridVariable = (d: VariableDict): boolean => spatialDims(d.dims) !== null;

/**
 * Groups holding gridded variables, for a file whose root has none (titiler-cmr §2.5): groups
 * with a variable whose dimensions include an x and a y name of the alias lists, those outside
 * any `/metadata/` path first, then metadata ones; when none qualifies, every group holding
 * variables.
 */
export function compatibleGroups(file: ArrayFile): string[] {
  const gridded: string[] = [];
  const any: string[] = [];
  const walk = (g: ArrayGroup): void => {
    if (g.path !== '/' && g.variables.size > 0) {
      any.push(g.path);
      if ([...g.variables.values()].some((v) => spatialDims(v.dims) !== null)) gridded.push(g.path);
    }
    for (const c of g.groups.values()) walk(c);
  };
  walk(file.root);
  const isMeta = (p: string): boolean => /(^|\/)metadata(\/|$)/i.test(p);
  if (gridded.length > 0) return [...gridded.filter((p) => !isMeta(p)), ...gridded.filter(isMeta)];
  return any;
}
