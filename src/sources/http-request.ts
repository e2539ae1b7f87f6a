import { Errors, isRastileError } from '../errors.ts';
import { assertUrlAllowed, type NetworkPolicy } from './network-policy.ts';
import { markRetryable } from './retry.ts';
import type { SourceStats } from './source.ts';
import { nodeGet } from './node-http-get.ts';
import type { UpstreamResponse } from './upstream-response.ts';

/** Host (and port) of a URL, the only part of it our error messages show (queries may hold tokens). */
export const safeHost = (url: URL): string => url.host;

/** `https://host/path` without query or fragment, for messages. */
export const safeUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Network error codes worth another attempt. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Turns an exception from a request (node:http or fetch) or a body read into a RastileError. Abort errors are re-thrown
 * unchanged (the deadline/retry wrapper decides what they mean).
 */
export function networkError(err: unknown, url: URL, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (isRastileError(err)) return err;
  const code = errorCode(err);
  if (code === 'ENOTFOUND') return Errors.upstream(`Could not resolve host ${safeHost(url)}`, { cause: err });
  const detail = code !== undefined ? ` (${code})` : '';
  // Unknown failures inside undici ("fetch failed", "terminated") are connection problems too.
  if (code === undefined || TRANSIENT_CODES.has(code)) {
    return markRetryable(Errors.upstream(`Connection to ${safeHost(url)} failed${detail}`, { cause: err }));
  }
  return Errors.upstream(`Request to ${safeHost(url)} failed${detail}`, { cause: err });
}

export interface HttpGetOptions {
  policy: NetworkPolicy;
  maxRedirects: number;
  signal?: AbortSignal;
  stats: SourceStats;
  /** Headers for one hop (Range, signing, auth hook output for that URL only). */
  headersFor: (url: URL) => Promise<Record<string, string>>;
  /** Skip the policy check of the first URL (already checked when the source was opened). */
  firstHopChecked?: boolean;
}

/**
 * GET with redirects followed by hand (at most `maxRedirects`), so that every hop goes through
 * the network policy and gets only its own headers. Returns the first non-redirect response
 * with its URL. The caller owns (and must consume or cancel) the response body.
 */
export async function httpGet(start: URL, o: HttpGetOptions): Promise<{ response: UpstreamResponse; url: URL }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    if (hop > 0 || o.firstHopChecked !== true) await assertUrlAllowed(url, o.policy);
    const headers = await o.headersFor(url);
    let response: UpstreamResponse;
    o.stats.requests++;
    try {
      response = await nodeGet(url, headers, o.policy, o.signal);
    } catch (err) {
      throw networkError(err, url, o.signal);
    }
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return { response, url };
    await discard(response);
    if (hop >= o.maxRedirects) {
      throw Errors.upstream(`Too many redirects (more than ${o.maxRedirects}) starting at ${safeHost(start)}`);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw Errors.upstream(`${safeHost(url)} sent an invalid redirect`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw Errors.sourceForbidden(`${safeHost(url)} redirected to a forbidden URL scheme "${next.protocol}"`);
    }
    if (next.username !== '' || next.password !== '') {
      throw Errors.sourceForbidden(`${safeHost(url)} redirected to a URL with embedded credentials`);
    }
    next.hash = '';
    url = next;
  }
}

/** Drops a response body we do not need, so the connection can be reused or closed. */
export function discard(response: UpstreamResponse): Promise<void> {
  return response.cancel();
}
