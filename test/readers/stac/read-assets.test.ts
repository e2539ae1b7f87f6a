import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Errors, isRastileError } from '../../../src/errors.ts';
import { readAssetsConcurrently } from '../../../src/readers/stac/read-assets.ts';

const assets = (...names: string[]) => names.map((name) => ({ asset: { name } }));

describe('concurrent asset reads', () => {
  it('starts every read before any finishes, keeps the asset order', async () => {
    const started: string[] = [];
    const out = await readAssetsConcurrently(assets('a', 'b', 'c'), undefined, async (a) => {
      started.push(a.asset.name);
      await new Promise((r) => setImmediate(r));
      assert.equal(started.length, 3);
      return a.asset.name.toUpperCase();
    });
    assert.deepEqual(out, ['A', 'B', 'C']);
  });

  it('one failing asset fails the request at once, aborts the others, names the asset', async () => {
    const aborted: string[] = [];
    const err = await readAssetsConcurrently(assets('fast', 'broken', 'slow'), undefined, (a, signal) => {
      if (a.asset.name === 'broken') return Promise.reject(Errors.sourceNotFound('No such file: /x/broken.tif'));
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted.push(a.asset.name);
          reject(signal.reason);
        });
      });
    }).catch((e: unknown) => e);
    assert.ok(isRastileError(err, 'SourceNotFound'), String(err));
    assert.equal((err as Error).message, "Asset 'broken': No such file: /x/broken.tif");
    assert.deepEqual(aborted.sort(), ['fast', 'slow']);
  });

  it('a client abort reaches every read and is not renamed', async () => {
    const controller = new AbortController();
    const p = readAssetsConcurrently(
      assets('a', 'b'),
      controller.signal,
      (_a, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    controller.abort(new Error('client gone'));
    await assert.rejects(p, /client gone/);
  });
});
