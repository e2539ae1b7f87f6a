/**
 * The fixture collection end to end: granule records served by the CMR stand-in, their GET DATA
 * hrefs pointing at a local HTTP data host that serves the generated COGs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CmrClient } from '../../src/search/cmr-client.ts';
import { granuleAssets, granuleDataHosts } from '../../src/search/granule-assets.ts';
import type { Granule } from '../../src/search/types.ts';
import { startCmrStandin, type CmrStandin } from '../helpers/cmr-standin.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { COLLECTION_ID, GRANULE_DATA_DIR, loadGranuleFixtures } from './granule-fixtures.ts';

describe('fixture granules over a local data host', () => {
  let data: RangeServer;
  let cmr: CmrStandin;
  let granules: Granule[];
  before(async () => {
    data = await startRangeServer({ root: GRANULE_DATA_DIR });
    cmr = await startCmrStandin({ granules: loadGranuleFixtures(data.url).items });
    const client = new CmrClient({ baseUrl: cmr.url, timeoutMs: 5000, retries: 0, pageSize: 20 });
    granules = [];
    const query = { collectionConceptId: COLLECTION_ID, itemsLimit: 100, exitWhenFull: false, skipCovered: false, coverageTolerance: 0 };
    for await (const g of client.searchGranules(query, { kind: 'none' })) granules.push(g);
  });
  after(async () => {
    await cmr.close();
    await data.close();
  });

  it('every data asset is a COG on the data host, of the size the record states', async () => {
    assert.equal(granules.length, 5, 'five granules');
    for (const g of granules) {
      const assets = granuleAssets(g, /B0[2-4]/);
      assert.deepEqual(
        assets.map((a) => a.key),
        ['B02', 'B03', 'B04'],
        `${g.granuleUr}: three bands`,
      );
      const sizes = new Map(
        (g.umm['DataGranule'] as { ArchiveAndDistributionInformation: Array<{ Name: string; SizeInBytes: number }> }).ArchiveAndDistributionInformation.map(
          (f) => [f.Name, f.SizeInBytes],
        ),
      );
      for (const a of assets) {
        assert.ok(a.href!.startsWith(`${data.url}/rastile-test-protected/RASTILE_GRAN.001/`), `${a.href}: on the data host`);
        const res = await fetch(a.href!, { headers: { range: 'bytes=0-3' } });
        const head = new Uint8Array(await res.arrayBuffer());
        assert.equal(res.status, 206, `${a.fileName}: range request`);
        assert.deepEqual([...head], [0x49, 0x49, 0x2a, 0x00], `${a.fileName}: little-endian TIFF`);
        assert.equal(res.headers.get('content-range'), `bytes 0-3/${sizes.get(a.fileName!)}`, `${a.fileName}: size as in ArchiveAndDistributionInformation`);
        assert.equal(a.directHref, `s3://${a.href!.slice(data.url.length + 1)}`, `${a.fileName}: s3 href = bucket/key of the https path`);
      }
    }
  });

  it('granuleDataHosts gives the data host to register with Earthdata auth', () => {
    assert.deepEqual(granuleDataHosts(granules[0]!), [new URL(data.url).host], 'host:port');
  });
});
