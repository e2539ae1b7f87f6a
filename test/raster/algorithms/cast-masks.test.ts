/** cast/ceil/floor pass the masks through: a per-dataset mask shared by every band stays shared. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyAlgorithm, validateAlgorithmParams } from '../../../src/raster/algorithms/index.ts';
import { makeImage } from './fixtures.ts';

test('cast keeps the mask arrays (and their sharing) without copying', async () => {
  const img = makeImage(
    'float32',
    3,
    4,
    2,
    (b, i) => b * 10 + i + 0.5,
    (_b, i) => i === 3,
  );
  const shared = img.masks[0];
  img.masks = [shared, shared, shared];
  for (const id of ['cast', 'ceil', 'floor']) {
    const out = await applyAlgorithm(id, validateAlgorithmParams(id, {}), img);
    assert.equal(out.masks[0], shared, id);
    assert.ok(
      out.masks.every((m) => m === shared),
      `${id}: one shared mask`,
    );
    assert.notEqual(out.masks, img.masks, `${id}: its own list`);
    assert.deepEqual([...out.masks[1]], [255, 255, 255, 0, 255, 255, 255, 255]);
  }
});
