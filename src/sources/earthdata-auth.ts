/**
 * NASA Earthdata Login bearer tokens for https data reads, plugged into SourceOptions.authHeaders.
 *
 * - `token` (EARTHDATA_TOKEN) is used as is; or `username`/`password` (EARTHDATA_USERNAME /
 *   EARTHDATA_PASSWORD) are exchanged for one with `POST {urs}/api/users/find_or_create_token`
 *   (HTTP Basic), on first use. The token is kept until 5 minutes before its `expiration_date`
 *   (`MM/DD/YYYY`, read as 00:00 UTC of that day, the safe side), then fetched again; without a
 *   readable expiry it is kept one hour. Concurrent callers share one exchange; a failed exchange
 *   is not cached.
 * - The header `Authorization: Bearer <token>` goes only to https URLs whose host is allowed:
 *   `dataHosts`, plus hosts registered at run time with `allowHost` (the granule readers register
 *   the hosts of the granules' https hrefs). Never to CMR, never over http, never to a redirect
 *   target on another host (authHeaders is asked again for every hop).
 * - Neither the token nor the password is logged or put in an error message.
 */
import { Errors, isRastileError } from '../errors.ts';
import { Deadline } from './deadline.ts';

export interface EarthdataAuthOptions {
  token?: string;
  username?: string;
  password?: string;
  /** Earthdata Login base URL. Default https://urs.earthdata.nasa.gov */
  urs?: string;
  /** Hosts (`host` or `host:port`) that receive the token; more can be added with allowHost. */
  dataHosts?: string[];
  fetch?: typeof fetch;
  /** Clock, ms since the epoch (tests). Default Date.now. */
  now?: () => number;
  /** Deadline of one token exchange, ms. Default 10000. */
  timeoutMs?: number;
}

export interface EarthdataAuth {
  authHeaders(url: URL): Promise<Record<string, string> | undefined>;
  allowHost(host: string): void;
}

export const DEFAULT_URS = 'https://urs.earthdata.nasa.gov';
/** Refresh this long before the token expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** Lifetime assumed when URS gives no readable expiration date. */
const UNKNOWN_EXPIRY_MS = 60 * 60_000;
/** Shortest time a fetched token is reused, so a token close to expiry does not cause a request per read. */
const MIN_REUSE_MS = 60_000;
const EXCHANGE_RETRIES = 2;
/** Hosts where a plain-http URS is accepted (local stand-ins in tests); elsewhere the password needs https. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

interface CachedToken {
  token: string;
  refreshAt: number;
}

export function earthdataAuth(options: EarthdataAuthOptions): EarthdataAuth {
  const hosts = new Set((options.dataHosts ?? []).map((h) => h.trim().toLowerCase()).filter((h) => h !== ''));
  const now = options.now ?? Date.now;
  const fixed = options.token !== undefined && options.token !== '' ? options.token : undefined;
  const canExchange = options.username !== undefined && options.username !== '' && options.password !== undefined;
  let cached: CachedToken | undefined;
  let inFlight: Promise<CachedToken> | undefined;

  const allowed = (url: URL): boolean => url.protocol === 'https:' && (hosts.has(url.host.toLowerCase()) || hosts.has(url.hostname.toLowerCase()));

  async function currentToken(): Promise<string | undefined> {
    if (fixed !== undefined) return fixed;
    if (!canExchange) return undefined;
    if (cached !== undefined && now() < cached.refreshAt) return cached.token;
    inFlight ??= exchange(options, now).finally(() => (inFlight = undefined));
    cached = await inFlight;
    return cached.token;
  }

  return {
    async authHeaders(url: URL) {
      if (!allowed(url)) return undefined;
      const token = await currentToken();
      return token === undefined ? undefined : { authorization: `Bearer ${token}` };
    },
    allowHost(host: string) {
      const h = host.trim().toLowerCase();
      if (h !== '') hosts.add(h);
    },
  };
}

async function exchange(options: EarthdataAuthOptions, now: () => number): Promise<CachedToken> {
  const base = (options.urs ?? DEFAULT_URS).replace(/\/+$/, '');
  const url = `${base}/api/users/find_or_create_token`;
  const basic = Buffer.from(`${options.username}:${options.password}`, 'utf8').toString('base64');
  const fetchFn = options.fetch ?? fetch;
  const parsed = new URL(url);
  const host = parsed.host;
  if (parsed.protocol !== 'https:' && !LOOPBACK.has(parsed.hostname)) {
    throw Errors.sourceForbidden(`The Earthdata Login URL must use https (got ${parsed.protocol}//${host})`);
  }
  for (let attempt = 0; ; attempt++) {
    const deadline = new Deadline(options.timeoutMs ?? 10_000);
    let retryable = false;
    try {
      const response = await fetchFn(url, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
        signal: deadline.signal,
      });
      const text = await response.text();
      if (response.status === 401 || response.status === 403) {
        throw Errors.sourceForbidden(`Earthdata Login (${host}) refused the configured username and password (HTTP ${response.status})`);
      }
      if (!response.ok) {
        retryable = response.status >= 500 || response.status === 429;
        throw Errors.upstream(`Earthdata Login (${host}) token request failed: HTTP ${response.status}`);
      }
      return readToken(text, host, now());
    } catch (err) {
      if (deadline.timedOut) throw Errors.upstreamTimeout(`Earthdata Login (${host}) did not answer the token request in time`);
      const isOurs = isRastileError(err);
      if (!isOurs) retryable = true;
      if (!retryable || attempt >= EXCHANGE_RETRIES) {
        throw isOurs ? err : Errors.upstream(`Connection to Earthdata Login (${host}) failed`, { cause: err });
      }
    } finally {
      deadline.dispose();
    }
    await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
  }
}

function readToken(text: string, host: string, at: number): CachedToken {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const token = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['access_token'] : undefined;
  if (typeof token !== 'string' || token === '') throw Errors.upstream(`Earthdata Login (${host}) answered without an access_token`);
  const expiry = parseExpiry((body as Record<string, unknown>)['expiration_date']);
  const refreshAt = expiry === undefined ? at + UNKNOWN_EXPIRY_MS : Math.max(expiry - REFRESH_MARGIN_MS, Math.min(expiry, at + MIN_REUSE_MS));
  return { token, refreshAt };
}

/** URS `expiration_date` ("MM/DD/YYYY"; ISO dates accepted too) → ms since the epoch. */
export function parseExpiry(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const us = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(value);
  if (us) return Date.UTC(Number(us[3]), Number(us[1]) - 1, Number(us[2]));
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * Options from EARTHDATA_TOKEN, or EARTHDATA_USERNAME + EARTHDATA_PASSWORD (also the TITILER_CMR_
 * prefixed names), EARTHDATA_URS_URL and EARTHDATA_DATA_HOSTS (comma-separated); undefined when
 * no credential is configured.
 */
export function earthdataAuthOptionsFromEnv(env: NodeJS.ProcessEnv): EarthdataAuthOptions | undefined {
  const e = (name: string): string | undefined => {
    const v = env[name] ?? env[`TITILER_CMR_${name}`];
    return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
  };
  const token = e('EARTHDATA_TOKEN');
  const username = e('EARTHDATA_USERNAME');
  const password = env['EARTHDATA_PASSWORD'] ?? env['TITILER_CMR_EARTHDATA_PASSWORD'];
  if (token === undefined && (username === undefined || password === undefined)) return undefined;
  const urs = e('EARTHDATA_URS_URL');
  const hosts = e('EARTHDATA_DATA_HOSTS');
  return {
    ...(token !== undefined ? { token } : { username, password }),
    ...(urs !== undefined ? { urs } : {}),
    ...(hosts !== undefined
      ? {
          dataHosts: hosts
            .split(',')
            .map((h) => h.trim())
            .filter((h) => h !== ''),
        }
      : {}),
  };
}
