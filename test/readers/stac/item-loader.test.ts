import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { StacItemLoader } from '../../../src/readers/stac/item-loader.ts';
import { DEFAULT_SOURCE_OPTIONS } from '../../../src/sources/options.ts';
import { createSourceOpener, type ManagedSourceOpener } from '../../../src/sources/open-source.ts';
import { startRangeServer, type RangeServer } from '../../helpers/http-range-server.ts';
import { fixture, FIXTURES } from '../../helpers/test-server.ts';

let http: RangeServer;
let sources: ManagedSourceOpener;
before(async () => {
  http = await startRangeServer({ root: fixture('stac') });
  sources = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [FIXTURES], allowPrivateHosts: true, retries: 0, s3: { region: 'us-east-1' } });
});
after(async () => {
  await http.close();
  await sources.close();
});

describe('STAC item loader', () => {
  it('local path and file://, cached per location', async () => {
    const loader = new StacItemLoader(sources);
    const a = await loader.load(fixture('stac', 'item.json'));
    assert.equal(a.id, 'stac-fixture');
    assert.equal(await loader.load(fixture('stac', 'item.json')), a);
    const b = await loader.load(`file://${fixture('stac', 'item.json')}`);
    assert.equal(b.assets.get('red')!.href, `file://${fixture('stac', 'red.tif')}`);
  });

  it('over HTTP, relative hrefs resolve to the server', async () => {
    const loader = new StacItemLoader(sources);
    const item = await loader.load(`${http.url}/items/item-noproj.json`);
    assert.equal(item.assets.get('red')!.href, `${http.url}/red.tif`);
    const again = await loader.load(`${http.url}/items/item-noproj.json`);
    assert.equal(again, item);
    assert.equal(http.requestsFor('/items/item-noproj.json').length, 1);
  });

  it('expired entries are read again', async () => {
    const loader = new StacItemLoader(sources, { ttlMs: -1 });
    const a = await loader.load(fixture('stac', 'item-props-proj.json'));
    const b = await loader.load(fixture('stac', 'item-props-proj.json'));
    assert.notEqual(a, b);
    assert.deepEqual(a.spatial.bounds, b.spatial.bounds);
  });

  it('size cap, missing item, outside the local roots', async () => {
    const loader = new StacItemLoader(sources, { maxItemBytes: 1000 });
    await assert.rejects(
      loader.load(fixture('stac', 'item.json')),
      (e: unknown) => isRastileError(e, 'MaxSizeExceeded') && /larger than the limit of 1000 bytes/.test(e.message),
    );
    await assert.rejects(loader.load(fixture('stac', 'nope.json')), (e: unknown) => isRastileError(e, 'SourceNotFound'));
    await assert.rejects(loader.load('/etc/hostname'), (e: unknown) => isRastileError(e, 'SourceForbidden'));
    await assert.rejects(loader.load(`${http.url}/missing.json`), (e: unknown) => isRastileError(e, 'SourceNotFound'));
    // failures are not cached
    await assert.rejects(new StacItemLoader(sources).load(fixture('stac', 'red.tif')), (e: unknown) => isRastileError(e, 'InvalidFormat'));
  });
});
