/**
 * AWS Signature Version 4 for S3 requests (header-based), written with node:crypto so that we do
 * not pull in the AWS SDK for one HMAC chain. Reference: AWS "Signature Calculations for the
 * Authorization Header" (S3 API docs); tested against its published GET Object example.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignInput {
  method: string;
  url: URL;
  /** Headers to send and sign (lower- or mixed-case names). `host` is taken from the URL. */
  headers: Record<string, string>;
  credentials: AwsCredentials;
  region: string;
  date: Date;
  service?: string;
  /** Hex SHA-256 of the body, or 'UNSIGNED-PAYLOAD'. Default: hash of the empty body. */
  payloadHash?: string;
}

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();

/** RFC 3986 percent-encoding as SigV4 wants it: everything but A–Z a–z 0–9 - . _ ~ (and `/` when asked). */
export function uriEncode(text: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * The canonical URI of an S3 request: S3 encodes the path once, as it is. Our URLs are built from
 * keys already encoded with uriEncode (see s3-source.ts), so the URL's pathname is used verbatim;
 * anything else is re-encoded from its decoded form.
 */
function canonicalUri(url: URL): string {
  const segments = url.pathname.split('/').map((seg) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      decoded = seg;
    }
    return uriEncode(decoded, false);
  });
  const joined = segments.join('/');
  return joined === '' ? '/' : joined;
}

function canonicalQuery(url: URL): string {
  const pairs: Array<[string, string]> = [];
  for (const [k, v] of url.searchParams) pairs.push([uriEncode(k, false), uriEncode(v, false)]);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export interface CanonicalParts {
  canonicalRequest: string;
  signedHeaders: string;
  stringToSign: string;
  scope: string;
  /** Every header to send, names lower-cased, including host, x-amz-date and x-amz-content-sha256. */
  headers: Record<string, string>;
}

/** Builds the canonical request and the string to sign (exported for tests). */
export function canonicalize(input: SignInput): CanonicalParts {
  const service = input.service ?? 's3';
  const payloadHash = input.payloadHash ?? EMPTY_SHA256;
  const stamp = amzDate(input.date);
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.headers)) headers[k.toLowerCase()] = v;
  headers['host'] = input.url.host;
  headers['x-amz-date'] = stamp;
  headers['x-amz-content-sha256'] = payloadHash;
  if (input.credentials.sessionToken !== undefined) headers['x-amz-security-token'] = input.credentials.sessionToken;

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [input.method.toUpperCase(), canonicalUri(input.url), canonicalQuery(input.url), canonicalHeaders, signedHeaders, payloadHash].join(
    '\n',
  );
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  return { canonicalRequest, signedHeaders, stringToSign, scope, headers };
}

export function signingKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request');
}

/** Returns the headers to send (host excluded: fetch sets it from the URL), Authorization included. */
export function signRequest(input: SignInput): Record<string, string> {
  const parts = canonicalize(input);
  const day = parts.scope.slice(0, 8);
  const key = signingKey(input.credentials.secretAccessKey, day, input.region, input.service ?? 's3');
  const signature = createHmac('sha256', key).update(parts.stringToSign, 'utf8').digest('hex');
  const { host: _host, ...headers } = parts.headers;
  headers['authorization'] =
    `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${parts.scope},SignedHeaders=${parts.signedHeaders},Signature=${signature}`;
  return headers;
}
