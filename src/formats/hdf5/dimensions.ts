/**
 * Dimension names from HDF5 dimension scales: a dataset's DIMENSION_LIST attribute refers to
 * the scale datasets of its axes (their names are the dimension names, as netCDF-4 writes them);
 * a scale names its own axis. Axes without a scale keep 'phony_dim_<i>'.
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
  let scales = false;
  await Promise.all(
    w.variables.map(async ({ variable, raw }) => {
      if (variable.attrs.CLASS === 'DIMENSION_SCALE') {
        scales = true;
        if (variable.shape.length === 1) variable.dims = [variable.name];
      }
      const list = raw.find((a) => a.name === 'DIMENSION_LIST');
      if (list === undefined) return;
      scales = true;
      const refs = await referenceLists(ctx, list, signal);
      if (refs === null || refs.length !== variable.shape.length) return;
      variable.dims = refs.map((r, i) => {
        const scale = r.length > 0 ? byAddress.get(r[0]) : undefined;
        return scale?.name ?? variable.dims[i];
      });
    }),
  );
  const netcdf = scales || '_NCProperties' in root.attrs;
  if (netcdf) hideNetcdfInternals(root);
  return netcdf ? 'netCDF' : 'HDF5';
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
