/**
 * Redirects from the granule-search service's 0.x URLs (no backend segment, old parameter
 * names, `?backend=`) to the 1.0 paths (titiler-cmr §7, our spec "Legacy redirects"):
 *
 * - GET → 301, POST → 308 (method and body kept); absolute Location = base URL + `/<backend>`
 *   + path + query (no `?` when the query is empty).
 * - backend: `rasterio` (or `raster`, or absent) → `/raster`, `xarray` (or `array`) → `/array`.
 *   Deliberate deviation: titiler-cmr copies any other value into the path unvalidated (and the
 *   client gets a 404 after the redirect); we answer 400 naming the accepted values.
 * - query: every pair in order and multiplicity, `backend` dropped, renamed
 *   `concept_id→collection_concept_id`, `datetime→temporal`, `bands→assets`,
 *   `bands_regex→assets_regex`, `variable→variables`; when the new name is present anywhere in
 *   the request, every pair with the old name is dropped (the new name wins). Re-encoded like
 *   Python's urlencode.
 * - path numbers re-printed after parsing: bbox floats Python-style (`-100` → `-100.0`), tile
 *   indices and sizes as integers; a tile's `@{scale}x` is dropped.
 * - `/preview`, `/part` and the timeseries paths redirect like upstream even though the target
 *   may not exist in this server (then 404 there), so old clients get one consistent rule.
 *
 * These routes are registered last; find-my-way prefers static segments, so they only catch
 * what no real route matches.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import { bboxPathParams } from '../params/coordinates.ts';
import { pyFloatRepr } from '../../util/python.ts';
import { encodePairs, queryPairs } from '../query-string.ts';
import { registerRoute, type HandlerResult, type RouteRegistry } from '../route.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P, type ParamDefs, type ParsedParams } from '../validation/params.ts';

const TAG = 'Legacy redirects';

const LEGACY_RENAMES: Readonly<Record<string, string>> = {
  concept_id: 'collection_concept_id',
  datetime: 'temporal',
  bands: 'assets',
  bands_regex: 'assets_regex',
  variable: 'variables',
};

const BACKENDS: Readonly<Record<string, string>> = { rasterio: 'raster', raster: 'raster', xarray: 'array', array: 'array' };

/** The new path segment for the request's `backend` value (the last one when repeated). */
function legacyBackend(pairs: ReadonlyArray<readonly [string, string]>): string {
  let value: string | undefined;
  for (const [k, v] of pairs) if (k === 'backend') value = v;
  if (value === undefined) return 'raster';
  const b = BACKENDS[value];
  if (b === undefined) throw Errors.badRequest(`Unknown backend '${value}': use backend=rasterio (→ /raster) or backend=xarray (→ /array)`);
  return b;
}

/** The query of the redirect: `backend` dropped, renames applied (new names win), order and repeats kept. */
export function legacyQuery(pairs: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const present = new Set(pairs.map(([k]) => k));
  const out: Array<[string, string]> = [];
  for (const [k, v] of pairs) {
    if (k === 'backend') continue;
    const renamed = LEGACY_RENAMES[k];
    if (renamed === undefined) out.push([k, v]);
    else if (!present.has(renamed)) out.push([renamed, v]);
  }
  return out;
}

/** Tile row with an optional, dropped `@{scale}x` suffix (`12` or `12@2x`). */
const tileRow = P.custom<number>(
  (raw) => {
    const m = /^\s*([+-]?\d+)(?:@(\d+)x)?\s*$/.exec(raw);
    return m ? Number(m[1]) : fail(Problems.int());
  },
  { type: 'string', pattern: '^[+-]?\\d+(@\\d+x)?$' },
);

interface LegacyRoute<D extends ParamDefs> {
  method: 'GET' | 'POST';
  path: string;
  params: D;
  target: (p: ParsedParams<D>) => string;
}

const seg = (s: string): string => encodeURIComponent(s);
const tmsParam = { tileMatrixSetId: P.str().path() };
const fmtParam = { format: P.str().path() };
const sizeParams = { width: P.int().path(), height: P.int().path() };
const zxy = { z: P.int().path(), x: P.int().path(), y: tileRow.path() };
const bboxPath = (p: { minx: number; miny: number; maxx: number; maxy: number }): string => [p.minx, p.miny, p.maxx, p.maxy].map(pyFloatRepr).join(',');

function route<D extends ParamDefs>(r: LegacyRoute<D>): LegacyRoute<ParamDefs> {
  return r as unknown as LegacyRoute<ParamDefs>;
}

const ROUTES: Array<LegacyRoute<ParamDefs>> = [
  route({ method: 'GET', path: '/{tileMatrixSetId}/tilejson.json', params: tmsParam, target: (p) => `/${seg(p.tileMatrixSetId)}/tilejson.json` }),
  route({ method: 'GET', path: '/{tileMatrixSetId}/map.html', params: tmsParam, target: (p) => `/${seg(p.tileMatrixSetId)}/map.html` }),
  route({
    method: 'GET',
    path: '/tiles/{tileMatrixSetId}/{z}/{x}/{y}.{format}',
    params: { ...tmsParam, ...zxy, ...fmtParam },
    target: (p) => `/tiles/${seg(p.tileMatrixSetId)}/${p.z}/${p.x}/${p.y}.${seg(p.format)}`,
  }),
  route({
    method: 'GET',
    path: '/tiles/{tileMatrixSetId}/{z}/{x}/{y}',
    params: { ...tmsParam, ...zxy },
    target: (p) => `/tiles/${seg(p.tileMatrixSetId)}/${p.z}/${p.x}/${p.y}`,
  }),
  route({ method: 'GET', path: '/preview', params: {}, target: () => '/preview' }),
  route({
    method: 'GET',
    path: '/bbox/{minx},{miny},{maxx},{maxy}.{format}',
    params: { ...bboxPathParams, ...fmtParam },
    target: (p) => `/bbox/${bboxPath(p)}.${seg(p.format)}`,
  }),
  route({
    method: 'GET',
    path: '/bbox/{minx},{miny},{maxx},{maxy}/{width}x{height}.{format}',
    params: { ...bboxPathParams, ...sizeParams, ...fmtParam },
    target: (p) => `/bbox/${bboxPath(p)}/${p.width}x${p.height}.${seg(p.format)}`,
  }),
  route({ method: 'POST', path: '/statistics', params: {}, target: () => '/statistics' }),
  route({ method: 'POST', path: '/part', params: {}, target: () => '/part' }),
  route({ method: 'POST', path: '/feature', params: {}, target: () => '/feature' }),
  route({ method: 'POST', path: '/feature.{format}', params: fmtParam, target: (p) => `/feature.${seg(p.format)}` }),
  route({
    method: 'POST',
    path: '/feature/{width}x{height}.{format}',
    params: { ...sizeParams, ...fmtParam },
    target: (p) => `/feature/${p.width}x${p.height}.${seg(p.format)}`,
  }),
  route({ method: 'POST', path: '/timeseries/statistics', params: {}, target: () => '/timeseries/statistics' }),
  route({
    method: 'GET',
    path: '/timeseries/{tileMatrixSetId}/tilejson.json',
    params: tmsParam,
    target: (p) => `/timeseries/${seg(p.tileMatrixSetId)}/tilejson.json`,
  }),
  route({
    method: 'GET',
    path: '/timeseries/bbox/{minx},{miny},{maxx},{maxy}.{format}',
    params: { ...bboxPathParams, ...fmtParam },
    target: (p) => `/timeseries/bbox/${bboxPath(p)}.${seg(p.format)}`,
  }),
  route({
    method: 'GET',
    path: '/timeseries/bbox/{minx},{miny},{maxx},{maxy}/{width}x{height}.{format}',
    params: { ...bboxPathParams, ...sizeParams, ...fmtParam },
    target: (p) => `/timeseries/bbox/${bboxPath(p)}/${p.width}x${p.height}.${seg(p.format)}`,
  }),
];

const opId = (r: LegacyRoute<ParamDefs>): string =>
  `legacy_${r.method.toLowerCase()}${r.path.replace(/\{(\w+)\}/g, '$1').replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, '');

export function registerGranuleLegacyRedirects(app: FastifyInstance, registry: RouteRegistry): void {
  for (const r of ROUTES) {
    const status = r.method === 'GET' ? 301 : 308;
    registerRoute(app, registry, {
      method: r.method,
      path: r.path,
      operationId: opId(r),
      summary: `Deprecated 0.x path: ${status} redirect to the same path under /raster (or /array with backend=xarray).`,
      description:
        'Old parameter names are renamed (concept_id→collection_concept_id, datetime→temporal, bands→assets, bands_regex→assets_regex, variable→variables; the new name wins when both are given) and `backend` is dropped.',
      tags: [TAG],
      params: { ...r.params, backend: P.str().describe('Old backend selector: rasterio (default) or xarray.') },
      responses: { [status]: { description: 'Redirect to the 1.0 path.' } },
      handler: async ({ params, request, baseUrl }): Promise<HandlerResult> => {
        const pairs = queryPairs(request.url, []);
        const backend = legacyBackend(pairs);
        const location = `${baseUrl}/${backend}${r.target(params)}${encodePairs(legacyQuery(pairs))}`;
        return { kind: 'redirect', status, location };
      },
    });
  }
}
