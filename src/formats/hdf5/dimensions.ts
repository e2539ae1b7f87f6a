/**
 * Dimension names from HDF5 dimension scales: a dataset's DIMENSION_LIST attribute refers to
 * the scale datasets of its axes (their names are the dimension names, as netCDF-4 writes them);
 * a scale names its own axis. Axes without a scale get netCDF-C's 'phony_dim_<N>' names.
 * Also decides the driver: netCDF-4 markers (_NCProperties or dimension scales) → 'netCDF'.
 */
import { referenceLists } from './attr-values.ts';
import type { FileContext } from './file-context.ts';
import type { Walk, WalkedGroup } from './group.ts';
import type { Hdf5Variable } from './variable.ts';

/** netCDF-4's marker for a dimension without a coordinate variable. */
const PURE_DIMENSION = 'This is a netCDF dimension but not a netCDF variable';

/** Attributes netCDF-4 uses for its own bookkeeping (netCDF4-python does not list them). */
const NETCDF_INTERNAL = ['CLASS', 'NAME', '_Netcdf4Dimid', '_Netcdf4Coordinates', '_nc3_strict', '_NCProperties', '_SuperblockVersion', '_IsNetcdf4'];

export async function resolveDimensions(ctx: FileContext, w: Walk, root: WalkedGroup, signal?: AbortSignal): Promise<'netCDF' | 'HDF5'> {
  const byAddress = new Map<number, Hdf5Variable>();
  for (const { variable } of w.variables) byAddress.set(variable.address, variable);
  let scales = 0;
  const named = new Set<Hdf5Variable>();
  await Promise.all(
    w.variables.map(async ({ variable, raw }) => {
      if (variable.attrs.CLASS === 'DIMENSION_SCALE') {
        scales++;
        if (variable.shape.length === 1) {
          variable.dims = [variable.name];
          named.add(variable);
        }
      }
      const list = raw.find((a) => a.name === 'DIMENSION_LIST');
      if (list === undefined) return;
      scales++;
      const refs = await referenceLists(ctx, list, signal);
      if (refs === null || refs.length !== variable.shape.length) return;
      const dims = refs.map((r) => (r.length > 0 ? byAddress.get(r[0])?.name : undefined));
      if (dims.every((d) => d !== undefined)) {
        variable.dims = dims as string[];
        named.add(variable);
      }
    }),
  );
  phonyDimensions(root, named, scales);
  const netcdf = scales > 0 || '_NCProperties' in root.attrs;
  if (netcdf) hideNetcdfInternals(root);
  return netcdf ? 'netCDF' : 'HDF5';
}

/**
 * netCDF-C's names for axes without dimension scales: sub-groups first, then the group's
 * datasets in link order; an axis reuses a phony dimension of the same length from its group
 * that this variable does not use yet, else gets a new phony_dim_<N> (N counts over the file).
 */
function phonyDimensions(root: WalkedGroup, named: Set<Hdf5Variable>, first: number): void {
  let next = first;
  const visit = (g: WalkedGroup): void => {
    for (const child of g.groups.values()) visit(child);
    const dims: Array<{ name: string; length: number }> = [];
    for (const v of g.variables.values()) {
      if (named.has(v)) continue;
      const used = new Set<string>();
      v.dims = v.shape.map((length) => {
        let d = dims.find((x) => x.length === length && !used.has(x.name));
        if (d === undefined) {
          d = { name: `phony_dim_${next++}`, length };
          dims.push(d);
        }
        used.add(d.name);
        return d.name;
      });
    }
  };
  visit(root);
}

function hideNetcdfInternals(g: WalkedGroup): void {
  g.attrs = withoutInternal(g.attrs);
  for (const [name, v] of [...g.variables]) {
    const label = v.attrs.NAME;
    if (typeof label === 'string' && label.startsWith(PURE_DIMENSION)) g.variables.delete(name);
    else v.attrs = withoutInternal(v.attrs);
  }
  for (const child of g.groups.values()) hideNetcdfInternals(child);
}

function withoutInternal<T extends object>(attrs: T): T {
  const out = { ...attrs } as Record<string, unknown>;
  for (const k of NETCDF_INTERNAL) delete out[k];
  return out as T;
}
