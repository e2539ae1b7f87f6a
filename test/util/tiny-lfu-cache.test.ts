import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TinyLfuCache } from '../../src/util/tiny-lfu-cache.ts';
import { LruCache } from '../../src/util/lru-cache.ts';

describe('TinyLfuCache', () => {
  it('stays within its byte budget and returns what it holds', () => {
    const c = new TinyLfuCache<number, number>(100, () => 10);
    for (let i = 0; i < 50; i++) c.set(i, i * 2);
    assert.ok(c.usedBytes <= 100, `used ${c.usedBytes}`);
    for (let i = 0; i < 50; i++) {
      const v = c.get(i);
      if (v !== undefined) assert.equal(v, i * 2, `value of ${i}`);
    }
  });

  it('keeps frequently used entries under a cyclic scan where LRU keeps nothing', () => {
    const lfu = new TinyLfuCache<number, number>(300, () => 10);
    const lru = new LruCache<number, number>(300, () => 10);
    let hitsLfu = 0;
    let hitsLru = 0;
    for (let pass = 0; pass < 5; pass++) {
      for (let k = 0; k < 100; k++) {
        if (lfu.get(k) !== undefined) hitsLfu++;
        else lfu.set(k, k);
        if (lru.get(k) !== undefined) hitsLru++;
        else lru.set(k, k);
      }
    }
    assert.equal(hitsLru, 0, 'LRU thrashes on a cycle bigger than the cache');
    assert.ok(hitsLfu > 50, `TinyLFU keeps a stable subset (hits ${hitsLfu})`);
  });

  it('a new entry is served from the window right away (neighbouring reads share it)', () => {
    const c = new TinyLfuCache<string, string>(100, () => 10);
    for (let i = 0; i < 20; i++) c.set(`old${i}`, 'x');
    c.set('new', 'y');
    assert.equal(c.get('new'), 'y', 'just inserted');
  });
});
