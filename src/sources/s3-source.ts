import { Errors, type ErrorContext, type RastileError } from '../errors.ts';
import { discard, networkError } from './http-request.ts';
import type { S3Options } from './options.ts';
import type { RangeTransport } from './remote-range-source.ts';
import { signRequest, uriEncode } from './s3-signer.ts';
import type { SourceStats } from './source.ts';
import { measuredFetch } from './upstream-metrics.ts';
import { bufferedResponse, fromFetch, readUpTo, type UpstreamResponse } from './upstream-response.ts';

export interface S3TransportOptions {
  s3: S3Options;
  userAgent: string;
  /** bucket → region learnt from S3's `x-amz-bucket-region` hints, shared by the sources of one opener. */
  regionCache: Map<string, string>;
  /** Clock for signing (tests). */
  now?: () => Date;
}

/** A bucket name usable as a DNS label run under amazonaws.com with a valid TLS certificate. */
const VIRTUAL_HOST_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/**
 * The URL of an object. With an operator endpoint (S3-compatible store): path-style
 * `<endpoint>/<bucket>/<key>`. On AWS: virtual-hosted `https://<bucket>.s3.<region>.amazonaws.com/<key>`,
 * or path-style on `s3.<region>.amazonaws.com` for bucket names that are not valid host labels
 * (dots would break the wildcard certificate).
 */
export function s3ObjectUrl(bucket: string, key: string, region: string, endpoint: string | undefined): URL {
  const path = uriEncode(key, true);
  if (endpoint !== undefined) {
    const base = new URL(endpoint);
    const prefix = base.pathname.replace(/\/+$/, '');
    return new URL(`${base.origin}${prefix}/${uriEncode(bucket, false)}/${path}`);
  }
  if (VIRTUAL_HOST_BUCKET.test(bucket)) return new URL(`https://${bucket}.s3.${region}.amazonaws.com/${path}`);
  return new URL(`https://s3.${region}.amazonaws.com/${uriEncode(bucket, false)}/${path}`);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Signed (or anonymous) S3 GETs for RemoteRangeSource. The endpoint is the operator's, so the
 * network policy does not apply; S3 redirects are not followed, except that a wrong-region
 * answer naming the bucket's region (`x-amz-bucket-region`, or `<Region>` in a 400 body, as AWS
 * and MinIO send) is retried once in that region, which is then remembered for the bucket.
 */
export class S3Transport implements RangeTransport {
  readonly url: string;
  readonly display: string;

  constructor(
    private readonly bucket: string,
    private readonly key: string,
    private readonly options: S3TransportOptions,
    private readonly stats: SourceStats,
  ) {
    this.url = `s3://${bucket}/${key}`;
    this.display = this.url;
  }

  async send(
    range: string | undefined,
    signal: AbortSignal | undefined,
    conditions?: Readonly<Record<string, string>>,
  ): Promise<{ response: UpstreamResponse; url: URL }> {
    const { s3, regionCache } = this.options;
    let region = regionCache.get(this.bucket) ?? s3.region;
    for (let attempt = 0; ; attempt++) {
      const url = s3ObjectUrl(this.bucket, this.key, region, s3.endpoint);
      const headers = this.headers(url, region, range, conditions);
      let response: UpstreamResponse;
      this.stats.requests++;
      try {
        response = fromFetch(await measuredFetch(url, { method: 'GET', headers, redirect: 'manual', signal: signal ?? null }));
      } catch (err) {
        throw networkError(err, url, signal);
      }
      const status = response.status;
      if (status === 400 || REDIRECT_STATUSES.has(status)) {
        // Wrong region: S3 answers 301 PermanentRedirect or 400 AuthorizationHeaderMalformed
        // and names the bucket's region in a header (or, for the 400, in the XML body).
        let hinted = response.headers.get('x-amz-bucket-region');
        let text: string | undefined;
        if (hinted === null && status === 400) {
          text = await readText(response);
          hinted = /<Region>([a-z0-9-]{1,40})<\/Region>/.exec(text)?.[1] ?? null;
        }
        if (hinted !== null && hinted !== region && attempt === 0 && /^[a-z0-9-]{1,40}$/.test(hinted)) {
          if (text === undefined) await discard(response);
          regionCache.set(this.bucket, hinted);
          region = hinted;
          continue;
        }
        if (REDIRECT_STATUSES.has(status)) {
          if (text === undefined) await discard(response);
          throw Errors.upstream(`S3 answered HTTP ${status} (redirect) for ${this.display}; redirects from S3 are not followed`);
        }
        if (text !== undefined) {
          response = bufferedResponse(status, response.statusText, response.headers, new TextEncoder().encode(text));
        }
      }
      return { response, url };
    }
  }

  private headers(url: URL, region: string, range: string | undefined, conditions: Readonly<Record<string, string>> | undefined): Record<string, string> {
    const { s3, userAgent } = this.options;
    // undici appends `Accept-Encoding: identity` itself when a Range header is present.
    const base: Record<string, string> = range !== undefined ? { range } : { 'accept-encoding': 'identity' };
    if (conditions !== undefined) Object.assign(base, conditions); // signed like the range
    if (s3.noSign === true || s3.accessKeyId === undefined || s3.secretAccessKey === undefined) return { ...base, 'user-agent': userAgent };
    const signed = signRequest({
      method: 'GET',
      url,
      headers: base,
      credentials: {
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        ...(s3.sessionToken !== undefined ? { sessionToken: s3.sessionToken } : {}),
      },
      region,
      date: this.options.now?.() ?? new Date(),
    });
    return { ...signed, 'user-agent': userAgent };
  }

  /**
   * A refused unsigned request. Without credentials (and without AWS_NO_SIGN_REQUEST=YES, which
   * asks for unsigned requests on purpose) the object is not public and the server lacks what it
   * needs to read it: 401, naming the missing settings (GDAL refuses such a read before sending it;
   * TiTiler answers 401 for a MosaicJSON). With AWS_NO_SIGN_REQUEST=YES: 403, saying so.
   */
  refused(detail: string, context: ErrorContext): RastileError | undefined {
    const { s3 } = this.options;
    if (s3.noSign === true)
      return Errors.sourceForbidden(`Access to ${this.display} is forbidden (${detail}) to unsigned requests (AWS_NO_SIGN_REQUEST=YES)`, { context });
    if (s3.accessKeyId !== undefined && s3.secretAccessKey !== undefined) return undefined;
    return Errors.sourceUnauthorized(
      `Access to ${this.display} was refused (${detail}): this server has no S3 credentials. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials) on the server`,
      { context },
    );
  }

  async errorCode(response: UpstreamResponse): Promise<string | undefined> {
    const text = await readText(response);
    return /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(text)?.[1];
  }
}

/** Reads at most 64 KiB of an error body as text (S3 error documents are small). */
async function readText(response: UpstreamResponse): Promise<string> {
  try {
    return Buffer.from(await readUpTo(response, 65536)).toString('utf8');
  } catch {
    return ''; // a broken error body only loses us the error code
  }
}
