import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { test } from 'node:test';
import { blockKey, createBlockCache, withDecodedKeys, type DecodedBlock } from '../../src/formats/tiff/block-cache.ts';
import { BUFFER_POOL } from '../../src/util/buffer-pool.ts';

const pooledBlock = (): DecodedBlock => {
  const plane = BUFFER_POOL.array('uint16', 256 * 256);
  return { width: 256, height: 256, planes: [plane], byteLength: plane.buffer.byteLength, owned: [plane.buffer as ArrayBuffer] };
};

test('withDecodedKeys lists the blocks a read decoded, not the ones it found cached; drop gives their buffers back', async () => {
  const cache = createBlockCache(64 * 1024 * 1024);
  const [a, b, c] = [0, 1, 2].map((i) => blockKey('http://host/g.tif', 0, i));
  await cache.get(a!, async () => pooledBlock()); // cached before the read
  let decodes = 0;
  const decode = async () => {
    decodes++;
    return pooledBlock();
  };
  const { value, keys } = await withDecodedKeys(async () => {
    const blocks = await Promise.all([cache.get(a!, decode), cache.get(b!, decode), cache.get(c!, decode), cache.get(b!, decode)]);
    return blocks.length;
  });
  assert.equal(value, 4);
  assert.deepEqual(keys, [b, c]);
  assert.equal(decodes, 2);
  // outside the scope nothing is collected
  const kept = await cache.get(c!, decode);
  assert.equal(decodes, 2);

  cache.drop(keys);
  assert.equal(cache.stats.entries, 1); // a stays
  await tick(); // released later: after reactions already queued
  assert.equal(BUFFER_POOL.owns(kept.owned[0]!), false);
  const allocations = BUFFER_POOL.allocations;
  const again = BUFFER_POOL.array('uint16', 256 * 256);
  const again2 = BUFFER_POOL.array('uint16', 256 * 256);
  assert.equal(BUFFER_POOL.allocations, allocations, 'both dropped blocks buffers are reused');
  BUFFER_POOL.release(again.buffer, again2.buffer);
  // a dropped block is decoded again on its next read
  await cache.get(b!, decode);
  assert.equal(decodes, 3);
});
