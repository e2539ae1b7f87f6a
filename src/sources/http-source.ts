import { httpGet, safeUrl } from './http-request.ts';
import type { NetworkPolicy } from './network-policy.ts';
import type { RangeTransport } from './remote-range-source.ts';
import type { SourceStats } from './source.ts';
import type { UpstreamResponse } from './upstream-response.ts';

export interface HttpTransportOptions {
  policy: NetworkPolicy;
  maxRedirects: number;
  userAgent: string;
  authHeaders?: (url: URL) => Promise<Record<string, string> | undefined>;
}

/**
 * Plain http(s) GETs for RemoteRangeSource. The URL itself was checked against the network
 * policy when the source was opened; redirect hops are checked on every request.
 */
export class HttpTransport implements RangeTransport {
  readonly url: string;
  readonly display: string;

  constructor(
    private readonly target: URL,
    private readonly options: HttpTransportOptions,
    private readonly stats: SourceStats,
  ) {
    this.url = target.href;
    this.display = safeUrl(target);
  }

  send(
    range: string | undefined,
    signal: AbortSignal | undefined,
    conditions?: Readonly<Record<string, string>>,
  ): Promise<{ response: UpstreamResponse; url: URL }> {
    const { policy, maxRedirects, userAgent, authHeaders } = this.options;
    return httpGet(this.target, {
      policy,
      maxRedirects,
      signal,
      stats: this.stats,
      firstHopChecked: true,
      headersFor: async (url) => {
        const headers: Record<string, string> = {};
        const extra = authHeaders !== undefined ? await authHeaders(url) : undefined;
        if (extra !== undefined) {
          for (const [k, v] of Object.entries(extra)) headers[k.toLowerCase()] = v;
        }
        headers['user-agent'] ??= userAgent;
        // Ranges of a gzip-encoded representation are not ranges of the file: ask for identity.
        headers['accept-encoding'] = 'identity';
        if (conditions !== undefined) Object.assign(headers, conditions);
        if (range !== undefined) headers['range'] = range;
        else delete headers['range'];
        return headers;
      },
    });
  }
}
