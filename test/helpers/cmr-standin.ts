/**
 * A stand-in for NASA CMR's search API: a real node:http server on 127.0.0.1 speaking CMR's request
 * and response formats, for tests of the CMR client and the granule routers.
 *
 * ```ts
 * const cmr = await startCmrStandin({ granules: items });   // items: UMM-JSON {meta, umm} records
 * // CmrClient({ baseUrl: cmr.url, ... })  →  GET `${cmr.url}/search/granules.umm_json?...`
 * cmr.requests;  // [{ method, path, url, query: [[name, value], ...] (decoded, in order), headers }]
 * await cmr.close();
 * ```
 *
 * `GET /search/granules.umm_json` behaves like CMR (written from CMR's API documentation and the
 * recorded exchanges in ../shared/fixtures/cmr, independently of src/search):
 * - filters: collection_concept_id (also `[]`), concept_id (granule ids), granule_ur (also `[]`),
 *   provider, temporal (`a/b` or `a,b`, either side open; inclusive interval overlap with the
 *   granule's RangeDateTime or SingleDateTime), bounding_box (`W,S,E,N`, W > E crosses the
 *   antimeridian) and point (`lon,lat`) against the footprint (GPolygons, BoundingRectangles,
 *   Points; touching counts), cloud_cover (`min,max`, either side empty, on umm.CloudCover),
 *   orbit_number (`n` or `min,max` on OrbitCalculatedSpatialDomains), attribute[]
 *   (`[type,]name,value` equality or `type,name,min,max` numeric range on AdditionalAttributes; all
 *   must match);
 * - sort_key[] (or sort_key): start_date, end_date, cloud_cover, granule_ur, revision_date with `-`
 *   (descending) or `+` prefix; default order provider then start_date ascending;
 * - page_size (default `pageSize` option, else CMR's 10; 0..2000);
 * - deep paging: every non-empty page carries `CMR-Search-After` (a JSON array); sending it back as
 *   the `cmr-search-after` request header with the same parameters gives the next page; the last,
 *   empty page has no header. Changing the parameters between pages → 400;
 * - headers `CMR-Hits`, `CMR-Took`, `CMR-Request-Id`, Content-Type
 *   `application/vnd.nasa.cmr.umm_results+json;version=1.6.6; charset=utf-8`;
 * - 400 `{"errors":[...]}` for unknown parameters, malformed values and a granule search without a
 *   collection constraint.
 * `GET /search/collections.umm_json?concept_id=` serves the `collections` records.
 *
 * When `granules` is a function it is called with the decoded query pairs and its result is served
 * as the complete, ordered result (no filtering or sorting; paging still applies).
 *
 * Fault injection (counted over all requests in arrival order): `failFirst` requests answer
 * `failStatus` (default 503), then `resetFirst` requests get their socket destroyed; `status(req)`
 * (or a number) forces a status with a CMR error body; `delayMs` delays every answer.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { AnswerDelay, listenOnLoopback } from './local-server.ts';

export interface UmmItem {
  meta: Record<string, unknown>;
  umm: Record<string, unknown>;
}

export interface StandinRequest {
  method: string;
  path: string;
  /** Raw request target. */
  url: string;
  /** Decoded query pairs in order. */
  query: Array<[string, string]>;
  headers: IncomingHttpHeaders;
}

export interface CmrStandinOptions {
  granules: UmmItem[] | ((query: Array<[string, string]>) => UmmItem[]);
  collections?: UmmItem[];
  /** page_size when the request has none (CMR: 10). */
  pageSize?: number;
  failFirst?: number;
  failStatus?: number;
  resetFirst?: number;
  status?: number | ((req: StandinRequest) => number | undefined);
  delayMs?: number;
}

export interface CmrStandin {
  /** `http://127.0.0.1:<port>` — the CMR base URL (requests go to `${url}/search/...`). */
  url: string;
  requests: StandinRequest[];
  /** Requests to granules.umm_json only. */
  granuleRequests(): StandinRequest[];
  close(): Promise<void>;
}

export const UMM_G_CONTENT_TYPE = 'application/vnd.nasa.cmr.umm_results+json;version=1.6.6; charset=utf-8';
const UMM_C_CONTENT_TYPE = 'application/vnd.nasa.cmr.umm_results+json;version=1.18.4; charset=utf-8';

export const NO_COLLECTION_MESSAGE =
  'The CMR does not allow querying across granules in all collections. To help optimize your search, you should limit your query using conditions that identify one or more collections, such as provider, provider_id, concept_id, collection_concept_id, short_name, version or entry_title.';

const GRANULE_PARAMS = new Set([
  'page_size',
  'collection_concept_id',
  'collection_concept_id[]',
  'concept_id',
  'concept_id[]',
  'granule_ur',
  'granule_ur[]',
  'provider',
  'temporal',
  'bounding_box',
  'point',
  'cloud_cover',
  'sort_key',
  'sort_key[]',
  'orbit_number',
  'attribute[]',
]);
const SORT_KEYS = new Set(['start_date', 'end_date', 'cloud_cover', 'granule_ur', 'revision_date', 'provider']);

class CmrError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
  ) {
    super(errors.join('; '));
  }
}
const bad = (message: string) => new CmrError(400, [message]);

// ---------------------------------------------------------------------------------------------
// Record accessors

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function granuleTime(item: UmmItem): [number, number] {
  const t = obj(item.umm['TemporalExtent']);
  const range = obj(t['RangeDateTime']);
  if (typeof range['BeginningDateTime'] === 'string') {
    const start = Date.parse(range['BeginningDateTime']);
    const end = typeof range['EndingDateTime'] === 'string' ? Date.parse(range['EndingDateTime']) : Infinity;
    return [start, end];
  }
  if (typeof t['SingleDateTime'] === 'string') {
    const at = Date.parse(t['SingleDateTime']);
    return [at, at];
  }
  return [NaN, NaN];
}

type Pt = [number, number];

/** Footprint as polygons (closed rings of [lon, lat]) plus points. Rings crossing ±180° are unwrapped. */
function footprintOf(item: UmmItem): { rings: Pt[][]; points: Pt[] } {
  const g = obj(obj(obj(item.umm['SpatialExtent'])['HorizontalSpatialDomain'])['Geometry']);
  const rings: Pt[][] = [];
  for (const gp of arr(g['GPolygons'])) {
    const pts = arr(obj(obj(gp)['Boundary'])['Points']).map((p): Pt => [Number(obj(p)['Longitude']), Number(obj(p)['Latitude'])]);
    for (let i = 1; i < pts.length; i++) {
      while (pts[i]![0] - pts[i - 1]![0] > 180) pts[i]![0] -= 360;
      while (pts[i]![0] - pts[i - 1]![0] < -180) pts[i]![0] += 360;
    }
    rings.push(pts);
  }
  for (const r of arr(g['BoundingRectangles'])) {
    const o = obj(r);
    const w = Number(o['WestBoundingCoordinate']);
    let e = Number(o['EastBoundingCoordinate']);
    const s = Number(o['SouthBoundingCoordinate']);
    const n = Number(o['NorthBoundingCoordinate']);
    if (e < w) e += 360;
    rings.push([
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ]);
  }
  const points = arr(g['Points']).map((p): Pt => [Number(obj(p)['Longitude']), Number(obj(p)['Latitude'])]);
  return { rings, points };
}

function inRing(x: number, y: number, ring: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    // on an edge counts as inside
    const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (Math.abs(cross) < 1e-12 && x >= Math.min(xi, xj) && x <= Math.max(xi, xj) && y >= Math.min(yi, yj) && y <= Math.max(yi, yj)) return true;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function segmentsMeet(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const o = (p: Pt, q: Pt, r: Pt) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const on = (p: Pt, q: Pt, r: Pt) =>
    Math.min(p[0], r[0]) <= q[0] && q[0] <= Math.max(p[0], r[0]) && Math.min(p[1], r[1]) <= q[1] && q[1] <= Math.max(p[1], r[1]);
  const o1 = o(a, b, c),
    o2 = o(a, b, d),
    o3 = o(c, d, a),
    o4 = o(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && on(a, c, b)) || (o2 === 0 && on(a, d, b)) || (o3 === 0 && on(c, a, d)) || (o4 === 0 && on(c, b, d));
}

/** Does the ring touch the box [w, s, e, n] (w <= e)? */
function ringMeetsBox(ring: Pt[], w: number, s: number, e: number, n: number): boolean {
  if (ring.some(([x, y]) => x >= w && x <= e && y >= s && y <= n)) return true;
  const corners: Pt[] = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ];
  if (corners.some(([x, y]) => inRing(x, y, ring))) return true;
  for (let i = 0; i + 1 < ring.length; i++) {
    for (let k = 0; k < 4; k++) if (segmentsMeet(ring[i]!, ring[i + 1]!, corners[k]!, corners[(k + 1) % 4]!)) return true;
  }
  return false;
}

function footprintMeetsBox(item: UmmItem, box: number[]): boolean {
  const [w, s, e, n] = box as [number, number, number, number];
  const pieces: Array<[number, number]> =
    w <= e
      ? [[w, e]]
      : [
          [w, 180],
          [-180, e],
        ];
  const { rings, points } = footprintOf(item);
  for (const [pw, pe] of pieces) {
    for (const shift of [0, 360, -360]) {
      if (rings.some((r) => ringMeetsBox(r, pw + shift, s, pe + shift, n))) return true;
    }
    if (points.some(([x, y]) => x >= pw && x <= pe && y >= s && y <= n)) return true;
  }
  return false;
}

function footprintHasPoint(item: UmmItem, lon: number, lat: number): boolean {
  const { rings, points } = footprintOf(item);
  if (points.some(([x, y]) => x === lon && y === lat)) return true;
  return [0, 360, -360].some((shift) => rings.some((r) => inRing(lon + shift, lat, r)));
}

// ---------------------------------------------------------------------------------------------
// Parameter parsing (CMR wording where known)

function parseNumbers(name: string, value: string, count: number): number[] {
  const parts = value.split(',');
  const nums = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (parts.length !== count || nums.some((v) => !Number.isFinite(v))) throw bad(`[${value}] is not a valid ${name}`);
  return nums;
}

function parseTemporal(value: string): [number, number] {
  const sep = value.includes('/') ? '/' : ',';
  const parts = value.split(sep);
  if (parts.length !== 2) throw bad(`temporal range is invalid: [${value}]`);
  const side = (s: string, open: number) => {
    const t = s.trim();
    if (t === '' || t === '..') return open;
    const v = Date.parse(t);
    if (!/^\d{4}-\d{2}-\d{2}/.test(t) || !Number.isFinite(v)) throw bad(`temporal datetime is invalid: [${t}]`);
    return v;
  };
  const range: [number, number] = [side(parts[0]!, -Infinity), side(parts[1]!, Infinity)];
  if (range[0] > range[1]) throw bad(`temporal range is invalid: [${value}]: start must be before end`);
  return range;
}

function parseRange(name: string, value: string): [number, number] {
  const parts = value.split(',');
  if (parts.length > 2) throw bad(`[${value}] is not a valid ${name}`);
  const side = (s: string | undefined, open: number) => {
    if (s === undefined || s.trim() === '') return open;
    const v = Number(s);
    if (!Number.isFinite(v)) throw bad(`[${value}] is not a valid ${name}`);
    return v;
  };
  if (parts.length === 1) {
    const v = side(parts[0], NaN);
    if (Number.isNaN(v)) throw bad(`[${value}] is not a valid ${name}`);
    return [v, v];
  }
  return [side(parts[0], -Infinity), side(parts[1], Infinity)];
}

/** Splits on commas not escaped with a backslash. */
function splitAttribute(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\' && value[i + 1] === ',') {
      cur += ',';
      i++;
    } else if (value[i] === ',') {
      out.push(cur);
      cur = '';
    } else cur += value[i];
  }
  out.push(cur);
  return out;
}

const ATTRIBUTE_TYPES = new Set(['string', 'float', 'int', 'datetime', 'time', 'date']);

function attributeMatcher(value: string): (item: UmmItem) => boolean {
  let parts = splitAttribute(value);
  let type = 'string';
  if (parts.length > 2 && ATTRIBUTE_TYPES.has(parts[0]!)) {
    type = parts[0]!;
    parts = parts.slice(1);
  }
  if (parts.length < 2 || parts.length > 3 || parts[0] === '') throw bad(`Invalid format for attribute [${value}]`);
  const [name, a, b] = parts as [string, string, string | undefined];
  const numeric = type === 'float' || type === 'int';
  return (item) => {
    const attr = arr(item.umm['AdditionalAttributes'])
      .map(obj)
      .find((x) => x['Name'] === name);
    const values = arr(attr?.['Values']).map(String);
    return values.some((v) => {
      if (b === undefined) return numeric ? Number(v) === Number(a) : v === a;
      const x = Number(v);
      return (a === '' || x >= Number(a)) && (b === '' || x <= Number(b));
    });
  };
}

function orbitNumbers(item: UmmItem): Array<[number, number]> {
  return arr(item.umm['OrbitCalculatedSpatialDomains'])
    .map(obj)
    .flatMap((o): Array<[number, number]> => {
      if (typeof o['OrbitNumber'] === 'number') return [[o['OrbitNumber'], o['OrbitNumber']]];
      if (typeof o['BeginOrbitNumber'] === 'number' && typeof o['EndOrbitNumber'] === 'number') return [[o['BeginOrbitNumber'], o['EndOrbitNumber']]];
      return [];
    });
}

function sortValue(item: UmmItem, key: string): string | number {
  switch (key) {
    case 'start_date':
      return granuleTime(item)[0];
    case 'end_date':
      return granuleTime(item)[1];
    case 'cloud_cover':
      return typeof item.umm['CloudCover'] === 'number' ? item.umm['CloudCover'] : Infinity;
    case 'granule_ur':
      return String(item.umm['GranuleUR'] ?? item.meta['native-id'] ?? '');
    case 'revision_date':
      return String(item.meta['revision-date'] ?? '');
    default:
      return String(item.meta['provider-id'] ?? '').toLowerCase();
  }
}

const compare = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Search

function searchGranules(all: UmmItem[], query: Array<[string, string]>): UmmItem[] {
  for (const [name] of query) if (!GRANULE_PARAMS.has(name)) throw bad(`Parameter [${name}] was not recognized.`);
  const values = (...names: string[]) => query.filter(([n]) => names.includes(n)).map(([, v]) => v);
  const collections = values('collection_concept_id', 'collection_concept_id[]');
  const providers = values('provider');
  const ids = values('concept_id', 'concept_id[]');
  if (collections.length === 0 && providers.length === 0 && ids.length === 0) throw bad(NO_COLLECTION_MESSAGE);

  const filters: Array<(item: UmmItem) => boolean> = [];
  if (collections.length > 0) filters.push((i) => collections.includes(String(i.meta['collection-concept-id'])));
  if (providers.length > 0) filters.push((i) => providers.includes(String(i.meta['provider-id'])));
  if (ids.length > 0) filters.push((i) => ids.includes(String(i.meta['concept-id'])));
  const urs = values('granule_ur', 'granule_ur[]');
  if (urs.length > 0) filters.push((i) => urs.includes(String(i.umm['GranuleUR'])));
  for (const t of values('temporal')) {
    const [qs, qe] = parseTemporal(t);
    filters.push((i) => {
      const [gs, ge] = granuleTime(i);
      return gs <= qe && ge >= qs;
    });
  }
  for (const b of values('bounding_box')) {
    const box = parseNumbers('bounding_box', b, 4);
    if (box[1]! > box[3]!) throw bad(`North [${box[3]}] must be greater than or equal to South [${box[1]}]`);
    filters.push((i) => footprintMeetsBox(i, box));
  }
  for (const p of values('point')) {
    const [lon, lat] = parseNumbers('point', p, 2) as [number, number];
    filters.push((i) => footprintHasPoint(i, lon, lat));
  }
  for (const c of values('cloud_cover')) {
    const [lo, hi] = parseRange('cloud_cover', c);
    filters.push((i) => typeof i.umm['CloudCover'] === 'number' && i.umm['CloudCover'] >= lo && i.umm['CloudCover'] <= hi);
  }
  for (const o of values('orbit_number')) {
    const [lo, hi] = parseRange('orbit_number', o);
    filters.push((i) => orbitNumbers(i).some(([a, b]) => a <= hi && b >= lo));
  }
  for (const a of values('attribute[]')) filters.push(attributeMatcher(a));

  const keys = values('sort_key', 'sort_key[]').map((k) => {
    const desc = k.startsWith('-');
    const name = k.replace(/^[-+ ]/, '');
    if (!SORT_KEYS.has(name)) throw bad(`The sort key [${name}] is not a valid field for sorting granules.`);
    return { name, desc };
  });
  const order = [...keys, { name: 'provider', desc: false }, { name: 'start_date', desc: false }];
  const indexed = all.filter((i) => filters.every((f) => f(i))).map((item, index) => ({ item, index }));
  indexed.sort((a, b) => {
    for (const { name, desc } of order) {
      const c = compare(sortValue(a.item, name), sortValue(b.item, name));
      if (c !== 0) return desc ? -c : c;
    }
    return a.index - b.index;
  });
  return indexed.map((x) => x.item);
}

/** A stable signature of the query without page-position information. */
const signature = (query: Array<[string, string]>): string =>
  createHash('sha1')
    .update(JSON.stringify([...query].sort((a, b) => compare(a.join('='), b.join('=')))))
    .digest('hex')
    .slice(0, 12);

// ---------------------------------------------------------------------------------------------

export async function startCmrStandin(options: CmrStandinOptions): Promise<CmrStandin> {
  const requests: StandinRequest[] = [];
  const delay = new AnswerDelay(options.delayMs);
  let seen = 0;
  let requestId = 0;

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': status === 200 ? (headers['content-type'] ?? UMM_G_CONTENT_TYPE) : 'application/json; charset=utf-8',
      'cmr-request-id': `standin-${++requestId}`,
      'access-control-expose-headers': 'CMR-Hits, CMR-Request-Id, X-Request-Id, CMR-Search-After, CMR-Timed-Out',
      ...headers,
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  function page(res: ServerResponse, req: StandinRequest, results: UmmItem[], contentType: string): void {
    const pq = req.query.filter(([n]) => n === 'page_size');
    const rawSize = pq.length > 0 ? pq[pq.length - 1]![1] : String(options.pageSize ?? 10);
    const pageSize = Number(rawSize);
    if (!/^\d+$/.test(rawSize.trim()) || pageSize > 2000) throw bad('page_size must be a number between 0 and 2000');
    const sig = signature(req.query);
    let start = 0;
    const after = req.headers['cmr-search-after'];
    if (typeof after === 'string') {
      let token: unknown;
      try {
        token = JSON.parse(after);
      } catch {
        token = undefined;
      }
      if (!Array.isArray(token) || token[0] !== 'standin' || typeof token[1] !== 'number') throw bad(`Invalid CMR-Search-After header value: ${after}`);
      if (token[2] !== sig) throw bad('The search parameters of a CMR-Search-After request must be the same as those of the first request.');
      start = token[1];
    }
    const items = results.slice(start, start + pageSize);
    const headers: Record<string, string> = { 'content-type': contentType, 'cmr-hits': String(results.length), 'cmr-took': '3' };
    if (items.length > 0) headers['cmr-search-after'] = JSON.stringify(['standin', start + items.length, sig]);
    send(res, 200, { hits: results.length, took: 3, items }, headers);
  }

  function answer(req: StandinRequest, res: ServerResponse, index: number): void {
    const failFirst = options.failFirst ?? 0;
    if (index < failFirst) return send(res, options.failStatus ?? 503, { errors: ['Service temporarily unavailable (stand-in)'] });
    if (index < failFirst + (options.resetFirst ?? 0)) return void res.socket?.destroy();
    const forced = typeof options.status === 'function' ? options.status(req) : options.status;
    if (forced !== undefined) return send(res, forced, { errors: [`Stand-in forced status ${forced}`] });
    try {
      if (req.method !== 'GET') throw new CmrError(405, [`Method ${req.method} not allowed (stand-in serves GET only)`]);
      if (req.path === '/search/granules.umm_json') {
        const results = typeof options.granules === 'function' ? options.granules(req.query) : searchGranules(options.granules, req.query);
        return page(res, req, results, UMM_G_CONTENT_TYPE);
      }
      if (req.path === '/search/collections.umm_json') {
        const ids = req.query.filter(([n]) => n === 'concept_id' || n === 'concept_id[]').map(([, v]) => v);
        const results = (options.collections ?? []).filter((c) => ids.length === 0 || ids.includes(String(c.meta['concept-id'])));
        return page(res, req, results, UMM_C_CONTENT_TYPE);
      }
      throw new CmrError(404, [`The requested path ${req.path} was not found (stand-in)`]);
    } catch (err) {
      if (err instanceof CmrError) return send(res, err.status, { errors: err.errors });
      return send(res, 500, { errors: [`Stand-in failure: ${String(err)}`] });
    }
  }

  const server = createServer((msg: IncomingMessage, res: ServerResponse) => {
    const index = seen++;
    const url = new URL(msg.url ?? '/', 'http://standin');
    const req: StandinRequest = { method: msg.method ?? 'GET', path: url.pathname, url: msg.url ?? '/', query: [...url.searchParams], headers: msg.headers };
    requests.push(req);
    delay.run(() => answer(req, res, index));
  });
  const { url, close } = await listenOnLoopback(server, () => delay.cancel());
  return {
    url,
    requests,
    granuleRequests: () => requests.filter((r) => r.path === '/search/granules.umm_json'),
    close,
  };
}
