/**
 * GET /metrics (prom-client): request histograms per route template, status counts, block-cache
 * and byte-cache counters, upstream traffic per host — checked against what the range server
 * itself saw (its request log and the bytes of the ranges it answered).
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

/** Prometheus text → `name{labels}` → value (labels as printed, sorted by prom-client's order). */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** Sum of every series of `name` whose labels contain all of `labels` (`key="value"` substrings). */
function sum(m: Map<string, number>, name: string, ...labels: string[]): number {
  let total = 0;
  for (const [k, v] of m) {
    const base = k.includes('{') ? k.slice(0, k.indexOf('{')) : k;
    if (base === name && labels.every((l) => k.includes(l))) total += v;
  }
  return total;
}

let server: TestServer;
let http: RangeServer;
before(async () => {
  server = await startTestServer();
  // With validators: a versioned remote object, whose blocks the cache keeps between requests.
  http = await startRangeServer({ root: fixture('datasets'), validators: 'etag' });
});
after(async () => {
  await server.close();
  await http.close();
});

const scrape = async (): Promise<Map<string, number>> => {
  const r = await server.get('/metrics');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  return parseMetrics(await r.text());
};

describe('/metrics', () => {
  it('counts requests per route template and status, with latency histograms', async () => {
    const before = await scrape();
    assert.equal((await server.get('/tileMatrixSets/WebMercatorQuad')).status, 200);
    assert.equal((await server.get('/tileMatrixSets/NoSuchTms')).status, 422);
    assert.equal((await server.get('/no/such/route')).status, 404);
    const after = await scrape();
    const route = 'route="/tileMatrixSets/:tileMatrixSetId"';
    const count = (m: Map<string, number>, ...l: string[]) => sum(m, 'rastile_http_request_duration_seconds_count', route, ...l);
    assert.equal(count(after, 'status="200"') - count(before, 'status="200"'), 1);
    assert.equal(count(after, 'status="422"') - count(before, 'status="422"'), 1);
    const unmatched = (m: Map<string, number>) => sum(m, 'rastile_http_request_duration_seconds_count', 'route="unmatched"');
    assert.equal(unmatched(after) - unmatched(before), 1);
    // The +Inf bucket holds every observation.
    assert.equal(sum(after, 'rastile_http_request_duration_seconds_bucket', route, 'le="+Inf"'), count(after));
    // The scrape before counts too: 3 requests + 1 scrape between the two scrapes.
    assert.equal(sum(after, 'rastile_http_requests_total') - sum(before, 'rastile_http_requests_total'), 4);
    assert.equal(sum(after, 'rastile_http_responses_total', 'status="404"') - sum(before, 'rastile_http_responses_total', 'status="404"'), 1);
    assert.ok(sum(after, 'rastile_process_resident_bytes') > 0);
    assert.ok(sum(after, 'process_cpu_seconds_total') > 0, 'prom-client default process metrics');
  });

  it('counts upstream requests and bytes per host exactly as the server saw them, and block-cache hits on a repeat', async () => {
    const url = `${http.url}/float32_nan_4326.tif`;
    const host = `host="127.0.0.1:${http.port}"`;
    const m0 = await scrape();
    assert.equal((await server.get(`/cog/statistics?url=${q(url)}`)).status, 200);
    const m1 = await scrape();
    // Another histogram, same blocks: the response cache (issue 12) must not answer the repeat.
    assert.equal((await server.get(`/cog/statistics?url=${q(url)}&histogram_bins=7`)).status, 200);
    const m2 = await scrape();

    // Upstream: every request the range server logged, and the bytes of the ranges it answered.
    const size = statSync(fixture('datasets', 'float32_nan_4326.tif')).size;
    let bytes = 0;
    for (const r of http.requests) {
      const [a, b] = r.range!.replace('bytes=', '').split('-').map(Number);
      bytes += Math.min(b, size - 1) - a + 1;
    }
    assert.ok(http.requests.length > 0);
    assert.equal(sum(m2, 'rastile_upstream_requests_total', host, 'status="206"'), http.requests.length);
    assert.equal(sum(m2, 'rastile_upstream_request_duration_seconds_count', host), http.requests.length);
    assert.equal(sum(m2, 'rastile_upstream_bytes_total', host), bytes);
    assert.equal(sum(m2, 'rastile_upstream_errors_total', host), 0);

    // Blocks: the first statistics decoded them (misses = decodes), the repeat hit every one.
    const decodes1 = sum(m1, 'rastile_block_decodes_total') - sum(m0, 'rastile_block_decodes_total');
    const misses1 = sum(m1, 'rastile_cache_misses_total', 'cache="block"') - sum(m0, 'rastile_cache_misses_total', 'cache="block"');
    assert.ok(decodes1 > 0);
    assert.equal(misses1, decodes1);
    assert.equal(sum(m2, 'rastile_block_decodes_total'), sum(m1, 'rastile_block_decodes_total'), 'the repeat decoded nothing');
    const hits2 = sum(m2, 'rastile_cache_hits_total', 'cache="block"') - sum(m1, 'rastile_cache_hits_total', 'cache="block"');
    assert.ok(hits2 >= decodes1, `block cache hits on the repeat: ${hits2} < ${decodes1}`);
    assert.ok(sum(m2, 'rastile_cache_bytes', 'cache="block"') > 0);
    assert.equal(sum(m2, 'rastile_cache_max_bytes', 'cache="block"'), server.config.cache.decodedBytes);
    assert.equal(sum(m2, 'rastile_cache_max_bytes', 'cache="bytes"'), server.config.sources.cacheBytes);
    assert.ok(sum(m2, 'rastile_cache_misses_total', 'cache="bytes"') > 0);
  });
});
