/**
 * A time series' shared range search (src/search/series-search.ts) against each step's own search,
 * both over the CMR stand-in: every step must get exactly the granules, in the same order, that its
 * own search gives — with items_limit, skipcovered, exitwhenfull, sort keys, touching and point
 * steps — and steps that cannot be shown equal must be left to their own search. Also over the
 * granule records of the recorded real CMR exchanges (skipped without ../shared/fixtures).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bounds } from '../../src/geo/bounds.ts';
import { CmrClient } from '../../src/search/cmr-client.ts';
import { rangeTemporal, seriesRange, sharedStepSearch, stepGranules, stepInterval } from '../../src/search/series-search.ts';
import type { Granule, GranuleQuery, SearchArea } from '../../src/search/types.ts';
import { runWithSharedWork, SharedWork } from '../../src/util/shared-work.ts';
import { listRecordings, loadRecording, recordingsAvailable } from '../helpers/cmr-replay.ts';
import { startCmrStandin, type UmmItem } from '../helpers/cmr-standin.ts';

const ring = (b: Bounds) => [
  { Longitude: b[0], Latitude: b[1] },
  { Longitude: b[2], Latitude: b[1] },
  { Longitude: b[2], Latitude: b[3] },
  { Longitude: b[0], Latitude: b[3] },
  { Longitude: b[0], Latitude: b[1] },
];

function item(i: number, start: string, end: string | null, box: Bounds, cloud: number): UmmItem {
  const temporal = end === null ? { SingleDateTime: start } : { RangeDateTime: { BeginningDateTime: start, EndingDateTime: end } };
  return {
    meta: { 'concept-id': `G${7000 + i}-SER`, 'native-id': `ser-${i}`, 'collection-concept-id': 'C7-SER', 'provider-id': 'SER' },
    umm: {
      GranuleUR: `ser-${i}`,
      TemporalExtent: temporal,
      CloudCover: cloud,
      SpatialExtent: { HorizontalSpatialDomain: { Geometry: { GPolygons: [{ Boundary: { Points: ring(box) } }] } } },
    },
  };
}

/** Granules over June 2024: ranges of 1–3 days, some starting or ending exactly on a step boundary, single instants, repeated footprints. */
function granules(): UmmItem[] {
  const boxes: Bounds[] = [
    [10, 10, 11, 11],
    [10, 10, 10.6, 11],
    [10.4, 10, 11, 11],
    [9, 9, 12, 12],
  ];
  const out: UmmItem[] = [];
  for (let i = 0; i < 40; i++) {
    const day = 1 + ((i * 11) % 28);
    const d = (n: number) => String(n).padStart(2, '0');
    const start = i % 5 === 0 ? `2024-06-${d(day)}T00:00:00Z` : `2024-06-${d(day)}T${d((i * 5) % 24)}:30:00.000Z`;
    const end = i % 7 === 3 ? null : i % 5 === 1 ? `2024-06-${d(day + 1)}T00:00:00Z` : `2024-06-${d(day + (i % 3))}T23:59:59Z`;
    out.push(item(i, start, end, boxes[i % boxes.length]!, (i * 13) % 100));
  }
  return out;
}

const daySteps = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => {
    const d = String(i + 1).padStart(2, '0');
    return `2024-06-${d}T00:00:00+00:00/2024-06-${d}T23:59:59+00:00`;
  });

const query = (patch: Partial<GranuleQuery>): GranuleQuery => ({ itemsLimit: 100, exitWhenFull: false, skipCovered: false, coverageTolerance: 0, ...patch });

async function collect(gen: AsyncGenerator<Granule>): Promise<string[]> {
  const out: string[] = [];
  for await (const g of gen) out.push(g.id);
  return out;
}

/** Each step's own search against its share of one range search: how many steps were shared, and the granules they found. */
async function compare(items: UmmItem[], base: GranuleQuery, area: SearchArea, steps: string[]): Promise<{ shared: number; found: number }> {
  const cmr = await startCmrStandin({ granules: items });
  try {
    const client = new CmrClient({ baseUrl: cmr.url, timeoutMs: 5000, retries: 0, pageSize: 3 });
    const range = await client.searchAll({ ...base, temporal: rangeTemporal(steps)! }, area, 2000);
    assert.ok(range !== null);
    const series = seriesRange(range);
    let shared = 0;
    let found = 0;
    for (const step of steps) {
      const q = { ...base, temporal: step.includes('/') ? step : `${step}/${step}` };
      const own = await collect(client.searchGranules(q, area));
      const share = stepGranules(series, q, area);
      if (share === undefined) continue;
      shared++;
      found += own.length;
      assert.deepEqual(
        share.map((g) => g.id),
        own,
        `step ${step}, query ${JSON.stringify(base)}`,
      );
    }
    return { shared, found };
  } finally {
    await cmr.close();
  }
}

describe('series search: one range search shared out per step', () => {
  const items = granules();
  const area: SearchArea = { kind: 'bbox', bounds: [10.2, 10.2, 10.8, 10.8] };
  const cases: Array<[string, Partial<GranuleQuery>]> = [
    ['defaults (no early stop)', {}],
    ['items_limit 1', { itemsLimit: 1 }],
    ['items_limit 2, skipcovered', { itemsLimit: 2, skipCovered: true }],
    ['exitwhenfull', { exitWhenFull: true }],
    ['exitwhenfull, skipcovered, tolerance', { exitWhenFull: true, skipCovered: true, coverageTolerance: 0.05 }],
    ['sort_key -start_date', { sortKey: ['-start_date'] }],
    ['sort_key cloud_cover, items_limit 2', { sortKey: ['cloud_cover'], itemsLimit: 2 }],
    ['cloud_cover filter', { cloudCover: '0,50', exitWhenFull: true }],
  ];
  for (const [name, patch] of cases) {
    it(`P1D steps, ${name}: every step gets exactly its own search's granules, in order`, async () => {
      const { shared, found } = await compare(items, query({ collectionConceptId: 'C7-SER', ...patch }), area, daySteps(30));
      assert.equal(shared, 30, 'every step shared');
      assert.ok(found >= 20, `granules found: ${found}`);
    });
  }

  it('point steps and steps touching granule ends (inclusive overlap)', async () => {
    const points = ['2024-06-08T00:00:00+00:00', '2024-06-09T23:59:59+00:00', '2024-06-15T00:00:00Z', '2024-06-22T12:30:00+00:00'];
    const { shared, found } = await compare(items, query({ collectionConceptId: 'C7-SER' }), area, points);
    assert.equal(shared, points.length);
    assert.ok(found >= points.length, `granules found: ${found}`);
  });

  it('steps with sub-millisecond ends, and comparisons decided inside one millisecond, are left to their own search', () => {
    assert.deepEqual(stepInterval('2024-06-01T00:00:00/2024-06-01T00:00:00.500000'), [1717200000000000, 1717200000500000]);
    assert.equal(stepInterval('2024-06-01T00:00:00Z/2024-06-01T00:00:00.000500Z'), null);
    const g = (start: string, end: string): Granule => ({
      id: 'G1',
      granuleUr: 'g',
      collectionConceptId: 'C',
      temporal: { start, end },
      footprint: null,
      bbox: null,
      cloudCover: null,
      umm: {},
      meta: {},
    });
    const q = query({ temporal: '2024-06-01T00:00:00Z/2024-06-01T23:59:59Z' });
    const none: SearchArea = { kind: 'none' };
    assert.equal(stepGranules(seriesRange([g('2024-06-01T23:59:59.000400Z', '2024-06-02T10:00:00Z')]), q, none), undefined);
    assert.deepEqual(stepGranules(seriesRange([g('2024-06-01T23:59:59Z', '2024-06-02T10:00:00Z')]), q, none)?.length, 1);
    assert.deepEqual(stepGranules(seriesRange([g('2024-06-02T00:00:00Z', '2024-06-02T10:00:00Z')]), q, none)?.length, 0);
    assert.equal(
      stepGranules(seriesRange([{ ...g('2024-06-01T00:00:00Z', 'x'), temporal: { start: '2024-06-01T00:00:00Z', end: null } }]), q, none),
      undefined,
    );
  });

  it('inside a series scope the steps share one CMR request; over the cap every step searches alone', async () => {
    const cmr = await startCmrStandin({ granules: items });
    try {
      const client = new CmrClient({ baseUrl: cmr.url, timeoutMs: 5000, retries: 0, pageSize: 20 });
      const steps = daySteps(30);
      const run = async (stepsInRange: number) => {
        const work = new SharedWork();
        work.searchRange = { temporal: rangeTemporal(steps)!, steps: stepsInRange };
        const before = cmr.granuleRequests().length;
        const found = await runWithSharedWork(
          () =>
            Promise.all(steps.map((s) => sharedStepSearch(client, query({ collectionConceptId: 'C7-SER', temporal: s }), area, new AbortController().signal))),
          work,
        );
        return { found, requests: cmr.granuleRequests().length - before };
      };
      const shared = await run(30);
      assert.equal(shared.requests, 1);
      assert.ok(shared.found.every((f) => f !== undefined));
      // a cap of 20 granules (1 step × 20) is below what the range holds: given up after one request
      const alone = await run(1);
      assert.equal(alone.requests, 1);
      assert.ok(alone.found.every((f) => f === undefined));
    } finally {
      await cmr.close();
    }
  });
});

describe('series search over the granule records of recorded CMR exchanges', { skip: !recordingsAvailable() && 'no ../shared/fixtures/cmr/recordings' }, () => {
  it('every step of a P1D series over each collection gets exactly its own search’s granules', async () => {
    const byCollection = new Map<string, Map<string, UmmItem>>();
    for (const name of listRecordings()) {
      for (const ex of loadRecording(name)) {
        const body = ex.response.body as { items?: UmmItem[] } | null;
        if (!ex.request.path.includes('granules') || body === null || typeof body !== 'object' || !Array.isArray(body.items)) continue;
        for (const it of body.items) {
          const c = String(it.meta['collection-concept-id']);
          if (!byCollection.has(c)) byCollection.set(c, new Map());
          byCollection.get(c)!.set(String(it.meta['concept-id']), it);
        }
      }
    }
    assert.ok(byCollection.size > 0);
    let compared = 0;
    let granulesFound = 0;
    for (const [collection, records] of byCollection) {
      const items = [...records.values()];
      const starts = items
        .map((i) => (i.umm['TemporalExtent'] as { RangeDateTime?: { BeginningDateTime?: string } } | undefined)?.RangeDateTime?.BeginningDateTime)
        .filter((s): s is string => typeof s === 'string')
        .sort();
      if (starts.length === 0) continue;
      const first = new Date(Date.parse(starts[0]!) - 86_400_000);
      const steps = Array.from({ length: 8 }, (_, i) => {
        const d = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
        return `${d}T00:00:00+00:00/${d}T23:59:59+00:00`;
      });
      const { shared, found } = await compare(items, query({ collectionConceptId: collection }), { kind: 'none' }, steps);
      compared += shared;
      granulesFound += found;
    }
    assert.ok(compared > 0 && granulesFound > 0, `steps ${compared}, granules ${granulesFound}`);
  });
});
