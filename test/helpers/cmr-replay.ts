/**
 * Replays the recorded real CMR exchanges of ../shared/fixtures/cmr/recordings (titiler-cmr's test
 * cassettes) from a local node:http server, following that folder's README:
 *
 * 1. a request matches a recorded one on method, path, the query as a multiset of name/value pairs
 *    (`bounding_box` and `point` compared numerically: `-85` equals `-85.0`; `page_size` ignored when
 *    `ignorePageSize`) and the `cmr-search-after` request header (absent on first pages);
 * 2. the recorded status, headers and body (re-serialised JSON) are sent; duplicates replay the same;
 * 3. a follow-up request (with `cmr-search-after`) that matches nothing gets CMR's "end of results"
 *    page: 200, `{"hits": <hits of the first page>, "took": 0, "items": []}`, no CMR-Search-After;
 * 4. any other unmatched request gets 404 with a CMR-style error body and is listed in `unmatched`.
 *
 * With `dataHost` (the URL of a server rooted at ../shared/fixtures/cmr/data), the data hrefs in the
 * bodies are rewritten as the README says: `https://data.lpdaac.earthdatacloud.nasa.gov/` and
 * `https://archive.podaac.earthdata.nasa.gov/` → `${dataHost}/` (s3:// hrefs are left alone).
 *
 * The recordings are read in place and never copied into the repository; tests skip when the
 * folder does not exist (`recordingsAvailable()`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback } from './local-server.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CMR_FIXTURES_DIR = path.resolve(HERE, '../../../shared/fixtures/cmr');
export const RECORDINGS_DIR = path.join(CMR_FIXTURES_DIR, 'recordings');
export const CMR_DATA_DIR = path.join(CMR_FIXTURES_DIR, 'data');

export const recordingsAvailable = (): boolean => existsSync(RECORDINGS_DIR);

/** Path of one recording, e.g. `recordingPath('test_rasterio_backend/test_rasterio_part')`. */
export const recordingPath = (name: string): string => path.join(RECORDINGS_DIR, `${name}.json`);

/** Every recording file (relative names without `.json`). */
export function listRecordings(): string[] {
  return readdirSync(RECORDINGS_DIR, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

export interface RecordedExchange {
  request: { method: string; url: string; path: string; query: Array<[string, string]>; headers: Record<string, string> };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

export function loadRecording(name: string): RecordedExchange[] {
  return JSON.parse(readFileSync(recordingPath(name), 'utf8')) as RecordedExchange[];
}

const DATA_PREFIXES = ['https://data.lpdaac.earthdatacloud.nasa.gov/', 'https://archive.podaac.earthdata.nasa.gov/'];

/** The README's href rewrite onto a data host serving ../shared/fixtures/cmr/data. */
export function rewriteDataHref(href: string, dataHost: string): string {
  for (const prefix of DATA_PREFIXES) if (href.startsWith(prefix)) return `${dataHost.replace(/\/+$/, '')}/${href.slice(prefix.length)}`;
  return href;
}

function rewriteDeep(value: unknown, dataHost: string): unknown {
  if (typeof value === 'string') return rewriteDataHref(value, dataHost);
  if (Array.isArray(value)) return value.map((v) => rewriteDeep(v, dataHost));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteDeep(v, dataHost)]));
  }
  return value;
}

export interface ReplayRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: IncomingHttpHeaders;
  /** Which recording answered (`<name>#<index>`), 'end-of-results', or 'unmatched'. */
  answeredBy: string;
}

export interface CmrReplayOptions {
  /** Recording names (see listRecordings); default: all. */
  recordings?: string[];
  dataHost?: string;
  ignorePageSize?: boolean;
}

export interface CmrReplay {
  url: string;
  requests: ReplayRequest[];
  unmatched: ReplayRequest[];
  close(): Promise<void>;
}

const NUMERIC = new Set(['bounding_box', 'point']);

function sameValue(name: string, a: string, b: string): boolean {
  if (!NUMERIC.has(name)) return a === b;
  const x = a.split(',').map(Number);
  const y = b.split(',').map(Number);
  return x.length === y.length && x.every((v, i) => Number.isFinite(v) && v === y[i]);
}

function sameQuery(a: Array<[string, string]>, b: Array<[string, string]>, ignorePageSize: boolean): boolean {
  const keep = (q: Array<[string, string]>) => q.filter(([n]) => !(ignorePageSize && n === 'page_size'));
  const x = keep(a);
  const rest = keep(b);
  if (x.length !== rest.length) return false;
  for (const [n, v] of x) {
    const i = rest.findIndex(([m, w]) => m === n && sameValue(n, v, w));
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

const headerOf = (headers: Record<string, string>, name: string): string | undefined => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

export async function startCmrReplay(options: CmrReplayOptions = {}): Promise<CmrReplay> {
  const names = options.recordings ?? listRecordings();
  const exchanges = names.flatMap((name) => loadRecording(name).map((e, i) => ({ id: `${name}#${i}`, e })));
  const ignorePageSize = options.ignorePageSize ?? false;
  const requests: ReplayRequest[] = [];
  const unmatched: ReplayRequest[] = [];

  const matches = (e: RecordedExchange, method: string, p: string, query: Array<[string, string]>, after: string | undefined) =>
    e.request.method === method &&
    e.request.path === p &&
    headerOf(e.request.headers, 'cmr-search-after') === after &&
    sameQuery(query, e.request.query, ignorePageSize);

  function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
    const text = JSON.stringify(body);
    const out: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(headers)) if (!/^(content-(md5|sha1|length|encoding)|transfer-encoding|connection)$/i.test(k)) out[k] = v;
    res.writeHead(status, { ...out, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  const server = createServer((msg: IncomingMessage, res: ServerResponse) => {
    const url = new URL(msg.url ?? '/', 'http://replay');
    const query = [...url.searchParams] as Array<[string, string]>;
    const after = typeof msg.headers['cmr-search-after'] === 'string' ? msg.headers['cmr-search-after'] : undefined;
    const method = msg.method ?? 'GET';
    const record: ReplayRequest = { method, path: url.pathname, query, headers: msg.headers, answeredBy: 'unmatched' };
    requests.push(record);

    const hit = exchanges.find(({ e }) => matches(e, method, url.pathname, query, after));
    if (hit !== undefined) {
      record.answeredBy = hit.id;
      const body = options.dataHost !== undefined ? rewriteDeep(hit.e.response.body, options.dataHost) : hit.e.response.body;
      return send(res, hit.e.response.status, hit.e.response.headers, body);
    }
    if (after !== undefined) {
      const first = exchanges.find(({ e }) => matches(e, method, url.pathname, query, undefined));
      const hits = (first?.e.response.body as { hits?: number } | undefined)?.hits ?? 0;
      const contentType = first !== undefined ? headerOf(first.e.response.headers, 'content-type') : undefined;
      record.answeredBy = 'end-of-results';
      return send(
        res,
        200,
        { 'Content-Type': contentType ?? 'application/vnd.nasa.cmr.umm_results+json;version=1.6.6; charset=utf-8', 'CMR-Hits': String(hits), 'CMR-Took': '0' },
        { hits, took: 0, items: [] },
      );
    }
    unmatched.push(record);
    return send(res, 404, { 'Content-Type': 'application/json' }, { errors: [`cmr-replay: no recording matches ${method} ${msg.url}`] });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, requests, unmatched, close };
}
