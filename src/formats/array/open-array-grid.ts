/**
 * Builds the GridDataset of a selection (variables, group, sel, decode_times) of an opened
 * ArrayFile: plans each variable, checks they share one grid, reads the x/y coordinates and
 * the CRS (CF grid mapping, else EPSG:4326), and orders the axes north-up west-to-east.
 */
import type { DType } from '../../dtype.ts';
import { Errors } from '../../errors.ts';
import type { Crs } from '../../geo/crs-type.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable, AttrValue } from './array-model.ts';
import { findCoordinate, findGroup, findInScope, findVariable } from './array-groups.ts';
import { ArrayGrid } from './array-grid.ts';
import type { BandLabelStyle } from './band-labels.ts';
import { crsFromGridMapping } from './cf-crs.ts';
import type { ChunkCache } from './chunk-cache.ts';
import { parseSelection } from './selection.ts';
import { indexAxis, outputAxis, type OutputAxis } from './spatial-axes.ts';
import { planVariable, readCoordinate, type VariablePlan } from './variable-plan.ts';

type Attrs = Readonly<Record<string, AttrValue>>;

export interface ArraySelection {
  variables: readonly string[];
  group?: string;
  sel?: readonly string[];
  /** CF time decoding of `sel` values and labels (default true). */
  decodeTimes?: boolean;
  /** How bands are described (band-labels.ts): titiler.xarray's 'coordinates' (default) or titiler-cmr's 'variable-index'. */
  bandLabels?: BandLabelStyle;
}

/** A stable text identity of a selection (cache keys, the grid's version). */
export function selectionKey(s: ArraySelection): string {
  const sel = [...(s.sel ?? [])].sort();
  const key = [s.group ?? '', s.variables, sel, s.decodeTimes ?? true];
  return JSON.stringify(s.bandLabels === undefined || s.bandLabels === 'coordinates' ? key : [...key, s.bandLabels]);
}

/** The grid-mapping variable's attributes of `v` (CF `grid_mapping`, else a `spatial_ref` variable), or null. */
function gridMappingAttrs(chain: readonly ArrayGroup[], v: ArrayVariable): Attrs | null {
  const gm = v.attrs['grid_mapping'];
  if (typeof gm === 'string' && gm.trim() !== '') {
    // CF's extended form "crs: x y" names the mapping first.
    const name = gm.trim().split(/[\s:]+/)[0];
    const m = findInScope(chain, name);
    if (m !== null) return m.attrs;
  }
  return findInScope(chain, 'spatial_ref')?.attrs ?? null;
}

/** Coordinates in the CRS's units: kilometres → metres, geostationary scan angles (radians) × satellite height. */
function toCrsUnits(values: Float64Array, coord: ArrayVariable | null, mapping: Attrs | null, crs: Crs): Float64Array {
  const units = typeof coord?.attrs['units'] === 'string' ? coord.attrs['units'].trim().toLowerCase() : '';
  let f = 1;
  if (!crs.isGeographic && units === 'km') f = 1000;
  const h = mapping?.['perspective_point_height'];
  if (mapping?.['grid_mapping_name'] === 'geostationary' && typeof h === 'number' && /^rad(ian)?s?$/.test(units)) f = h;
  if (f === 1) return values;
  return values.map((x) => x * f);
}

function commonDType(plans: readonly VariablePlan[]): DType {
  const types = new Set(plans.map((p) => p.decoding.dtype));
  if (types.size === 1) return plans[0].decoding.dtype;
  return [...types].every((t) => t === 'float32' || t.endsWith('8') || t.endsWith('16')) ? 'float32' : 'float64';
}

/**
 * The grid of `selection` in `file`. `fileVersion` is the version the caller checked the file
 * at (default: the file's own); the grid's version is it plus the selection.
 */
export async function openArrayGrid(
  file: ArrayFile,
  selection: ArraySelection,
  cache: ChunkCache,
  signal?: AbortSignal,
  fileVersion = file.version,
): Promise<ArrayGrid> {
  if (selection.variables.length === 0) throw Errors.badRequest('At least one variable is required (variables=…)');
  const chain = findGroup(file, selection.group);
  const sel = parseSelection(selection.sel ?? []);
  const decodeTimes = selection.decodeTimes ?? true;
  const vars = selection.variables.map((name) => {
    try {
      return findVariable(chain, name);
    } catch (err) {
      if (file.probed === undefined) throw err;
      throw Errors.badRequest(
        `Variable '${name}' not found in the Zarr store at ${file.location}${selection.group ? ` (group '${selection.group}')` : ''}: no array metadata (.zarray or zarr.json) exists there, and the store has no consolidated metadata, so its variables cannot be listed`,
      );
    }
  });
  for (const dim of sel.keys()) {
    if (!vars.some((v) => v.dims.includes(dim))) {
      const dims = [...new Set(vars.flatMap((v) => v.dims))];
      throw Errors.badRequest(
        `sel names dimension '${dim}', which ${vars.length > 1 ? 'no selected variable has' : `'${vars[0].name}' does not have`} (dimensions: ${dims.join(', ')})`,
      );
    }
  }
  const plans: VariablePlan[] = [];
  for (const [i, v] of vars.entries()) plans.push(await planVariable(file, chain, v, sel, decodeTimes, cache, signal, selection.bandLabels, i));
  const p0 = plans[0];
  const xDim = p0.v.dims[p0.xAxis];
  const yDim = p0.v.dims[p0.yAxis];
  for (const p of plans.slice(1)) {
    const same =
      p.v.dims[p.xAxis] === xDim && p.v.dims[p.yAxis] === yDim && p.v.shape[p.xAxis] === p0.v.shape[p0.xAxis] && p.v.shape[p.yAxis] === p0.v.shape[p0.yAxis];
    if (!same) {
      const grid = (q: VariablePlan): string => `${q.v.dims[q.yAxis]}=${q.v.shape[q.yAxis]}, ${q.v.dims[q.xAxis]}=${q.v.shape[q.xAxis]}`;
      throw Errors.badRequest(
        `Variables '${p0.v.name}' (${grid(p0)}) and '${p.v.name}' (${grid(p)}) are not on the same grid: they cannot be stacked as bands`,
      );
    }
  }
  const mapping = gridMappingAttrs(chain, p0.v);
  const crs = crsFromGridMapping(mapping);
  const xCoord = findCoordinate(chain, xDim);
  const yCoord = findCoordinate(chain, yDim);
  const [xs, ys] = await Promise.all([
    xCoord !== null ? readCoordinate(file, xCoord, cache, signal) : null,
    yCoord !== null ? readCoordinate(file, yCoord, cache, signal) : null,
  ]);
  const nx = p0.v.shape[p0.xAxis];
  const ny = p0.v.shape[p0.yAxis];
  let y: OutputAxis = ys !== null ? outputAxis(toCrsUnits(ys, yCoord, mapping, crs), true, false, 1) : indexAxis(ny, true);
  const x: OutputAxis = xs !== null ? outputAxis(toCrsUnits(xs, xCoord, mapping, crs), false, crs.isGeographic, Math.abs(y.step)) : indexAxis(nx, false);
  if (y.size === 1 && xs !== null && ys !== null) y = outputAxis(toCrsUnits(ys, yCoord, mapping, crs), true, false, x.step);
  if (x.size !== nx || y.size !== ny) throw Errors.invalidFormat(`Coordinates of '${xDim}'/'${yDim}' do not match the shape of '${p0.v.name}'`);
  return new ArrayGrid({ file, crs, x, y, variables: plans, dtype: commonDType(plans), selectionKey: selectionKey(selection), fileVersion }, cache);
}
