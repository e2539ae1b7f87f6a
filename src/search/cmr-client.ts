/**
 * NASA CMR search client: `GET {baseUrl}/search/granules.umm_json` paged with `CMR-Search-After`,
 * stopping at `items_limit`, when the area is covered (`exitwhenfull`), or at the end of results
 * (titiler-cmr §3.9). Searches are anonymous: only `client-id` (when configured), `Accept`,
 * `User-Agent` and `cmr-search-after` are sent — never credentials.
 *
 * Every request runs under its own deadline (`timeoutMs`, the caller's signal included). Transient
 * failures (5xx, 408, 429, connection errors) are retried `retries` times with exponential backoff;
 * a timeout is not retried. Errors (RastileError kinds, mapped to statuses in src/http):
 * - CMR 400, 413, 414, 422 (the request's fault) → 'BadRequest' whose message is CMR's `errors` text
 *   (e.g. a search without collection constraint, a malformed temporal);
 * - CMR 5xx or connection failure after the retries, a body that is not CMR JSON, or another 4xx
 *   (401/403/404 point at our configuration or a proxy, not at the user's query) → 'UpstreamError';
 * - no answer within the deadline → 'UpstreamTimeout' ("CMR granule search timed out after 20 seconds").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Errors, isRastileError, type RastileError } from '../errors.ts';
import { abortError } from '../sources/abort.ts';
import { Deadline } from '../sources/deadline.ts';
import { RASTILE_VERSION } from '../version.ts';
import { granuleSearchParams, spatialFilter } from './cmr-params.ts';
import { GranuleSelection } from './granule-selection.ts';
import { parseGranule } from './parse-granule.ts';
import type { Granule, GranuleQuery, SearchArea } from './types.ts';
import { markUnversionedRead } from '../util/read-set.ts';

export interface CmrClientOptions {
  /** RASTILE_CMR_URL, e.g. https://cmr.earthdata.nasa.gov (a trailing `/search` is accepted too). */
  baseUrl: string;
  /** Sent as the `client-id` request header when set. */
  clientId?: string;
  /** Deadline of one request (headers and body), ms. Default 20000. */
  timeoutMs: number;
  /** Retries of a transient failure. Default 2. */
  retries: number;
  /** Granules per page (CMR allows 1..2000). Default 20. Never more than the search's items_limit. */
  pageSize: number;
  fetch?: typeof fetch;
  /** First retry delay, ms (then ×2 per attempt, with jitter). Default 200. */
  retryBaseDelayMs?: number;
}

export const DEFAULT_CMR_CLIENT_OPTIONS = { timeoutMs: 20_000, retries: 2, pageSize: 20, retryBaseDelayMs: 200 } as const;

/** One item of a CMR UMM-JSON result. */
export interface UmmItem {
  meta: Record<string, unknown>;
  umm: Record<string, unknown>;
}

interface CmrPage {
  items: UmmItem[];
  hits: number | null;
  /** The `CMR-Search-After` response header, or null at the end of results. */
  searchAfter: string | null;
}

const MAX_PAGE_SIZE = 2000;
const MAX_BACKOFF_MS = 5_000;
const TRANSIENT_STATUS = new Set([408, 429]);
/** Statuses that mean "this search is wrong" (CMR answers 400 with its reasons; 413/414 for over-long URLs). */
const USER_ERROR_STATUS = new Set([400, 413, 414, 422]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class CmrClient {
  /** Requests sent to CMR (every attempt) and how many of them were retries. */
  readonly stats = { requests: 0, retries: 0 };
  private readonly searchUrl: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: CmrClientOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.searchUrl = /\/search$/.test(base) ? base : `${base}/search`;
    this.fetchFn = options.fetch ?? fetch;
  }

  /**
   * Pages through granules.umm_json for the query and area, applying items_limit, skipcovered and
   * exitwhenfull (the union of footprints covers the area grown by coverageTolerance). Yields in CMR
   * order. An area whose intersection with query.boundingBox is empty yields nothing without
   * calling CMR. Stopping the iteration early sends no further request.
   */
  async *searchGranules(query: GranuleQuery, area: SearchArea, signal?: AbortSignal): AsyncGenerator<Granule> {
    const selection = new GranuleSelection(query, area);
    if (selection.empty) return;
    const pageSize = Math.max(1, Math.min(this.options.pageSize, query.itemsLimit, MAX_PAGE_SIZE));
    const params = granuleSearchParams(query, selection.filter, pageSize);
    for await (const page of this.pages(params, pageSize, signal)) {
      for (const item of page.items) {
        const granule = parseGranule(item);
        const offer = selection.offer(granule);
        if (offer === 'skip') continue;
        yield granule;
        if (offer === 'last') return;
      }
    }
  }

  /**
   * Every granule CMR finds for the query and area, in CMR order, without items_limit,
   * skipcovered or exitwhenfull (a time series' range search: series-search.ts) — or null as soon
   * as there are more than `cap` (nothing more is asked then).
   */
  async searchAll(query: GranuleQuery, area: SearchArea, cap: number, signal?: AbortSignal): Promise<Granule[] | null> {
    const filter = spatialFilter(area, query.boundingBox);
    if (filter.kind === 'empty') return [];
    // one more than the cap fits in the first page, so a search over the cap is one request
    const pageSize = Math.max(1, Math.min(cap + 1, MAX_PAGE_SIZE));
    const params = granuleSearchParams(query, filter, pageSize);
    const granules: Granule[] = [];
    for await (const page of this.pages(params, pageSize, signal)) {
      if (granules.length + page.items.length > cap || (page.hits !== null && page.hits > cap)) return null;
      for (const item of page.items) granules.push(parseGranule(item));
    }
    return granules;
  }

  /**
   * The pages of a granule search in order. CMR sends full pages until the end, so a short page (or
   * having seen every hit CMR counted) is the last one: no empty page is asked for after it.
   * Stopping the iteration early sends no further request.
   */
  private async *pages(params: Array<[string, string]>, pageSize: number, signal?: AbortSignal): AsyncGenerator<CmrPage> {
    let searchAfter: string | null = null;
    let fetched = 0;
    for (;;) {
      const page = await this.page('granules.umm_json', params, searchAfter, 'granule search', signal);
      fetched += page.items.length;
      yield page;
      if (page.items.length < pageSize || page.searchAfter === null) return;
      if (page.hits !== null && fetched >= page.hits) return;
      searchAfter = page.searchAfter;
    }
  }

  /** The UMM-C record of a collection (`collections.umm_json?concept_id=`), or null when CMR has none. */
  async getCollection(conceptId: string, signal?: AbortSignal): Promise<UmmItem | null> {
    const page = await this.page('collections.umm_json', [['concept_id', conceptId]], null, 'collection search', signal);
    return page.items[0] ?? null;
  }

  private async page(path: string, params: Array<[string, string]>, searchAfter: string | null, what: string, signal?: AbortSignal): Promise<CmrPage> {
    markUnversionedRead('a CMR search result has no version'); // the response cache must not keep it
    const url = `${this.searchUrl}/${path}?${new URLSearchParams(params).toString()}`;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `rastile/${RASTILE_VERSION}` };
    if (this.options.clientId !== undefined && this.options.clientId !== '') headers['client-id'] = this.options.clientId;
    if (searchAfter !== null) headers['cmr-search-after'] = searchAfter;
    const { body, response } = await this.request(url, headers, what, signal);
    if (!isObject(body) || !Array.isArray(body['items'])) throw Errors.upstream(`CMR ${what} returned JSON without an "items" list`);
    const items = body['items'] as UmmItem[];
    const hits = typeof body['hits'] === 'number' ? body['hits'] : null;
    const after = response.headers.get('cmr-search-after');
    return { items, hits, searchAfter: after === null || after.trim() === '' ? null : after };
  }

  private async request(url: string, headers: Record<string, string>, what: string, signal?: AbortSignal): Promise<{ body: unknown; response: Response }> {
    const { retries, timeoutMs } = this.options;
    const host = new URL(url).host;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortError(signal, 'CMR');
      const deadline = new Deadline(timeoutMs, signal);
      let failure: RastileError;
      try {
        this.stats.requests++;
        const response = await this.fetchFn(url, { method: 'GET', headers, signal: deadline.signal });
        const text = await response.text();
        if (response.ok) return { body: parseJson(text, what), response };
        const detail = cmrErrorText(text);
        if (USER_ERROR_STATUS.has(response.status)) {
          throw Errors.badRequest(detail !== '' ? detail : `CMR rejected the ${what} (HTTP ${response.status})`);
        }
        failure = Errors.upstream(`CMR ${what} failed: HTTP ${response.status}${detail !== '' ? ` (${detail})` : ''}`);
        if (response.status < 500 && !TRANSIENT_STATUS.has(response.status)) throw failure;
      } catch (err) {
        if (signal?.aborted) throw abortError(signal, 'CMR');
        if (deadline.timedOut) throw Errors.upstreamTimeout(`CMR ${what} timed out after ${formatSeconds(timeoutMs)} seconds`);
        if (isRastileError(err)) throw err;
        failure = Errors.upstream(`Connection to CMR (${host}) failed${errorCode(err)}`, { cause: err });
      } finally {
        deadline.dispose();
      }
      if (attempt >= retries) throw failure;
      this.stats.retries++;
      const base = this.options.retryBaseDelayMs ?? DEFAULT_CMR_CLIENT_OPTIONS.retryBaseDelayMs;
      const delay = Math.min(MAX_BACKOFF_MS, base * 2 ** attempt) * (0.5 + Math.random() / 2);
      try {
        await sleep(delay, undefined, signal === undefined ? undefined : { signal });
      } catch {
        throw abortError(signal!, 'CMR');
      }
    }
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw Errors.upstream(`CMR ${what} returned a body that is not JSON`);
  }
}

/** CMR's `{"errors": [...]}` joined with "; ", else the body text (shortened), else ''. */
export function cmrErrorText(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (isObject(body) && Array.isArray(body['errors'])) {
      const messages = body['errors'].map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
      if (messages.length > 0) return messages.join('; ');
    }
  } catch {
    // not JSON: fall through to the plain text
  }
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 300 ? `${plain.slice(0, 300)}…` : plain;
}

const formatSeconds = (ms: number): string => String(Math.round(ms) / 1000);

function errorCode(err: unknown): string {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return ` (${code})`;
    e = (e as { cause?: unknown }).cause;
  }
  return '';
}
