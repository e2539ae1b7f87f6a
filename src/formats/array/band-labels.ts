/**
 * Band descriptions of a variable's bands, as the two xarray readers we mirror give them:
 * - 'coordinates' (titiler.xarray's /zarr, rio-tiler's XarrayReader): the values of the band
 *   dimension's coordinate as numpy prints them (`str(value)`: '2000-02-01T00:00:00.000000000'
 *   for decoded standard-calendar times, '2000-02-01 00:00:00' for cftime calendars, '1000.0'
 *   for a float level), the index when that dimension has no coordinate; a 2-D variable takes
 *   the value of the first selected or squeezed dimension with a coordinate (its scalar
 *   coordinate), else the variable's name;
 * - 'variable-index' (titiler-cmr's /xarray = our /array): the variables are concatenated along
 *   a new `band` dimension without a coordinate, so each is described by its index "0", "1", …
 *   (a variable that keeps a band axis of its own, which titiler-cmr refuses, falls back to
 *   'coordinates').
 */
import type { ArrayFile, ArrayGroup, ArrayVariable } from './array-model.ts';
import { findCoordinate } from './array-groups.ts';
import { axisValueToTime } from './cf-time.ts';
import type { ChunkCache } from './chunk-cache.ts';
import { readCoordinate, timeAxisOf } from './coordinates.ts';

export type BandLabelStyle = 'coordinates' | 'variable-index';

/** Python's repr of a float (shortest round-trip digits; scientific below 1e-4 and from 1e16). */
export function pythonFloat(x: number, float32 = false): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  let digits = String(x);
  if (float32) {
    for (let p = 1; p <= 9; p++) {
      const s = x.toPrecision(p);
      if (Math.fround(Number(s)) === x) {
        digits = String(Number(s));
        break;
      }
    }
  }
  const v = Number(digits);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [m, e] = v.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

const STANDARD = new Set(['standard', 'gregorian', 'proleptic_gregorian']);

/** numpy's `str()` of one coordinate value. */
function valueString(coord: ArrayVariable, value: number, decodeTimes: boolean): string {
  const time = timeAxisOf(coord, decodeTimes);
  if (time !== null) {
    const iso = axisValueToTime(time, value); // YYYY-MM-DDTHH:MM:SS[.mmm]
    const [date, clock] = iso.split('T') as [string, string];
    const [hms, ms = ''] = clock.split('.');
    if (STANDARD.has(time.calendar)) return `${date}T${hms}.${ms.padEnd(9, '0')}`;
    return `${date} ${hms}${ms ? `.${ms.padEnd(6, '0')}` : ''}`;
  }
  if (coord.dtype === 'float32' || coord.dtype === 'float64') return pythonFloat(value, coord.dtype === 'float32');
  return String(value);
}

export interface LabelInput {
  file: ArrayFile;
  chain: readonly ArrayGroup[];
  v: ArrayVariable;
  /** Per axis: the index a squeezed/selected axis is read at (-1 for x, y and the band axis). */
  fixed: readonly number[];
  bandAxis: number | null;
  decodeTimes: boolean;
  cache: ChunkCache;
  style: BandLabelStyle;
  /** The variable's position in the selection. */
  index: number;
}

export async function bandLabels(input: LabelInput, signal?: AbortSignal): Promise<string[]> {
  const { file, chain, v, fixed, bandAxis, decodeTimes, cache } = input;
  if (bandAxis === null && input.style === 'variable-index') return [String(input.index)];
  if (bandAxis !== null) {
    const coord = findCoordinate(chain, v.dims[bandAxis]);
    const values = coord !== null ? await readCoordinate(file, coord, cache, signal) : null;
    return Array.from({ length: v.shape[bandAxis] }, (_, i) => (values === null || coord === null ? String(i) : valueString(coord, values[i], decodeTimes)));
  }
  for (let a = 0; a < v.dims.length; a++) {
    if (fixed[a] < 0) continue;
    const coord = findCoordinate(chain, v.dims[a]);
    if (coord === null) continue;
    const values = await readCoordinate(file, coord, cache, signal);
    return [valueString(coord, values[fixed[a]], decodeTimes)];
  }
  return [v.name];
}
