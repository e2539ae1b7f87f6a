/**
 * Prometheus metrics of upstream traffic (http, https, s3), per host: requests by status,
 * time to response headers, network errors, body bytes received. The host label is the URL's
 * host (and port): bounded by the hosts the network policy lets through.
 */
import { counter, histogram } from '../util/metrics.ts';

const requests = () =>
  counter('rastile_upstream_requests_total', 'Upstream HTTP requests sent (every redirect hop and retry), by answer status', ['host', 'status']);
const errors = () => counter('rastile_upstream_errors_total', 'Upstream requests that failed without an HTTP answer (connection, DNS, timeout)', ['host']);
const bytes = () => counter('rastile_upstream_bytes_total', 'Body bytes received from upstream', ['host']);
const latency = () => histogram('rastile_upstream_request_duration_seconds', 'Time from an upstream request to its response headers', ['host']);

/** `fetch` with the request counted: status, time to headers, or the error. */
export async function measuredFetch(url: URL, init: RequestInit): Promise<Response> {
  const host = url.host;
  const t0 = performance.now();
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (init.signal?.aborted !== true) upstreamFailed(host);
    throw err;
  }
  upstreamAnswered(host, response.status, t0);
  return response;
}

/** Counts an answer from `host` (status, time since `t0` = performance.now() when sent). */
export function upstreamAnswered(host: string, status: number, t0: number): void {
  latency().observe({ host }, (performance.now() - t0) / 1000);
  requests().inc({ host, status: String(status) });
}

/** Counts a request to `host` that failed without an answer (not an abort). */
export function upstreamFailed(host: string): void {
  errors().inc({ host });
}

/** Body bytes received from `url`'s host. */
export function countUpstreamBytes(url: URL, n: number): void {
  if (n > 0) bytes().inc({ host: url.host }, n);
}
