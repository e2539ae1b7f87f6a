import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SearchBounds } from '../../src/granule/search-bounds.ts';
import { CmrClient } from '../../src/search/cmr-client.ts';
import type { GranuleQuery } from '../../src/search/types.ts';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { COLLECTION_ID, loadGranuleFixtures } from '../search/granule-fixtures.ts';

const fixtures = loadGranuleFixtures('https://data.example.test');
const UR = 'RASTILE.G1.33TWL.20240501.v1.0';
const query = (granuleUr: string): GranuleQuery => ({
  collectionConceptId: COLLECTION_ID,
  granuleUr,
  itemsLimit: 100,
  exitWhenFull: true,
  skipCovered: false,
  coverageTolerance: 0,
});

describe('SearchBounds: concurrent granule_ur lookups against the CMR stand-in', () => {
  let cmr: CmrStandin;
  let client: CmrClient;
  // Every answer is delayed so that the lookups below overlap.
  before(async () => {
    cmr = await startCmrStandin({ granules: fixtures.items, delayMs: 100 });
    client = new CmrClient({ baseUrl: cmr.url, timeoutMs: 5000, retries: 0, pageSize: 20 });
  });
  after(() => cmr.close());

  const envelope = fixtures.expected['G1000000001-RASTILE']!.footprint_envelope;

  it('two concurrent opens share one CMR request', async () => {
    const from = cmr.granuleRequests().length;
    const b = new SearchBounds((q, area, signal) => client.searchGranules(q, area, signal));
    const [one, two] = await Promise.all([b.bounds(query(UR)), b.bounds(query(UR))]);
    assert.deepEqual(one, envelope, 'first caller: the footprint envelope');
    assert.deepEqual(two, envelope, 'second caller: the same');
    assert.notEqual(one, two, 'each caller gets its own array');
    assert.equal(cmr.granuleRequests().length - from, 1, 'one CMR request on the stand-in log');
    assert.deepEqual(await b.bounds(query(UR)), envelope, 'cached');
    assert.equal(cmr.granuleRequests().length - from, 1, 'still one request');
  });

  it("a caller's abort fails only that caller", async () => {
    const from = cmr.granuleRequests().length;
    const b = new SearchBounds((q, area, signal) => client.searchGranules(q, area, signal));
    const gone = new AbortController();
    const leaving = b.bounds(query(UR), gone.signal);
    const staying = b.bounds(query(UR), new AbortController().signal);
    gone.abort(new DOMException('client went away', 'AbortError'));
    await assert.rejects(leaving, (e: unknown) => e instanceof DOMException && e.name === 'AbortError', 'the aborted caller gets its abort');
    assert.deepEqual(await staying, envelope, 'the other caller still gets the bounds');
    assert.equal(cmr.granuleRequests().length - from, 1, 'one CMR request');
  });

  it('a failed lookup is not remembered', async () => {
    const from = cmr.granuleRequests().length;
    const b = new SearchBounds((q, area, signal) => client.searchGranules(q, area, signal));
    const notFound = (e: unknown) => e instanceof Error && (e as { kind?: string }).kind === 'NoData';
    await assert.rejects(Promise.all([b.bounds(query('NOPE')), b.bounds(query('NOPE'))]), notFound, 'NoData');
    assert.equal(cmr.granuleRequests().length - from, 1, 'shared by both callers');
    await assert.rejects(b.bounds(query('NOPE')), notFound, 'NoData again');
    assert.equal(cmr.granuleRequests().length - from, 2, 'searched again');
  });
});
