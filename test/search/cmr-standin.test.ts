/** The CMR stand-in itself speaks CMR's protocol (raw HTTP, no client of ours). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NO_COLLECTION_MESSAGE, startCmrStandin, UMM_G_CONTENT_TYPE, type CmrStandin } from '../helpers/cmr-standin.ts';
import { loadRecording, recordingsAvailable } from '../helpers/cmr-replay.ts';
import { COLLECTION_ID, loadGranuleFixtures } from './granule-fixtures.ts';

describe('CMR stand-in protocol', () => {
  let cmr: CmrStandin;
  before(async () => (cmr = await startCmrStandin({ granules: loadGranuleFixtures().items })));
  after(() => cmr.close());
  const get = (query: string, headers: Record<string, string> = {}) => fetch(`${cmr.url}/search/granules.umm_json?${query}`, { headers });

  it('pages with CMR-Search-After; the final empty page has none', async () => {
    const first = await get(`collection_concept_id=${COLLECTION_ID}&page_size=3`);
    assert.equal(first.status, 200, 'ok');
    assert.equal(first.headers.get('content-type'), UMM_G_CONTENT_TYPE, 'UMM-JSON content type');
    assert.equal(first.headers.get('cmr-hits'), '5', 'CMR-Hits');
    assert.ok(first.headers.get('cmr-took') !== null, 'CMR-Took');
    const body1 = (await first.json()) as { hits: number; items: unknown[] };
    assert.equal(body1.hits, 5, 'hits');
    assert.equal(body1.items.length, 3, 'page of 3');
    const after1 = first.headers.get('cmr-search-after')!;
    const second = await get(`collection_concept_id=${COLLECTION_ID}&page_size=3`, { 'cmr-search-after': after1 });
    assert.equal(((await second.json()) as { items: unknown[] }).items.length, 2, 'remaining 2');
    const third = await get(`collection_concept_id=${COLLECTION_ID}&page_size=3`, { 'cmr-search-after': second.headers.get('cmr-search-after')! });
    assert.deepEqual(await third.json(), { hits: 5, took: 3, items: [] }, 'empty final page');
    assert.equal(third.headers.get('cmr-search-after'), null, 'no header at the end');
    const changed = await get(`collection_concept_id=${COLLECTION_ID}&page_size=4`, { 'cmr-search-after': after1 });
    assert.equal(changed.status, 400, 'parameters changed between pages');
  });

  it('400 with {"errors": [...]} like CMR', async () => {
    const none = await get('page_size=20');
    assert.equal(none.status, 400, 'no collection constraint');
    assert.deepEqual(await none.json(), { errors: [NO_COLLECTION_MESSAGE] }, 'CMR message');
    const unknown = await get(`collection_concept_id=${COLLECTION_ID}&foo=1`);
    assert.deepEqual(await unknown.json(), { errors: ['Parameter [foo] was not recognized.'] }, 'unknown parameter');
    assert.equal((await get(`collection_concept_id=${COLLECTION_ID}&page_size=2001`)).status, 400, 'page_size over 2000');
    assert.equal((await get(`collection_concept_id=${COLLECTION_ID}&bounding_box=1,2,3`)).status, 400, 'bad bounding_box');
  });

  it('uses the content type and header names of the recorded real CMR', { skip: !recordingsAvailable() && 'no ../shared/fixtures/cmr/recordings' }, () => {
    const recorded = loadRecording('test_backend/test_get_assets')[0]!.response.headers;
    assert.equal(recorded['Content-Type'], UMM_G_CONTENT_TYPE, 'same content type');
    for (const h of ['CMR-Hits', 'CMR-Took', 'CMR-Search-After', 'CMR-Request-Id']) assert.ok(h in recorded, `${h} recorded`);
  });
});
