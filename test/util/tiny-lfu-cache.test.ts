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

  it('reports every value it lets go of by itself, once', () => {
    const dropped: number[] = [];
    const c = new TinyLfuCache<number, number>(
      100,
      () => 10,
      (_k, v) => dropped.push(v),
    );
    for (let pass = 0; pass < 3; pass++) for (let i = 0; i < 30; i++) if (c.get(i) === undefined) c.set(i, 1000 * pass + i);
    c.set(5, -1); // replacing a value drops the old one (if it was held)
    const held = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const v = c.get(i);
      if (v !== undefined) held.add(v);
    }
    assert.ok(dropped.length > 0);
    for (const v of dropped) assert.ok(!held.has(v), `dropped ${v} is still held`);
    assert.equal(new Set(dropped).size, dropped.length, 'no value dropped twice');
    assert.ok(dropped.length + held.size <= 3 * 30 + 1);
    const tooBig = new TinyLfuCache<string, number>(
      100,
      (v) => v,
      (_k, v) => dropped.push(v),
    );
    tooBig.set('big', 90);
    assert.equal(tooBig.get('big'), undefined);
    assert.equal(dropped.at(-1), 90);
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
