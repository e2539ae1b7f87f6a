import path from 'node:path';
import { Errors } from '../errors.ts';

/** S3 access settings (from AWS_* environment variables, as GDAL reads them). */
export interface S3Options {
  region: string;
  /** S3-compatible endpoint: `https://host:port` or `host:port` (then AWS_HTTPS decides the scheme). Path-style URLs. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Send unsigned requests even when credentials are present (AWS_NO_SIGN_REQUEST=YES). */
  noSign?: boolean;
}

export interface SourceOptions {
  /** Absolute directories under which local files may be read. Empty: no local files at all. */
  localRoots: string[];
  /** Allow http(s) hosts that are or resolve to loopback/private/link-local/CGNAT addresses. */
  allowPrivateHosts: boolean;
  /** Deadline of one upstream attempt (all redirect hops and the body), in ms. Default 30000. */
  requestTimeoutMs: number;
  /** How many times a transient failure (5xx, 429, reset) is retried. Default 3 (at most 4 requests). */
  retries: number;
  /** Byte cache budget shared by all sources of one opener. */
  cacheBytes: number;
  /** Largest body kept from a server that ignores Range (answers 200 with the whole object). */
  maxWholeBodyBytes: number;
  s3: S3Options;
  /**
   * Extra headers per request URL (e.g. NASA Earthdata bearer tokens). Called for every request,
   * including each redirect hop, with that hop's URL; the headers are sent to that URL only and
   * never logged or put in error messages.
   */
  authHeaders?: (url: URL) => Promise<Record<string, string> | undefined>;

  // ---- optional tuning (defaults in DEFAULT_SOURCE_OPTIONS) ----
  /** Host names (exact, case-insensitive, no port) exempt from the private-address check. Metadata endpoints stay blocked. */
  allowedHosts?: string[];
  /** First delay of the exponential retry backoff, ms (then ×2 per attempt, with jitter, capped at 10 s). Default 200. */
  retryBaseDelayMs?: number;
  /** Redirects followed per request. Default 5. */
  maxRedirects?: number;
  /** Bytes read at offset 0 when a remote source is opened (the TIFF header chunk). Default 65536. */
  headerBytes?: number;
  /** Concurrent reads whose gap is at most this many bytes are merged into one request. Default 32768. */
  coalesceGapBytes?: number;
  /** Upper bound of a merged request, bytes. Default 4 MiB. */
  coalesceMaxBytes?: number;
  /** Idle local file handles kept open. Default 32. */
  maxOpenFiles?: number;
  /** Opened sources kept for reuse. Default 1024. */
  maxSources?: number;
  /**
   * A remote object not heard from for this long (ms) is re-validated before its cached dataset
   * is used again: one 1-byte conditional request (If-Match / validator compare). Bounds how long
   * a fully cached remote dataset can lag a change nobody read. 0: on every use. Default 10000.
   */
  revalidateMs?: number;
  /**
   * A remote object served without ETag and Last-Modified has no version a change could be seen
   * by (only its size): by default it is never reused — every open reads it again and nothing
   * read under it is shared. With this window (ms) such a source is reused by later opens for this
   * long after it was opened, its bytes and decoded blocks cached; a same-size change within the
   * window is not seen, so answers may lag the object by up to this long. Opt-in. Default 0.
   */
  unvalidatedReuseMs?: number;
  userAgent?: string;
  /** DNS resolver used by the network policy (tests inject one). Default: dns.promises.lookup, all addresses. */
  resolveHost?: (hostname: string) => Promise<string[]>;
}

export const DEFAULT_SOURCE_OPTIONS = {
  localRoots: [] as string[],
  allowPrivateHosts: false,
  requestTimeoutMs: 30_000,
  retries: 3,
  cacheBytes: 256 * 1024 * 1024,
  maxWholeBodyBytes: 64 * 1024 * 1024,
  retryBaseDelayMs: 200,
  maxRedirects: 5,
  headerBytes: 64 * 1024,
  coalesceGapBytes: 32 * 1024,
  coalesceMaxBytes: 4 * 1024 * 1024,
  maxOpenFiles: 32,
  maxSources: 1024,
  revalidateMs: 10_000,
  unvalidatedReuseMs: 0,
  userAgent: 'rastile/0.1',
} as const;

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

function parseBool(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  throw Errors.badRequest(`Invalid ${name}=${JSON.stringify(value)}: expected YES/NO, TRUE/FALSE or 1/0`);
}

function parseCount(name: string, value: string): number {
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw Errors.badRequest(`Invalid ${name}=${JSON.stringify(value)}: expected a non-negative integer`);
  return n;
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** Parses `1048576`, `512KiB`, `256MB`, `1G` (binary multiples). */
export function parseByteSize(name: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw Errors.badRequest(`Invalid ${name}=${JSON.stringify(value)}: expected bytes like 268435456 or 256MiB`);
  return Math.floor(Number(m[1]) * unit);
}

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/**
 * Builds SourceOptions from environment variables; values given in `defaults` are used where the
 * environment says nothing (environment wins), then the built-in defaults.
 *
 * | variable | meaning |
 * |---|---|
 * | RASTILE_LOCAL_ROOTS | local roots, separated by `path.delimiter` (`:`) |
 * | RASTILE_ALLOW_PRIVATE_HOSTS | YES/NO |
 * | RASTILE_ALLOWED_HOSTS | comma-separated host names exempt from the private-address check |
 * | RASTILE_HTTP_TIMEOUT_MS, RASTILE_HTTP_RETRIES, RASTILE_HTTP_MAX_REDIRECTS | request deadline, retries, redirects |
 * | RASTILE_CACHE_BYTES, RASTILE_MAX_WHOLE_BODY_BYTES | sizes (`256MiB` style allowed) |
 * | AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN | S3 credentials (both key id and secret needed) |
 * | AWS_NO_SIGN_REQUEST | YES: unsigned S3 requests |
 * | AWS_REGION, AWS_DEFAULT_REGION | S3 region (default us-east-1) |
 * | AWS_S3_ENDPOINT, AWS_HTTPS | S3-compatible endpoint (path-style); AWS_HTTPS=NO for http when the endpoint has no scheme |
 */
export function sourceOptionsFromEnv(env: NodeJS.ProcessEnv, defaults: Partial<SourceOptions> = {}): SourceOptions {
  const d = DEFAULT_SOURCE_OPTIONS;
  const e = (name: string): string | undefined => nonEmpty(env[name]);

  const rootsEnv = e('RASTILE_LOCAL_ROOTS');
  const localRoots = (rootsEnv !== undefined ? rootsEnv.split(path.delimiter).filter((r) => r.trim() !== '') : (defaults.localRoots ?? [...d.localRoots])).map(
    (r) => path.resolve(r.trim()),
  );

  const allowPrivate = e('RASTILE_ALLOW_PRIVATE_HOSTS');
  const allowedHosts = e('RASTILE_ALLOWED_HOSTS');
  const timeout = e('RASTILE_HTTP_TIMEOUT_MS');
  const retries = e('RASTILE_HTTP_RETRIES');
  const redirects = e('RASTILE_HTTP_MAX_REDIRECTS');
  const cacheBytes = e('RASTILE_CACHE_BYTES');
  const wholeBody = e('RASTILE_MAX_WHOLE_BODY_BYTES');
  const revalidate = e('RASTILE_REVALIDATE_MS');
  const unvalidatedReuse = e('RASTILE_UNVALIDATED_REUSE_MS');

  const s3Defaults: Partial<S3Options> = defaults.s3 ?? {};
  const accessKeyId = e('AWS_ACCESS_KEY_ID');
  const secretAccessKey = e('AWS_SECRET_ACCESS_KEY');
  const useEnvCreds = accessKeyId !== undefined && secretAccessKey !== undefined;
  let endpoint = e('AWS_S3_ENDPOINT') ?? s3Defaults.endpoint;
  if (endpoint !== undefined && !/^https?:\/\//i.test(endpoint)) {
    const https = e('AWS_HTTPS') === undefined ? true : parseBool('AWS_HTTPS', e('AWS_HTTPS')!);
    endpoint = `${https ? 'https' : 'http'}://${endpoint}`;
  }
  const noSignEnv = e('AWS_NO_SIGN_REQUEST');
  const s3: S3Options = {
    region: e('AWS_REGION') ?? e('AWS_DEFAULT_REGION') ?? s3Defaults.region ?? 'us-east-1',
    ...(endpoint !== undefined ? { endpoint: endpoint.replace(/\/+$/, '') } : {}),
    ...(useEnvCreds
      ? { accessKeyId, secretAccessKey, ...(e('AWS_SESSION_TOKEN') !== undefined ? { sessionToken: e('AWS_SESSION_TOKEN') } : {}) }
      : {
          ...(s3Defaults.accessKeyId !== undefined ? { accessKeyId: s3Defaults.accessKeyId } : {}),
          ...(s3Defaults.secretAccessKey !== undefined ? { secretAccessKey: s3Defaults.secretAccessKey } : {}),
          ...(s3Defaults.sessionToken !== undefined ? { sessionToken: s3Defaults.sessionToken } : {}),
        }),
    noSign: noSignEnv !== undefined ? parseBool('AWS_NO_SIGN_REQUEST', noSignEnv) : (s3Defaults.noSign ?? false),
  };

  return {
    ...defaults,
    localRoots,
    allowPrivateHosts:
      allowPrivate !== undefined ? parseBool('RASTILE_ALLOW_PRIVATE_HOSTS', allowPrivate) : (defaults.allowPrivateHosts ?? d.allowPrivateHosts),
    ...(allowedHosts !== undefined
      ? {
          allowedHosts: allowedHosts
            .split(',')
            .map((h) => h.trim())
            .filter((h) => h !== ''),
        }
      : defaults.allowedHosts !== undefined
        ? { allowedHosts: defaults.allowedHosts }
        : {}),
    requestTimeoutMs: timeout !== undefined ? parseCount('RASTILE_HTTP_TIMEOUT_MS', timeout) : (defaults.requestTimeoutMs ?? d.requestTimeoutMs),
    retries: retries !== undefined ? parseCount('RASTILE_HTTP_RETRIES', retries) : (defaults.retries ?? d.retries),
    ...(redirects !== undefined ? { maxRedirects: parseCount('RASTILE_HTTP_MAX_REDIRECTS', redirects) } : {}),
    cacheBytes: cacheBytes !== undefined ? parseByteSize('RASTILE_CACHE_BYTES', cacheBytes) : (defaults.cacheBytes ?? d.cacheBytes),
    maxWholeBodyBytes: wholeBody !== undefined ? parseByteSize('RASTILE_MAX_WHOLE_BODY_BYTES', wholeBody) : (defaults.maxWholeBodyBytes ?? d.maxWholeBodyBytes),
    ...(revalidate !== undefined ? { revalidateMs: parseCount('RASTILE_REVALIDATE_MS', revalidate) } : {}),
    ...(unvalidatedReuse !== undefined ? { unvalidatedReuseMs: parseCount('RASTILE_UNVALIDATED_REUSE_MS', unvalidatedReuse) } : {}),
    s3,
  };
}

/** SourceOptions with every optional tuning knob filled in (internal to src/sources). */
export type ResolvedSourceOptions = SourceOptions & {
  allowedHosts: string[];
  retryBaseDelayMs: number;
  maxRedirects: number;
  headerBytes: number;
  coalesceGapBytes: number;
  coalesceMaxBytes: number;
  maxOpenFiles: number;
  maxSources: number;
  revalidateMs: number;
  unvalidatedReuseMs: number;
  userAgent: string;
};

export function resolveSourceOptions(o: SourceOptions): ResolvedSourceOptions {
  const d = DEFAULT_SOURCE_OPTIONS;
  return {
    ...o,
    localRoots: o.localRoots.map((r) => path.resolve(r)),
    allowedHosts: (o.allowedHosts ?? []).map((h) => h.toLowerCase()),
    retryBaseDelayMs: o.retryBaseDelayMs ?? d.retryBaseDelayMs,
    maxRedirects: o.maxRedirects ?? d.maxRedirects,
    headerBytes: o.headerBytes ?? d.headerBytes,
    coalesceGapBytes: o.coalesceGapBytes ?? d.coalesceGapBytes,
    coalesceMaxBytes: o.coalesceMaxBytes ?? d.coalesceMaxBytes,
    maxOpenFiles: o.maxOpenFiles ?? d.maxOpenFiles,
    maxSources: o.maxSources ?? d.maxSources,
    revalidateMs: o.revalidateMs ?? d.revalidateMs,
    unvalidatedReuseMs: o.unvalidatedReuseMs ?? d.unvalidatedReuseMs,
    userAgent: o.userAgent ?? d.userAgent,
  };
}
