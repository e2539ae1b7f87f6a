/**
 * Property-based API fuzzer (issue 16): walks every operation of our own OpenAPI document and sends
 * values drawn from each parameter's schema and just outside it (test/http/fuzz/values.ts), and
 * GeoJSON bodies valid, degenerate and hostile (test/http/fuzz/bodies.ts). Every answer must be
 * < 500, every 4xx must carry a JSON `detail`, no request may hang (10 s abort, not a timing
 * assertion), /healthz must answer between batches and the process RSS stay under 1.5 GiB.
 *
 *   RASTILE_FUZZ_RUNS=N     total cases (default 500, spread evenly over the operations)
 *   RASTILE_FUZZ_SEED=S     replay a run (the seed is printed; each operation uses S + its index)
 *   RASTILE_FUZZ_ROUTE=re   only operations whose "METHOD /path" matches
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from '../search/granule-fixtures.ts';
import { bodies, positions } from './fuzz/bodies.ts';
import { hostile, queryValues, type Schema } from './fuzz/values.ts';

const TOTAL = Number(process.env['RASTILE_FUZZ_RUNS'] ?? 500);
const SEED = Number(process.env['RASTILE_FUZZ_SEED'] ?? 16_2026);
const ROUTE_FILTER = new RegExp(process.env['RASTILE_FUZZ_ROUTE'] ?? '.');
const REQUEST_TIMEOUT_MS = 10_000;
const BATCH = 25;
const MAX_RSS = 1.5 * 2 ** 30;

type Pos = [number, number];
/** Where the fixtures hold data: uint16_nodata_utm (EPSG:32618), the STAC item and the granules, lon 0 lat 0 (global file). */
const CENTRES: Pos[] = [
  [-75.5, 40.6],
  [15.02, 46.04],
  [0, 0],
];

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  params: Array<{ name: string; in: 'query' | 'path'; required: boolean; schema: Schema }>;
  hasBody: boolean;
}

interface Case {
  path: string;
  query: Array<[string, string]>;
  body?: string;
}

let data: RangeServer;
let cmr: CmrStandin;
let server: TestServer;
let operations: Operation[] = [];
const casesPerRoute = new Map<string, number>();
const statuses = new Map<number, number>();
let sent = 0;

before(async () => {
  data = await startRangeServer({ root: GRANULE_DATA_DIR });
  const fx = loadGranuleFixtures(data.url);
  cmr = await startCmrStandin({ granules: fx.items, collections: fx.collections });
  server = await startTestServer((c) => {
    c.cmrUrl = cmr.url;
    // A read of the default 1e8 pixels is allowed work that takes 10–50 s on 2 cores (a bbox far
    // from a UTM dataset's zone warps ~9 Mpx; a 1 × 1.5 M px strip takes 3–9 s): bounding its time is the request budget's job
    // (RASTILE_MAX_REQUEST_MB / RASTILE_REQUEST_TIMEOUT_MS), not this fuzzer's.
    c.limits.maxReadPixels = 2 ** 20;
  });
  const api = (await server.getJson<{ paths: Record<string, Record<string, { parameters: Operation['params']; requestBody?: unknown }>> }>('/api')).body;
  operations = Object.entries(api.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([m, op]) => ({
      method: m.toUpperCase() as Operation['method'],
      path: p,
      params: op.parameters,
      hasBody: op.requestBody !== undefined,
    })),
  );
});
after(async () => {
  await server?.close();
  await cmr?.close();
  await data?.close();
});

const cogFiles = readdirSync(fixture('datasets'))
  .filter((f) => f.endsWith('.tif'))
  .map((f) => fixture('datasets', f));

/** Pools that depend on the route family (dataset URLs, asset names). */
function poolsFor(op: Operation): Record<string, readonly string[]> {
  const family = op.path.split('/')[1];
  const pools: Record<string, string[]> = {
    collection_concept_id: [COLLECTION_ID, COLLECTION_ID, COLLECTION_ID, 'C0-NOPE'],
    lon: CENTRES.map((c) => String(c[0])),
    lat: CENTRES.map((c) => String(c[1])),
  };
  if (family === 'cog')
    pools['url'] = [...cogFiles, path.join(REPO, 'demo', 'rastile-demo.tif'), `file://${cogFiles[0]}`, '/etc/passwd', `${data.url}/nope.tif`, 's3://b/k.tif'];
  if (family === 'stac') {
    pools['url'] = [fixture('stac', 'item.json'), fixture('stac', 'item-props-proj.json'), fixture('stac', 'item-no-raster.json'), fixture('stac', 'red.tif')];
    pools['assets'] = ['red', 'green', 'nir', 'visual', 'red|bidx=1', 'visual|bidx=1,2', 'red|expression=b1*2', ':all:', 'nope'];
  } else {
    pools['assets'] = ['B02', 'B03', 'B04', 'B02|bidx=1', 'B0[2-4]', 'nope'];
  }
  return pools;
}

/** The four corners of a bbox path: ordered boxes around the fixtures, inverted, or hostile. */
function bboxes(): fc.Arbitrary<[string, string, string, string]> {
  const box = fc
    .tuple(positions(CENTRES), fc.constantFrom(1e-7, 0.001, 0.02, 1, 90))
    .map(([[x, y], d]) => [x - d, y - d, x + d, y + d].map(String) as [string, string, string, string]);
  return fc.oneof(
    { weight: 6, arbitrary: box },
    { weight: 1, arbitrary: box.map(([a, b, c, d]) => [c, d, a, b] as [string, string, string, string]) },
    { weight: 2, arbitrary: fc.tuple(hostile(), hostile(), hostile(), hostile()) },
  );
}

function caseArbitrary(op: Operation): fc.Arbitrary<Case> {
  const pools = poolsFor(op);
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const hasBbox = pathParams.some((p) => p.name === 'minx');
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of pathParams) if (!['minx', 'miny', 'maxx', 'maxy'].includes(p.name)) pathArbs[p.name] = queryValues(p.name, p.schema, pools).map((v) => v[0]!);
  const queryArbs: Record<string, fc.Arbitrary<string[] | null>> = {};
  for (const p of queryParams) {
    const values = queryValues(p.name, p.schema, pools);
    queryArbs[p.name] = p.required ? values : fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: values });
  }
  return fc
    .record({
      path: fc.record(pathArbs),
      bbox: hasBbox ? bboxes() : fc.constant(null),
      query: fc.record(queryArbs),
      body: op.hasBody ? bodies(CENTRES) : fc.constant(undefined),
    })
    .map(({ path: pv, bbox, query, body }) => {
      const values: Record<string, string> = { ...pv };
      if (bbox) [values['minx'], values['miny'], values['maxx'], values['maxy']] = bbox;
      const p = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'x'));
      const q: Array<[string, string]> = [];
      for (const [k, vs] of Object.entries(query)) for (const v of vs ?? []) q.push([k, v]);
      return body === undefined ? { path: p, query: q } : { path: p, query: q, body };
    });
}

function describeCase(op: Operation, c: Case): string {
  const qs = new URLSearchParams(c.query).toString();
  const body = c.body === undefined ? '' : `\n  body (${c.body.length} chars): ${c.body.slice(0, 400)}`;
  return `${op.method} ${c.path}${qs ? `?${qs}` : ''}`.slice(0, 2000) + body;
}

async function checkHealth(): Promise<void> {
  const r = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  await r.arrayBuffer();
  assert.equal(r.status, 200, '/healthz did not answer 200 between batches');
  const rss = process.memoryUsage().rss;
  assert.ok(rss < MAX_RSS, `RSS ${(rss / 2 ** 20).toFixed(0)} MiB over ${MAX_RSS / 2 ** 20} MiB`);
}

async function send(op: Operation, c: Case): Promise<void> {
  const qs = new URLSearchParams(c.query).toString();
  const init: RequestInit = { method: op.method, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  if (c.body !== undefined) {
    init.body = c.body;
    init.headers = { 'content-type': 'application/json' };
  }
  let r: Response;
  let raw: Buffer;
  try {
    r = await fetch(`${server.url}${c.path}${qs ? `?${qs}` : ''}`, init);
    raw = Buffer.from(await r.arrayBuffer());
  } catch (err) {
    throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms (${(err as Error).name}): ${describeCase(op, c)}`);
  }
  statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  const key = `${op.method} ${op.path}`;
  casesPerRoute.set(key, (casesPerRoute.get(key) ?? 0) + 1);
  if (r.status >= 500) throw new Error(`${r.status} ${raw.toString('utf8').slice(0, 300)}\n  for ${describeCase(op, c)}`);
  if (r.status >= 400) {
    let detail: unknown;
    try {
      detail = (JSON.parse(raw.toString('utf8')) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    if (detail === undefined || !/json/.test(r.headers.get('content-type') ?? '')) {
      throw new Error(`${r.status} without a JSON detail: ${raw.toString('utf8').slice(0, 200)}\n  for ${describeCase(op, c)}`);
    }
  }
  if (++sent % BATCH === 0) await checkHealth();
}

describe('API fuzzer', () => {
  it(`every operation of /api: no 5xx, a detail on every 4xx, no hang, server alive (seed ${SEED})`, async () => {
    const selected = operations.filter((op) => ROUTE_FILTER.test(`${op.method} ${op.path}`));
    assert.ok(selected.length > 0);
    const perRoute = Math.max(1, Math.round(TOTAL / selected.length));
    for (const [i, op] of selected.entries()) {
      const seed = SEED + i;
      try {
        await fc.assert(
          fc.asyncProperty(caseArbitrary(op), async (c) => {
            try {
              await send(op, c);
            } catch (err) {
              console.error(`API fuzzer: ${(err as Error).message}`);
              throw err;
            }
          }),
          { seed, numRuns: perRoute, endOnFailure: true },
        );
      } catch (err) {
        console.error(`API fuzzer failure on ${op.method} ${op.path}; replay with RASTILE_FUZZ_SEED=${SEED} (operation seed ${seed})`);
        throw err;
      }
    }
    await checkHealth();
    console.log(
      `API fuzzer: ${sent} cases over ${selected.length} operations (${perRoute} each), seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
  });
});
