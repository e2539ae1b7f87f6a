/**
 * Parameters of the /array granule backend (titiler-cmr's `xarray` backend, §3.4): `variables`
 * (required, stacked as bands b1…bN), `sel` with `{datetime}` interpolation (§6.3), `group`,
 * `decode_times`, `expression` over b1…bN (0.x expressions naming variables are translated to
 * positions), and the mosaic's `pixel_selection`.
 */
import { Errors } from '../../errors.ts';
import type { ArraySelection } from '../../formats/array/open-array-grid.ts';
import { translateLegacyExpression } from '../../granule/legacy-expression.ts';
import type { GranuleLayer } from '../../granule/granule-mosaic-reader.ts';
import { compileExpression, parseExpression, type CompiledExpression } from '../../raster/expression/index.ts';
import { LISTING_COVERAGE_TOLERANCE, normalizeTemporal } from '../../search/query-params.ts';
import { expressionValue } from '../params/dataset.ts';
import { granuleSearchParams, legacyGranuleSearchAliases } from '../params/granule-search.ts';
import { P } from '../validation/params.ts';
import { granuleRasterParams } from './granule-raster-params.ts';
import { decodeTimesParam, groupParam, selParam } from './zarr-params.ts';

/** titiler-cmr's xarray backend grows the search area by nothing by default (§3.2). */
export const ARRAY_COVERAGE_TOLERANCE = LISTING_COVERAGE_TOLERANCE;

export const granuleArrayBackendParams = {
  ...granuleSearchParams({ coverageTolerance: ARRAY_COVERAGE_TOLERANCE }),
  ...legacyGranuleSearchAliases,
  variables: P.str().list().required().describe('Variables of each granule to read, repeatable, stacked in this order as bands b1…bN (same grid required).'),
  sel: selParam.describe(
    'Dimension selection `dim=value` or `dim=method::value` (nearest, pad, ffill, backfill, bfill), repeatable. `{datetime}` is replaced by the start of `temporal` (then required), e.g. `sel=time=nearest::{datetime}`.',
  ),
  group: groupParam,
  decode_times: decodeTimesParam,
  expression: expressionValue().describe(
    "Band math over the variables as b1…bN, in `variables` order (e.g. `b1/b2`); several outputs separated by ';'. 0.x expressions naming variables are translated to their positions.",
  ),
  pixel_selection: granuleRasterParams.pixel_selection,
};

export interface GranuleArrayParamValues {
  variables: string[];
  sel?: string[];
  group?: string;
  decode_times: boolean;
  expression?: string;
  temporal?: string;
  datetime?: string;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Python's `datetime.isoformat()` of a parsed ISO datetime (`Z` → `+00:00`; naive stays naive). */
function pythonIso(text: string): string {
  const m = ISO.exec(text.trim());
  if (m === null) throw Errors.badRequest(`Could not parse the start of temporal '${text}' as a datetime`);
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac, tz] = m;
  const micro = frac !== undefined ? `.${frac.slice(1).padEnd(6, '0').slice(0, 6)}` : '';
  let zone = '';
  if (tz !== undefined) zone = tz.toUpperCase() === 'Z' ? '+00:00' : tz.includes(':') ? tz : `${tz.slice(0, 3)}:${tz.slice(3)}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${micro === '.000000' ? '' : micro}${zone}`;
}

/**
 * The `sel` items with `{datetime}` replaced (§6.3): any `sel` needs `temporal` (titiler-cmr's
 * rule, 400 otherwise); the datetime is the temporal value's start (a single datetime: itself).
 */
export function interpolateSel(sel: readonly string[] | undefined, temporal: string | undefined): string[] {
  if (sel === undefined || sel.length === 0) return [];
  if (temporal === undefined || temporal.trim() === '') throw Errors.badRequest("A 'temporal' parameter is required");
  if (!sel.some((s) => s.includes('{datetime}'))) return [...sel];
  const start = normalizeTemporal(temporal.trim()).split('/')[0]!.trim();
  if (start === '' || start === '..') throw Errors.badRequest(`temporal '${temporal}' has an open start: {datetime} in sel needs a start datetime`);
  const iso = pythonIso(start);
  return sel.map((s) => s.split('{datetime}').join(iso));
}

/** The array selection and mosaic layer of parsed /array parameters. */
export function granuleArrayLayer(p: GranuleArrayParamValues): { selection: ArraySelection; layer: GranuleLayer } {
  const temporal = p.temporal ?? p.datetime;
  // titiler-cmr concatenates the variables along a new `band` dimension without a coordinate: bands are described "0", "1", …
  const selection: ArraySelection = {
    variables: p.variables,
    group: p.group,
    sel: interpolateSel(p.sel, temporal),
    decodeTimes: p.decode_times,
    bandLabels: 'variable-index',
  };
  let expression: CompiledExpression | undefined;
  if (p.expression !== undefined && p.expression.trim() !== '') {
    // Names not in `variables` are left alone, and then fail as unknown names (titiler-cmr).
    expression = compileExpression(parseExpression(translateLegacyExpression(p.expression, p.variables).expression));
  }
  return { selection, layer: { assets: [{ name: '0', key: '0' }], expression, assetAsBand: false, plainDescriptions: true } };
}
