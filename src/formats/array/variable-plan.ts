/**
 * How each selected variable is read: its x, y and band axes, the index every other axis is
 * fixed at (size-1 dimensions squeezed, `sel` resolved on coordinates and CF times), its CF
 * decoding and its band labels. Errors name the variable or dimension and what exists.
 */
import { Errors } from '../../errors.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable, AttrValue } from './array-model.ts';
import { findCoordinate, findInScope } from './array-groups.ts';
import { bandLabels, type BandLabelStyle } from './band-labels.ts';
import { cfDecoding, type CfDecoding } from './cf-decode.ts';
import type { ChunkCache } from './chunk-cache.ts';
import { readCoordinate, timeAxisOf } from './coordinates.ts';
import { resolveSelection, type DimSelection } from './selection.ts';
import { spatialDims } from './spatial-axes.ts';

export { readCoordinate, timeAxisOf } from './coordinates.ts';

export interface VariablePlan {
  v: ArrayVariable;
  decoding: CfDecoding;
  xAxis: number;
  yAxis: number;
  /** The one non-spatial axis left after squeeze and sel (its values become bands), or null. */
  bandAxis: number | null;
  /** Per axis: the index a squeezed/selected axis is read at (-1 for x, y and the band axis). */
  fixed: number[];
  bandLabels: string[];
  /** Attributes as strings (band metadata). */
  metadata: Readonly<Record<string, string>>;
}

const attrString = (v: AttrValue): string => (Array.isArray(v) ? `[${(v as readonly unknown[]).join(', ')}]` : String(v));

function metadataOf(v: ArrayVariable): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, a] of Object.entries(v.attrs)) if (k !== 'DIMENSION_LIST' && k !== 'REFERENCE_LIST' && k !== '_Netcdf4Dimid') out[k] = attrString(a);
  return out;
}

/** Rejects 2-D latitude/longitude (curvilinear) grids and variables without recognisable x/y dimensions. */
function spatialAxesOf(chain: readonly ArrayGroup[], v: ArrayVariable): { x: string; y: string } {
  const dims = spatialDims(v.dims);
  if (dims !== null) return dims;
  const coords = typeof v.attrs['coordinates'] === 'string' ? v.attrs['coordinates'].split(/\s+/).filter((s) => s !== '') : [];
  for (const name of [...coords, 'lat', 'latitude', 'lon', 'longitude']) {
    const c = findInScope(chain, name);
    if (c !== null && c.dims.length === 2 && c.dims.every((d) => v.dims.includes(d))) {
      throw Errors.badRequest(
        `Variable '${v.name}' is on a curvilinear grid (2-D coordinate '${c.name}' over ${c.dims.join(', ')}): only 1-D x/y coordinates are supported`,
      );
    }
  }
  throw Errors.badRequest(`Couldn't find X and Y spatial coordinates in variable '${v.name}' (dimensions: ${v.dims.join(', ') || 'none'})`);
}

export async function planVariable(
  file: ArrayFile,
  chain: readonly ArrayGroup[],
  v: ArrayVariable,
  sel: ReadonlyMap<string, DimSelection>,
  decodeTimes: boolean,
  cache: ChunkCache,
  signal?: AbortSignal,
  labelStyle: BandLabelStyle = 'coordinates',
  index = 0,
): Promise<VariablePlan> {
  const decoding = cfDecoding(v, file.driver === 'Zarr');
  if (decoding === null)
    throw Errors.badRequest(
      /^complex/.test(v.storedType ?? '')
        ? `Variable '${v.name}' holds complex numbers (${v.storedType}): a pixel needs one real value, so it cannot be read as a grid (read its real or imaginary part from a copy of the data, or choose another variable)`
        : `Variable '${v.name}' holds ${v.dtype === 'string' ? 'strings' : `non-numeric values${v.storedType ? ` (${v.storedType})` : ''}`}: it cannot be read as a grid`,
    );
  const { x, y } = spatialAxesOf(chain, v);
  const xAxis = v.dims.indexOf(x);
  const yAxis = v.dims.indexOf(y);
  for (const d of [x, y]) {
    if (sel.has(d)) throw Errors.badRequest(`sel on '${d}': '${d}' is a spatial dimension of '${v.name}' (select tiles or a bbox instead)`);
  }
  const fixed = v.dims.map(() => -1);
  const left: number[] = [];
  for (let a = 0; a < v.dims.length; a++) {
    if (a === xAxis || a === yAxis) continue;
    const dim = v.dims[a];
    const s = sel.get(dim);
    if (v.shape[a] === 1) {
      if (s !== undefined) {
        throw Errors.badRequest(`sel ${dim}=${s.value}: dimension '${dim}' of '${v.name}' has a single value and is squeezed away; drop this sel`);
      }
      fixed[a] = 0;
      continue;
    }
    if (s === undefined) {
      left.push(a);
      continue;
    }
    const coord = findCoordinate(chain, dim);
    const values = coord !== null ? await readCoordinate(file, coord, cache, signal) : null;
    const index = resolveSelection({ dim, values, time: timeAxisOf(coord, decodeTimes) }, s);
    if (index < 0 || index >= v.shape[a]) throw Errors.badRequest(`sel ${dim}=${s.value}: index outside dimension '${dim}' (size ${v.shape[a]})`);
    fixed[a] = index;
  }
  if (left.length > 1) {
    const list = left.map((a) => `${v.dims[a]} (${v.shape[a]})`).join(', ');
    throw Errors.badRequest(
      `Variable '${v.name}' still has dimensions ${list} besides x/y: select all but one of them with sel (e.g. sel=${v.dims[left[0]]}=…)`,
    );
  }
  const bandAxis = left.length === 1 ? left[0] : null;
  const labels = await bandLabels({ file, chain, v, fixed, bandAxis, decodeTimes, cache, style: labelStyle, index }, signal);
  return { v, decoding, xAxis, yAxis, bandAxis, fixed, bandLabels: labels, metadata: metadataOf(v) };
}
