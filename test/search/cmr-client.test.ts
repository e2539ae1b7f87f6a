import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import type { Bounds } from '../../src/geo/bounds.ts';
import { CmrClient, type CmrClientOptions } from '../../src/search/cmr-client.ts';
import { sameFootprint } from '../../src/search/footprint-key.ts';
import { parseGranule } from '../../src/search/parse-granule.ts';
import type { Granule, GranuleQuery, SearchArea } from '../../src/search/types.ts';
import { NO_COLLECTION_MESSAGE, startCmrStandin, type CmrStandin, type CmrStandinOptions, type UmmItem } from '../helpers/cmr-standin.ts';
import { COLLECTION_ID, loadGranuleFixtures } from './granule-fixtures.ts';

const fixtures = loadGranuleFixtures('https://data.example.test');
const NONE: SearchArea = { kind: 'none' };
const bboxArea = (bounds: Bounds): SearchArea => ({ kind: 'bbox', bounds });

const q = (patch: Partial<GranuleQuery> = {}): GranuleQuery => ({
  collectionConceptId: COLLECTION_ID,
  itemsLimit: 100,
  exitWhenFull: true,
  skipCovered: false,
  coverageTolerance: 0,
  ...patch,
});

function client(url: string, patch: Partial<CmrClientOptions> = {}): CmrClient {
  return new CmrClient({ baseUrl: url, timeoutMs: 5000, retries: 2, pageSize: 20, retryBaseDelayMs: 5, ...patch });
}

async function collect(gen: AsyncGenerator<Granule>): Promise<Granule[]> {
  const out: Granule[] = [];
  for await (const g of gen) out.push(g);
  return out;
}

const ids = (gs: Granule[]) => gs.map((g) => g.id.replace(/^G100000000(\d)-RASTILE$/, 'G$1'));

async function withStandin<T>(options: CmrStandinOptions, fn: (cmr: CmrStandin) => Promise<T>): Promise<T> {
  const cmr = await startCmrStandin(options);
  try {
    return await fn(cmr);
  } finally {
    await cmr.close();
  }
}

/** `n` granules of one collection, all with the same footprint box, one day apart. */
function synthetic(n: number, box: Bounds = [10, 10, 11, 11]): UmmItem[] {
  return Array.from({ length: n }, (_, i) => ({
    meta: { 'concept-id': `G${9000 + i}-SYN`, 'native-id': `syn-${i}`, 'collection-concept-id': 'C9-SYN', 'provider-id': 'SYN' },
    umm: {
      GranuleUR: `syn-${i}`,
      TemporalExtent: {
        RangeDateTime: {
          BeginningDateTime: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
          EndingDateTime: new Date(Date.UTC(2024, 0, 1 + i, 1)).toISOString(),
        },
      },
      SpatialExtent: {
        HorizontalSpatialDomain: {
          Geometry: {
            BoundingRectangles: [
              { WestBoundingCoordinate: box[0], SouthBoundingCoordinate: box[1], EastBoundingCoordinate: box[2], NorthBoundingCoordinate: box[3] },
            ],
          },
        },
      },
    },
  }));
}

describe('CmrClient: the request it sends (asserted on the stand-in log)', () => {
  let cmr: CmrStandin;
  before(async () => (cmr = await startCmrStandin({ granules: fixtures.items })));
  after(() => cmr.close());

  it('every parameter, in titiler-cmr order, form-encoded as CMR expects', async () => {
    const from = cmr.requests.length;
    const query = q({
      granuleUr: 'RASTILE.G1.33TWL.20240501.v1.0',
      temporal: '2024-05-01T10:00:10Z',
      cloudCover: '0,50',
      boundingBox: [15.02, 45.0, 16, 46],
      sortKey: ['-start_date', 'cloud_cover'],
      orbitNumber: 1001,
      attribute: ['string,MGRS_TILE_ID,33TWL', 'float,SPATIAL_RESOLUTION,50,70'],
    });
    const found = await collect(client(cmr.url, { clientId: 'rastile-tests' }).searchGranules(query, bboxArea([15, 45.03, 15.04, 45.05])));
    const reqs = cmr.requests.slice(from);
    assert.equal(reqs.length, 1, 'one request (covered after G1: the intersection lies inside its footprint)');
    assert.equal(reqs[0]!.path, '/search/granules.umm_json', 'UMM-JSON granule search');
    assert.deepEqual(
      reqs[0]!.query,
      [
        ['page_size', '20'],
        ['collection_concept_id', COLLECTION_ID],
        ['granule_ur', 'RASTILE.G1.33TWL.20240501.v1.0'],
        ['temporal', '2024-05-01T10:00:10Z/2024-05-01T10:00:10Z'],
        ['cloud_cover', '0,50'],
        ['bounding_box', '15.02,45.03,15.04,45.05'],
        ['orbit_number', '1001'],
        ['sort_key[]', '-start_date'],
        ['sort_key[]', 'cloud_cover'],
        ['attribute[]', 'string,MGRS_TILE_ID,33TWL'],
        ['attribute[]', 'float,SPATIAL_RESOLUTION,50,70'],
      ],
      'query pairs; bounding_box = user box ∩ area; a bare instant becomes t/t',
    );
    assert.match(reqs[0]!.url, /temporal=2024-05-01T10%3A00%3A10Z%2F2024-05-01T10%3A00%3A10Z/, 'form encoding of : and /');
    assert.match(reqs[0]!.url, /sort_key%5B%5D=-start_date/, '[] encoded');
    assert.match(reqs[0]!.url, /bounding_box=15.02%2C45.03%2C15.04%2C45.05/, ', encoded');
    assert.equal(reqs[0]!.headers['client-id'], 'rastile-tests', 'client-id header');
    assert.equal(reqs[0]!.headers['authorization'], undefined, 'no Authorization');
    assert.equal(reqs[0]!.headers['cookie'], undefined, 'no cookie');
    assert.equal(reqs[0]!.headers['cmr-search-after'], undefined, 'no search-after on the first page');
    assert.deepEqual(ids(found), ['G1'], 'the stand-in applied every filter');
  });

  it('a tile/bbox area becomes bounding_box after the filters; no client-id unless configured', async () => {
    const from = cmr.requests.length;
    await collect(client(cmr.url).searchGranules(q({ temporal: '2024-05-01T00:00:00Z/2024-05-31T23:59:59Z' }), bboxArea([15.01, 45.03, 15.02, 45.04])));
    const r = cmr.requests[from]!;
    assert.deepEqual(
      r.query,
      [
        ['page_size', '20'],
        ['collection_concept_id', COLLECTION_ID],
        ['temporal', '2024-05-01T00:00:00Z/2024-05-31T23:59:59Z'],
        ['bounding_box', '15.01,45.03,15.02,45.04'],
      ],
      'query',
    );
    assert.equal(r.headers['client-id'], undefined, 'no client-id');
    assert.equal(r.headers['authorization'], undefined, 'no Authorization');
  });

  it('a point area becomes point=lon,lat; with a user bounding_box it becomes bounding_box=x,y,x,y', async () => {
    let from = cmr.requests.length;
    const found = await collect(client(cmr.url).searchGranules(q(), { kind: 'point', lon: 15.03, lat: 45.05 }));
    assert.deepEqual(cmr.requests[from]!.query.at(-1), ['point', '15.03,45.05'], 'point last');
    assert.deepEqual(ids(found), ['G1'], 'the first footprint holding the point ends the search');
    from = cmr.requests.length;
    await collect(client(cmr.url).searchGranules(q({ boundingBox: [15, 45, 16, 46], exitWhenFull: false }), { kind: 'point', lon: 15.03, lat: 45.05 }));
    const r = cmr.requests[from]!;
    assert.deepEqual(
      r.query.filter(([n]) => n === 'point' || n === 'bounding_box'),
      [['bounding_box', '15.03,45.05,15.03,45.05']],
      'no point parameter',
    );
  });

  it('an area outside the user bounding_box yields nothing without calling CMR', async () => {
    const from = cmr.requests.length;
    const found = await collect(client(cmr.url).searchGranules(q({ boundingBox: [0, 0, 1, 1] }), bboxArea([15, 45, 15.1, 45.1])));
    assert.equal(found.length, 0, 'nothing');
    assert.equal(cmr.requests.length, from, 'no request');
    const point = await collect(client(cmr.url).searchGranules(q({ boundingBox: [0, 0, 1, 1] }), { kind: 'point', lon: 2, lat: 2 }));
    assert.equal(point.length, 0, 'point outside the box: nothing');
    assert.equal(cmr.requests.length, from, 'still no request');
  });
});

describe('CmrClient: filters answered by the stand-in', () => {
  let cmr: CmrStandin;
  before(async () => (cmr = await startCmrStandin({ granules: fixtures.items })));
  after(() => cmr.close());
  const search = (patch: Partial<GranuleQuery>, area: SearchArea = NONE) => collect(client(cmr.url).searchGranules(q({ exitWhenFull: false, ...patch }), area));

  it('temporal, cloud_cover, sort_key, orbit_number, attribute, granule_ur', async () => {
    assert.deepEqual(ids(await search({})), ['G1', 'G5', 'G2', 'G3', 'G4'], 'default order: start date');
    assert.deepEqual(ids(await search({ temporal: '2024-05-02T00:00:00Z/2024-05-07T00:00:00Z' })), ['G5', 'G2', 'G3'], 'temporal overlap');
    assert.deepEqual(ids(await search({ cloudCover: '0,25' })), ['G5', 'G2', 'G3'], 'cloud cover 0..25');
    assert.deepEqual(ids(await search({ sortKey: ['-cloud_cover'] })), ['G4', 'G1', 'G3', 'G5', 'G2'], 'most cloudy first');
    assert.deepEqual(ids(await search({ sortKey: ['cloud_cover'] })), ['G2', 'G5', 'G3', 'G1', 'G4'], 'least cloudy first');
    assert.deepEqual(ids(await search({ orbitNumber: 1003 })), ['G3'], 'orbit number');
    assert.deepEqual(ids(await search({ attribute: ['string,MGRS_TILE_ID,60KYF'] })), ['G5'], 'additional attribute');
    assert.deepEqual(ids(await search({ granuleUr: 'RASTILE.G2.33TWL.20240503.v1.0' })), ['G2'], 'granule_ur');
  });

  it('bounding_box and point areas, also across the antimeridian', async () => {
    assert.deepEqual(ids(await search({}, bboxArea([15.01, 45.03, 15.02, 45.04]))), ['G1', 'G3', 'G4'], 'UTM granules under the box');
    assert.deepEqual(ids(await search({}, bboxArea([179.9, -17.2, 180, -17.1]))), ['G5'], 'east of the antimeridian');
    assert.deepEqual(ids(await search({}, bboxArea([-180, -17.2, -179.9, -17.1]))), ['G5'], 'west of the antimeridian');
    assert.deepEqual(ids(await search({}, { kind: 'point', lon: -179.9, lat: -17.1 })), ['G5'], 'point west of the antimeridian');
    assert.deepEqual(ids(await search({ boundingBox: [179, -18, -179, -16] }, bboxArea([-180, -20, -170, -10]))), ['G5'], 'user box across the antimeridian');
    assert.deepEqual(
      cmr.requests.at(-1)!.query.find(([n]) => n === 'bounding_box'),
      ['bounding_box', '-180,-18,-179,-16'],
      'intersection',
    );
  });

  it('the parsed granules carry footprints, cloud cover and the raw record', async () => {
    const [g1] = await search({ granuleUr: 'RASTILE.G1.33TWL.20240501.v1.0' });
    assert.equal(g1!.cloudCover, 40, 'cloud cover');
    assert.deepEqual(g1!.bbox, fixtures.expected['G1000000001-RASTILE']!.footprint_envelope, 'bbox');
    assert.equal(g1!.umm['GranuleUR'], 'RASTILE.G1.33TWL.20240501.v1.0', 'raw umm');
  });
});

describe('CmrClient: paging and stopping', () => {
  const many = synthetic(45);
  const synQuery = (patch: Partial<GranuleQuery> = {}) => q({ collectionConceptId: 'C9-SYN', exitWhenFull: false, ...patch });

  it('pages with CMR-Search-After until a short page', () =>
    withStandin({ granules: many }, async (cmr) => {
      const found = await collect(client(cmr.url).searchGranules(synQuery(), NONE));
      assert.equal(found.length, 45, 'every granule');
      assert.deepEqual(found.map((g) => g.granuleUr).slice(0, 3), ['syn-0', 'syn-1', 'syn-2'], 'CMR order');
      const reqs = cmr.granuleRequests();
      assert.equal(reqs.length, 3, '20 + 20 + 5: the short page is the last, no empty page after it');
      assert.equal(reqs[0]!.headers['cmr-search-after'], undefined, 'first page without the header');
      for (let i = 1; i < reqs.length; i++) {
        assert.deepEqual(reqs[i]!.query, reqs[0]!.query, `page ${i + 1} repeats the parameters`);
        assert.equal(typeof reqs[i]!.headers['cmr-search-after'], 'string', `page ${i + 1} sends cmr-search-after`);
      }
      assert.deepEqual(JSON.parse(reqs[1]!.headers['cmr-search-after'] as string).slice(0, 2), ['standin', 20], 'the header value of page 1, verbatim');
    }));

  it('items_limit caps the granules and the requests', () =>
    withStandin({ granules: many }, async (cmr) => {
      assert.equal((await collect(client(cmr.url).searchGranules(synQuery({ itemsLimit: 30 }), NONE))).length, 30, '30 granules');
      assert.equal(cmr.granuleRequests().length, 2, 'two pages, no empty page');
      const few = await collect(client(cmr.url).searchGranules(synQuery({ itemsLimit: 5 }), NONE));
      assert.equal(few.length, 5, '5 granules');
      assert.deepEqual(cmr.granuleRequests()[2]!.query[0], ['page_size', '5'], 'page_size never above items_limit');
      assert.equal(cmr.granuleRequests().length, 3, 'one more request');
    }));

  it('exitwhenfull stops as soon as the area is covered (fewer requests)', () =>
    withStandin({ granules: many }, async (cmr) => {
      const area = bboxArea([10.2, 10.2, 10.8, 10.8]);
      const full = await collect(client(cmr.url).searchGranules(synQuery({ exitWhenFull: true, coverageTolerance: 0.01 }), area));
      assert.equal(full.length, 1, 'the first granule covers the area');
      assert.equal(cmr.granuleRequests().length, 1, 'one request');
      const all = await collect(client(cmr.url).searchGranules(synQuery({ exitWhenFull: false }), area));
      assert.equal(all.length, 45, 'without exitwhenfull: everything');
      assert.equal(cmr.granuleRequests().length, 1 + 3, 'three more requests');
    }));

  it('coverage_tolerance grows the area: granules ending at the area edge no longer cover it', () =>
    withStandin({ granules: fixtures.items }, async (cmr) => {
      const area = bboxArea([15.03, 45.035, 15.04, 45.045]);
      assert.deepEqual(ids(await collect(client(cmr.url).searchGranules(q({ coverageTolerance: 0 }), area))), ['G1'], 'G1 covers the box');
      // Grown by 0.01° (rounded corners), the box reaches 15.05°E and 45.025°N: beyond G1 (east edge
      // 15.0488°) and below G1/G2 (south 45.0289°); G3 fills the south-west, and the rounded south-east
      // corner stays north of G2's south edge. GEOS agrees (coverage-oracle.json: 3 granules).
      assert.deepEqual(ids(await collect(client(cmr.url).searchGranules(q({ coverageTolerance: 0.01 }), area))), ['G1', 'G2', 'G3'], 'three granules');
      assert.deepEqual(
        ids(await collect(client(cmr.url).searchGranules(q({ coverageTolerance: 0.05 }), area))),
        ['G1', 'G2', 'G3', 'G4'],
        'never covered: all four',
      );
    }));

  it('skipcovered drops repeat passes with an identical footprint', () =>
    withStandin({ granules: fixtures.items }, async (cmr) => {
      const area = bboxArea([15.01, 45.03, 15.03, 45.04]);
      assert.deepEqual(ids(await collect(client(cmr.url).searchGranules(q({ exitWhenFull: false }), area))), ['G1', 'G2', 'G3', 'G4'], 'all');
      assert.deepEqual(
        ids(await collect(client(cmr.url).searchGranules(q({ exitWhenFull: false, skipCovered: true }), area))),
        ['G1', 'G2', 'G3'],
        'G4 = G1 skipped',
      );
    }));

  it('skipcovered pins (titiler-cmr TestGetGranulesSkipcovered): duplicates dropped, footprint-less granules kept', () => {
    const a = synthetic(3);
    const noGeometry = synthetic(2).map((g, i) => ({ meta: { ...g.meta, 'concept-id': `G7${i}-SYN` }, umm: { GranuleUR: `ng-${i}` } }));
    const other = synthetic(1, [11, 10, 12, 11]).map((g) => ({ meta: { ...g.meta, 'concept-id': 'G8-SYN' }, umm: g.umm }));
    return withStandin({ granules: () => [...a, ...other, ...noGeometry] }, async (cmr) => {
      const skip = await collect(client(cmr.url).searchGranules(synQuery({ skipCovered: true }), NONE));
      assert.deepEqual(
        skip.map((g) => g.id),
        ['G9000-SYN', 'G8-SYN', 'G70-SYN', 'G71-SYN'],
        'second and third duplicates dropped',
      );
      const keep = await collect(client(cmr.url).searchGranules(synQuery({ skipCovered: false }), NONE));
      assert.equal(keep.length, 6, 'nothing dropped without skipcovered');
    });
  });

  it('skipcovered over 500 granules × 40 vertices keeps what the pairwise comparison keeps', () => {
    // 200 distinct 40-vertex footprints; 300 more granules repeat one of them, rotated to another
    // start vertex and sometimes reversed. Oracle: the pairwise sameFootprint loop the search used.
    const circle = (cx: number, cy: number, start: number, reverse: boolean) => {
      const pts = Array.from({ length: 40 }, (_, k) => {
        const a = (2 * Math.PI * ((k + start) % 40)) / 40;
        return { Longitude: cx + Math.cos(a), Latitude: cy + Math.sin(a) };
      });
      if (reverse) pts.reverse();
      return [...pts, pts[0]!];
    };
    const items: UmmItem[] = Array.from({ length: 500 }, (_, i) => {
      const shape = i < 200 ? i : (i * 37) % 200;
      const points = circle(-170 + (shape % 20) * 17, -60 + Math.floor(shape / 20) * 12, i < 200 ? 0 : i % 40, i >= 200 && i % 2 === 0);
      return {
        meta: { 'concept-id': `G${20000 + i}-SYN`, 'native-id': `many-${i}`, 'collection-concept-id': 'C9-SYN', 'provider-id': 'SYN' },
        umm: {
          GranuleUR: `many-${i}`,
          SpatialExtent: { HorizontalSpatialDomain: { Geometry: { GPolygons: [{ Boundary: { Points: points } }] } } },
        },
      };
    });
    const expected: string[] = [];
    const kept: Granule[] = [];
    for (const item of items) {
      const g = parseGranule(item);
      if (g.footprint !== null && kept.some((k) => sameFootprint(k.footprint, g.footprint))) continue;
      kept.push(g);
      expected.push(g.id);
    }
    assert.equal(expected.length, 200, 'oracle: one granule per distinct footprint');
    return withStandin({ granules: () => items }, async (cmr) => {
      const found = await collect(client(cmr.url, { pageSize: 2000 }).searchGranules(synQuery({ skipCovered: true, itemsLimit: 2000 }), NONE));
      assert.deepEqual(
        found.map((g) => g.id),
        expected,
        'same selection, same order',
      );
    });
  });

  it('stopping the iteration early sends no further request', () =>
    withStandin({ granules: many }, async (cmr) => {
      for await (const g of client(cmr.url).searchGranules(synQuery(), NONE)) {
        assert.equal(g.granuleUr, 'syn-0', 'first');
        break;
      }
      assert.equal(cmr.granuleRequests().length, 1, 'one request');
    }));
});

describe('CmrClient: errors', () => {
  it("CMR 400 → BadRequest with CMR's message", () =>
    withStandin({ granules: fixtures.items }, async (cmr) => {
      await assert.rejects(
        collect(client(cmr.url).searchGranules(q({ collectionConceptId: undefined }), NONE)),
        (err: unknown) => isRastileError(err, 'BadRequest') && err.message === NO_COLLECTION_MESSAGE,
        'CMR requires a collection constraint',
      );
      assert.equal(cmr.requests.length, 1, 'a 4xx is not retried');
      await assert.rejects(
        collect(client(cmr.url).searchGranules(q({ temporal: 'yesterday/today' }), NONE)),
        (err: unknown) => isRastileError(err, 'BadRequest') && err.message === 'temporal datetime is invalid: [yesterday]',
        'invalid temporal',
      );
    }));

  it('CMR 404/403 (a wrong CMR URL or a proxy) → UpstreamError, not retried', () =>
    withStandin({ granules: fixtures.items }, async (cmr) => {
      await assert.rejects(
        collect(client(`${cmr.url}/wrong`).searchGranules(q(), NONE)),
        (err: unknown) => isRastileError(err, 'UpstreamError') && /HTTP 404/.test(err.message),
        'not found upstream',
      );
      assert.equal(cmr.requests.length, 1, 'no retry');
    }));

  it('CMR 500 → UpstreamError after the retries', () =>
    withStandin({ granules: fixtures.items, status: 500 }, async (cmr) => {
      const c = client(cmr.url, { retries: 2 });
      await assert.rejects(
        collect(c.searchGranules(q(), NONE)),
        (err: unknown) => isRastileError(err, 'UpstreamError') && /HTTP 500/.test(err.message) && /Stand-in forced status 500/.test(err.message),
        'upstream error with CMR detail',
      );
      assert.equal(cmr.requests.length, 3, 'first attempt + 2 retries');
      assert.deepEqual(c.stats, { requests: 3, retries: 2 }, 'stats');
    }));

  it('transient 503s and connection resets are retried', () =>
    withStandin({ granules: fixtures.items, failFirst: 1, resetFirst: 1 }, async (cmr) => {
      const c = client(cmr.url, { retries: 2 });
      assert.equal((await collect(c.searchGranules(q({ exitWhenFull: false }), NONE))).length, 5, 'all granules after two retries');
      assert.equal(c.stats.retries, 2, 'two retries');
    }));

  it('connection failures beyond the retries → UpstreamError', () =>
    withStandin({ granules: fixtures.items, resetFirst: 10 }, async (cmr) => {
      await assert.rejects(
        collect(client(cmr.url, { retries: 1 }).searchGranules(q(), NONE)),
        (err: unknown) => isRastileError(err, 'UpstreamError') && /Connection to CMR \(127\.0\.0\.1:\d+\) failed/.test(err.message),
        'connection error',
      );
      assert.equal(cmr.requests.length, 2, 'one retry');
    }));

  it('a slow CMR → UpstreamTimeout within the deadline, not retried', () =>
    withStandin({ granules: fixtures.items, delayMs: 3000 }, async (cmr) => {
      await assert.rejects(
        collect(client(cmr.url, { timeoutMs: 150, retries: 2 }).searchGranules(q(), NONE)),
        (err: unknown) => isRastileError(err, 'UpstreamTimeout') && err.message === 'CMR granule search timed out after 0.15 seconds',
        'timeout',
      );
      assert.equal(cmr.requests.length, 1, 'a timeout is not retried');
    }));

  it("the caller's abort signal stops the search", () =>
    withStandin({ granules: fixtures.items, delayMs: 3000 }, async (cmr) => {
      const controller = new AbortController();
      const pending = collect(client(cmr.url).searchGranules(q(), NONE, controller.signal));
      setTimeout(() => controller.abort(new DOMException('client went away', 'AbortError')), 50);
      await assert.rejects(pending, (err: unknown) => err instanceof DOMException && err.name === 'AbortError', 'abort reason');
    }));

  it('a body that is not CMR JSON → UpstreamError', async () => {
    const fake: typeof fetch = async () => new Response('<html>maintenance</html>', { status: 200 });
    await assert.rejects(
      collect(new CmrClient({ baseUrl: 'http://cmr.invalid', timeoutMs: 1000, retries: 0, pageSize: 20, fetch: fake }).searchGranules(q(), NONE)),
      (err: unknown) => isRastileError(err, 'UpstreamError') && /not JSON/.test(err.message),
      'not JSON',
    );
  });
});

describe('CmrClient: collections and base URLs', () => {
  it('getCollection reads collections.umm_json; a base URL ending in /search works too', () =>
    withStandin({ granules: fixtures.items, collections: fixtures.collections }, async (cmr) => {
      const c = await client(`${cmr.url}/search/`).getCollection(COLLECTION_ID);
      assert.equal(c?.umm['ShortName'], 'RASTILE_GRAN', 'the UMM-C record');
      assert.deepEqual(cmr.requests[0]!.query, [['concept_id', COLLECTION_ID]], 'query');
      assert.equal(cmr.requests[0]!.path, '/search/collections.umm_json', 'path');
      assert.equal(await client(cmr.url).getCollection('C0-NONE'), null, 'unknown collection');
    }));
});
