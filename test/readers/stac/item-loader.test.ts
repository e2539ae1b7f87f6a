import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  http = await startRangeServer({ root: fixture('stac'), validators: 'etag' });
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

  it('over HTTP, relative hrefs resolve to the server; kept while its ETag stands', async () => {
    const loader = new StacItemLoader(sources);
    const item = await loader.load(`${http.url}/items/item-noproj.json`);
    assert.equal(item.assets.get('red')!.href, `${http.url}/red.tif`);
    const again = await loader.load(`${http.url}/items/item-noproj.json`);
    assert.equal(again, item);
    assert.equal(http.requestsFor('/items/item-noproj.json').length, 1);
  });

  it('kept per version: a rewritten item is read again, an unchanged one is not', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'rastile-stac-item-'));
    const own = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [tmp], s3: { region: 'us-east-1' } });
    try {
      const file = path.join(tmp, 'item.json');
      const doc = JSON.parse(readFileSync(fixture('stac', 'item-props-proj.json'), 'utf8')) as { id: string };
      const write = (id: string, agoMs: number): void => {
        writeFileSync(file, JSON.stringify({ ...doc, id }));
        const t = new Date(Date.now() - agoMs); // outside the racy window (sources/version.ts)
        utimesSync(file, t, t);
      };
      write('one', 60_000);
      const loader = new StacItemLoader(own);
      const a = await loader.load(file);
      assert.equal(a.id, 'one');
      assert.equal(await loader.load(file), a);
      write('two', 30_000); // same size, new mtime
      const b = await loader.load(file);
      assert.equal(b.id, 'two');
      assert.deepEqual(b.spatial.bounds, a.spatial.bounds);
    } finally {
      await own.close();
      rmSync(tmp, { recursive: true, force: true });
    }
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
