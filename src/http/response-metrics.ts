/**
 * The per-response HTTP metrics (request count, responses per status, latency histogram per route
 * template), shared by the onResponse hook (src/http/factories/metrics-routes.ts) and the response
 * cache's fast path (src/http/response-cache/fast-path.ts), so a response answered either way is
 * counted in the same series.
 */
import { counter, histogram } from '../util/metrics.ts';

interface Series {
  response: { inc(): void };
  duration: { observe(value: number): void };
}

let counters: { requests: { inc(): void }; series: (method: string, route: string, status: number) => Series } | undefined;

function create(): NonNullable<typeof counters> {
  const requests = counter('rastile_http_requests_total', 'HTTP requests answered');
  const responses = counter('rastile_http_responses_total', 'HTTP responses by status code', ['status']);
  const duration = histogram('rastile_http_request_duration_seconds', 'Time from request to response sent, per route template', ['method', 'route', 'status']);
  // The labelled series of each (method, route, status), looked up once: prom-client hashes the
  // label object on every call otherwise.
  const byKey = new Map<string, Series>();
  return {
    requests,
    series(method, route, status) {
      const key = `${method} ${status} ${route}`;
      let s = byKey.get(key);
      if (s === undefined) {
        const labels = { method, route, status: String(status) };
        s = { response: responses.labels({ status: labels.status }), duration: duration.labels(labels) };
        byKey.set(key, s);
      }
      return s;
    },
  };
}

/** Registers the metrics (once per process; idempotent). */
export function registerResponseMetrics(): void {
  counters ??= create();
}

/** Counts one response: `route` is the route template (never the raw URL: bounded labels). */
export function countResponse(method: string, route: string, status: number, seconds: number): void {
  const c = (counters ??= create());
  c.requests.inc();
  const s = c.series(method, route, status);
  s.response.inc();
  s.duration.observe(seconds);
}
