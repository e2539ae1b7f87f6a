/**
 * Parameters naming an array dataset on the /zarr router (titiler.xarray): `url`, `variable`
 * (repeatable: several variables stack as bands), `group`, `sel` (TiTiler's regex: 422 when an
 * item does not match) and `decode_times`.
 */
import { SEL_PATTERN } from '../../formats/array/selection.ts';
import type { ArraySelection } from '../../formats/array/open-array-grid.ts';
import { P } from '../validation/params.ts';

const SEL_RE = new RegExp(SEL_PATTERN);

export const selParam = P.pattern(SEL_RE, SEL_PATTERN)
  .list()
  .describe('Dimension selection `dim=value` or `dim=method::value` (method: nearest, pad, ffill, backfill, bfill), repeatable, e.g. `sel=time=2020-01-01`.');

export const groupParam = P.str().describe('HDF5/NetCDF group (or Zarr group) path holding the variables, e.g. `/science/grids`.');

export const decodeTimesParam = P.bool().default(true).describe('Decode CF times (sel values are then datetimes).');

export const zarrDatasetParams = {
  url: P.str().required().describe('Dataset URL: a NetCDF/HDF5 file or a Zarr store; local path under the allowed roots, http(s)://, or s3://.'),
  group: groupParam,
};

export const zarrVariableParams = {
  ...zarrDatasetParams,
  variable: P.str().list().required().describe('Variable to read (repeatable: variables on the same grid stack as bands b1…bN).'),
  sel: selParam,
  decode_times: decodeTimesParam,
};

/** The array selection of parsed /zarr parameters. */
export function zarrSelection(p: { variable: string[]; group?: string; sel?: string[]; decode_times: boolean }): ArraySelection {
  return { variables: p.variable, group: p.group, sel: p.sel ?? [], decodeTimes: p.decode_times };
}
