/**
 * A small S3-compatible server on 127.0.0.1 that really verifies AWS Signature V4 (header auth),
 * for tests of S3 reads.
 *
 * Why not s3rver (a devDependency): s3rver 3.7.1 runs on Node 20, but its authentication
 * middleware only checks SigV2; for SigV4 it checks that the access key id exists and accepts any
 * signature ("Signature version 4 calculation is unimplemented" in lib/middleware/authentication.js),
 * so it cannot tell a good signature from a bad one. This stand-in recomputes the signature from
 * the request as received, with its own canonicalisation code (independent of src/sources/s3-signer.ts),
 * and test/sources/s3-standin.test.ts checks that code against AWS's published example.
 *
 * ```ts
 * const s3 = await startS3Standin({
 *   buckets: { bkt: { 'dir/a.tif': bytes } },
 *   accounts: [{ accessKeyId: 'AKID', secretAccessKey: 'secret' }],
 *   region: 'us-east-1',
 * });
 * // endpoint for path-style requests: s3.url  (e.g. AWS_S3_ENDPOINT)
 * s3.requests;  // [{ method, path, range, headers, outcome }]  outcome: 'ok' | an S3 error code
 * await s3.close();
 * ```
 *
 * Answers like S3: GetObject (and HEAD) with Range (206/Content-Range, 416 InvalidRange), errors as
 * XML `<Error><Code>…</Code>…</Error>`: NoSuchBucket/NoSuchKey 404, AccessDenied (anonymous when
 * not allowed), InvalidAccessKeyId, SignatureDoesNotMatch, InvalidToken, RequestTimeTooSkewed 403,
 * AuthorizationHeaderMalformed 400 with `x-amz-bucket-region` (wrong region in the scope).
 * Path-style only: `/<bucket>/<key>`.
 *
 * Objects carry an ETag (the hex MD5 of the bytes in quotes, as S3 gives single-part uploads) and
 * a Last-Modified; `If-Match` with another ETag → 412 PreconditionFailed, as S3 answers.
 * `put(bucket, key, bytes)` replaces an object (a new version) while the server runs.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './local-server.ts';

export interface S3Account {
  accessKeyId: string;
  secretAccessKey: string;
  /** When set, requests with this key must carry this x-amz-security-token. */
  sessionToken?: string;
}

export interface S3StandinOptions {
  buckets: Record<string, Record<string, Uint8Array | string>>;
  accounts?: S3Account[];
  region?: string;
  /** Let unsigned requests read (a public bucket). Default false. */
  allowAnonymous?: boolean;
  now?: () => Date;
}

export interface S3Request {
  method: string;
  path: string;
  range: string | undefined;
  headers: IncomingHttpHeaders;
  outcome: string;
}

export interface S3Standin {
  url: string;
  port: number;
  requests: S3Request[];
  /** Creates or replaces an object (new ETag and Last-Modified). */
  put(bucket: string, key: string, bytes: Uint8Array): void;
  close(): Promise<void>;
}

// ---------- SigV4, as the server side computes it ----------

/** RFC 3986 strict encoding (encodeURIComponent leaves !'()* alone; SigV4 does not). */
function strictEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

export interface ReceivedRequest {
  method: string;
  /** Raw path as received (percent-encoded). */
  rawPath: string;
  /** Raw query string without `?`. */
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
}

/** S3's canonical URI: every segment decoded and encoded once more, strictly. */
function canonicalPath(rawPath: string): string {
  return rawPath
    .split('/')
    .map((seg) => strictEncode(decodeURIComponent(seg)))
    .join('/');
}

function canonicalQueryString(rawQuery: string): string {
  if (rawQuery === '') return '';
  const pairs = rawQuery.split('&').map((part) => {
    const eq = part.indexOf('=');
    const k = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
    const v = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    return `${strictEncode(k)}=${strictEncode(v)}`;
  });
  return pairs.sort().join('&');
}

function headerValue(headers: ReceivedRequest['headers'], name: string): string {
  const v = headers[name];
  const joined = Array.isArray(v) ? v.join(',') : (v ?? '');
  return joined.trim().replace(/ {2,}/g, ' ');
}

/** The hex signature the server expects for `req`, given the client's signed header list and scope. */
export function expectedSignature(
  req: ReceivedRequest,
  signedHeaders: string[],
  secretAccessKey: string,
  amzDate: string,
  scope: { day: string; region: string; service: string },
): { signature: string; canonicalRequest: string; stringToSign: string } {
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${headerValue(req.headers, h)}\n`).join('');
  const canonicalRequest = [
    req.method,
    canonicalPath(req.rawPath),
    canonicalQueryString(req.rawQuery),
    canonicalHeaders,
    signedHeaders.join(';'),
    headerValue(req.headers, 'x-amz-content-sha256'),
  ].join('\n');
  const scopeText = `${scope.day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scopeText}\n${createHash('sha256').update(canonicalRequest).digest('hex')}`;
  let key: Buffer = createHmac('sha256', 'AWS4' + secretAccessKey)
    .update(scope.day)
    .digest();
  for (const part of [scope.region, scope.service, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return { signature, canonicalRequest, stringToSign };
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly extraHeaders: Record<string, string> = {},
    readonly extraXml = '',
  ) {
    super(code);
  }
}

function parseAmzDate(text: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

function authenticate(req: IncomingMessage, o: S3StandinOptions, region: string): void {
  const auth = req.headers.authorization;
  if (auth === undefined) {
    if (o.allowAnonymous === true) return;
    throw new S3Failure(403, 'AccessDenied');
  }
  const m = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+)\s*,\s*SignedHeaders=([^,\s]+)\s*,\s*Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) throw new S3Failure(400, 'AuthorizationHeaderMalformed');
  const [keyId, day, scopeRegion, service, terminator, ...rest] = m[1]!.split('/');
  if (rest.length > 0 || terminator !== 'aws4_request' || service !== 's3' || !day || !scopeRegion) {
    throw new S3Failure(400, 'AuthorizationHeaderMalformed');
  }
  const account = (o.accounts ?? []).find((a) => a.accessKeyId === keyId);
  if (account === undefined) throw new S3Failure(403, 'InvalidAccessKeyId');
  if (scopeRegion !== region) {
    throw new S3Failure(400, 'AuthorizationHeaderMalformed', { 'x-amz-bucket-region': region }, `<Region>${region}</Region>`);
  }
  const signed = m[2]!.split(';');
  const sortedUnique = [...new Set(signed)].sort();
  if (sortedUnique.join(';') !== signed.join(';') || !signed.includes('host') || !signed.includes('x-amz-date')) {
    throw new S3Failure(400, 'AuthorizationHeaderMalformed');
  }
  const amzDate = headerValue(req.headers, 'x-amz-date');
  const when = parseAmzDate(amzDate);
  if (when === undefined || amzDate.slice(0, 8) !== day) throw new S3Failure(403, 'AccessDenied');
  const now = o.now?.() ?? new Date();
  if (Math.abs(now.getTime() - when.getTime()) > 15 * 60 * 1000) throw new S3Failure(403, 'RequestTimeTooSkewed');
  const payload = headerValue(req.headers, 'x-amz-content-sha256');
  if (payload === '') throw new S3Failure(400, 'InvalidRequest');
  if (payload !== 'UNSIGNED-PAYLOAD' && payload !== createHash('sha256').update('').digest('hex')) {
    throw new S3Failure(400, 'XAmzContentSHA256Mismatch');
  }
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const { signature } = expectedSignature(
    { method: req.method ?? 'GET', rawPath: q < 0 ? target : target.slice(0, q), rawQuery: q < 0 ? '' : target.slice(q + 1), headers: req.headers },
    signed,
    account.secretAccessKey,
    amzDate,
    { day, region: scopeRegion, service },
  );
  if (signature !== m[3]) throw new S3Failure(403, 'SignatureDoesNotMatch');
  if (account.sessionToken !== undefined) {
    if (!signed.includes('x-amz-security-token') || headerValue(req.headers, 'x-amz-security-token') !== account.sessionToken) {
      throw new S3Failure(403, 'InvalidToken');
    }
  }
}

function sendError(res: ServerResponse, f: S3Failure): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${f.code}</Code><Message>${f.code}</Message>${f.extraXml}<RequestId>0</RequestId></Error>`;
  res.writeHead(f.status, { 'content-type': 'application/xml', ...f.extraHeaders }).end(body);
}

export async function startS3Standin(options: S3StandinOptions): Promise<S3Standin> {
  const region = options.region ?? 'us-east-1';
  const requests: S3Request[] = [];
  interface StoredObject {
    bytes: Uint8Array;
    etag: string;
    lastModified: string;
  }
  const stored = (bytes: Uint8Array): StoredObject => ({
    bytes,
    etag: `"${createHash('md5').update(bytes).digest('hex')}"`,
    lastModified: new Date().toUTCString(),
  });
  const buckets = new Map<string, Map<string, StoredObject>>();
  for (const [name, objects] of Object.entries(options.buckets)) {
    buckets.set(name, new Map(Object.entries(objects).map(([k, v]) => [k, stored(typeof v === 'string' ? new TextEncoder().encode(v) : v)])));
  }

  const server = createServer((req, res) => {
    const target = req.url ?? '/';
    const rawPath = target.split('?')[0]!;
    const record: S3Request = { method: req.method ?? 'GET', path: rawPath, range: req.headers.range, headers: req.headers, outcome: 'ok' };
    requests.push(record);
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new S3Failure(405, 'MethodNotAllowed');
      authenticate(req, options, region);
      const slash = rawPath.indexOf('/', 1);
      const bucketName = decodeURIComponent(slash < 0 ? rawPath.slice(1) : rawPath.slice(1, slash));
      const key = slash < 0 ? '' : decodeURIComponent(rawPath.slice(slash + 1));
      const bucket = buckets.get(bucketName);
      if (bucket === undefined) throw new S3Failure(404, 'NoSuchBucket');
      const entry = bucket.get(key);
      if (entry === undefined) throw new S3Failure(404, 'NoSuchKey');
      const ifMatch = req.headers['if-match'];
      if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== entry.etag) throw new S3Failure(412, 'PreconditionFailed');
      const object = entry.bytes;
      const versionHeaders = { etag: entry.etag, 'last-modified': entry.lastModified };
      const size = object.length;
      const range = req.headers.range;
      const m = range === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
      if (m) {
        const start = Number(m[1]);
        if (start >= size) throw new S3Failure(416, 'InvalidRange', { 'content-range': `bytes */${size}` });
        const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
        res.writeHead(206, {
          ...versionHeaders,
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${size}`,
          'accept-ranges': 'bytes',
        });
        res.end(req.method === 'HEAD' ? undefined : Buffer.from(object.subarray(start, end + 1)));
        return;
      }
      res.writeHead(200, { ...versionHeaders, 'content-length': size, 'accept-ranges': 'bytes' });
      res.end(req.method === 'HEAD' ? undefined : Buffer.from(object));
    } catch (err) {
      const f = err instanceof S3Failure ? err : new S3Failure(500, 'InternalError');
      record.outcome = f.code;
      sendError(res, f);
    }
  });
  const { url, port, close } = await listenOnLoopback(server);
  const put = (bucket: string, key: string, bytes: Uint8Array): void => {
    let objects = buckets.get(bucket);
    if (objects === undefined) buckets.set(bucket, (objects = new Map()));
    objects.set(key, stored(bytes));
  };
  return { url, port, requests, put, close };
}
