import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { ByteCache } from '../../src/sources/byte-cache.ts';
import { CoalescingSource } from '../../src/sources/coalescing-source.ts';
import { createSourceOpener } from '../../src/sources/open-source.ts';
import { sourceOptionsFromEnv, type SourceOptions } from '../../src/sources/options.ts';
import { createSourceStats, type Source } from '../../src/sources/source.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { makeTempTree, patternBytes, type TempTree } from './fixture-files.ts';

const data = patternBytes(2_000_000, 5);
let tree: TempTree;
let server: RangeServer;
let slow: RangeServer;

before(async () => {
  tree = await makeTempTree({ 'cog.tif': data });
  server = await startRangeServer({ root: tree.dir });
  slow = await startRangeServer({ root: tree.dir, delayMs: 150 });
});
after(async () => {
  await server.close();
  await slow.close();
  await tree.cleanup();
});

const options = (extra: Partial<SourceOptions> = {}): SourceOptions => ({
  ...sourceOptionsFromEnv({}),
  allowPrivateHosts: true,
  retryBaseDelayMs: 1,
  headerBytes: 0,
  ...extra,
});

function rangesSince(s: RangeServer, from: number): string[] {
  return s.requests.slice(from).map((r) => r.range ?? '');
}

describe('coalescing', () => {
  it('merges concurrent adjacent and close reads into one request', async () => {
    const src = await createSourceOpener(options()).open(`${server.url}/cog.tif`);
    const start = server.requests.length;
    // Eight 10 000-byte tiles with 1000-byte gaps, issued in scrambled order.
    const offsets = [7, 2, 0, 5, 1, 6, 3, 4].map((i) => 100_000 + i * 11_000);
    const parts = await Promise.all(offsets.map((o) => src.fetch(o, 10_000)));
    offsets.forEach((o, i) => assert.deepEqual(parts[i], data.subarray(o, o + 10_000)));
    assert.deepEqual(rangesSince(server, start), [`bytes=100000-${100_000 + 7 * 11_000 + 9_999}`]);
    assert.equal(src.stats?.coalescedReads, 8);
  });

  it('merges reads issued from different promise chains of the same tick', async () => {
    const src = await createSourceOpener(options()).open(`${server.url}/cog.tif`);
    const start = server.requests.length;
    const later = async (o: number) => {
      await Promise.resolve();
      await Promise.resolve();
      return src.fetch(o, 1000);
    };
    const [a, b] = await Promise.all([src.fetch(0, 1000), later(1000)]);
    assert.deepEqual(a, data.subarray(0, 1000));
    assert.deepEqual(b, data.subarray(1000, 2000));
    assert.equal(server.requests.length - start, 1);
  });

  it('keeps reads apart when the gap or the merged size is too large', async () => {
    const src = await createSourceOpener(options({ coalesceMaxBytes: 100_000 })).open(`${server.url}/cog.tif`);
    const start = server.requests.length;
    await Promise.all([
      src.fetch(0, 1000),
      src.fetch(1000 + 32_768, 1000), // gap exactly 32 KiB: merged
      src.fetch(200_000, 1000), // far away
      src.fetch(300_000, 60_000),
      src.fetch(360_000, 60_000), // adjacent, but 120 000 bytes merged > 100 000
    ]);
    assert.deepEqual(rangesSince(server, start).sort(), ['bytes=0-34767', 'bytes=200000-200999', 'bytes=300000-359999', 'bytes=360000-419999']);
  });

  it('one aborted reader does not cancel a merged request for the others', async () => {
    const inner: Source & { calls: number } = {
      url: 'mem://x',
      calls: 0,
      async fetch(offset, length, signal) {
        this.calls++;
        await sleep(30, undefined, { signal });
        return data.slice(offset, offset + length);
      },
    };
    const co = new CoalescingSource(inner, { maxGapBytes: 32_768, maxMergedBytes: 1 << 22 }, createSourceStats());
    const controller = new AbortController();
    const a = co.fetch(0, 100, controller.signal);
    const b = co.fetch(100, 100);
    setTimeout(() => controller.abort(), 5);
    await assert.rejects(a, { name: 'AbortError' });
    assert.deepEqual(await b, data.subarray(100, 200));
    assert.equal(inner.calls, 1);
  });

  it('streams a merged read into one array per reader: small pieces, a restarted attempt, overlaps, the end of the object', async () => {
    const size = 50_000;
    const inner: Source & { streams: number } = {
      url: 'mem://x',
      streams: 0,
      fetch: () => Promise.reject(new Error('a merged read streams')),
      stream(offset, length, sink) {
        this.streams++;
        const end = Math.min(offset + length, size);
        sink.restart();
        sink.write(new Uint8Array(1000).fill(0xee)); // a failed attempt's garbage, then a retry starts over
        sink.restart();
        for (let at = offset; at < end; at += 777) sink.write(data.subarray(at, Math.min(at + 777, end)));
        return Promise.resolve(end - offset);
      },
    };
    const co = new CoalescingSource(inner, { maxGapBytes: 32_768, maxMergedBytes: 1 << 22 }, createSourceStats());
    const reads: Array<[number, number]> = [
      [10_000, 5_000],
      [12_000, 6_000], // overlaps the first
      [20_000, 1],
      [48_000, 5_000], // past the end of the object: cut short
    ];
    const got = await Promise.all(reads.map(([o, l]) => co.fetch(o, l)));
    assert.equal(inner.streams, 1);
    reads.forEach(([o, l], i) => {
      assert.deepEqual(got[i], data.subarray(o, Math.min(o + l, size)));
      assert.equal(got[i]!.byteOffset, 0);
      assert.equal(got[i]!.buffer.byteLength, got[i]!.length); // owns its buffer
    });
  });
});

describe('byte cache', () => {
  it('serves repeated reads without new requests and hands out private copies', async () => {
    const src = await createSourceOpener(options()).open(`${server.url}/cog.tif`);
    const start = server.requests.length;
    const first = await src.fetch(500_000, 20_000);
    first.fill(0); // must not corrupt the cache
    const again = await src.fetch(500_000, 20_000);
    const inside = await src.fetch(505_000, 1_000);
    assert.deepEqual(again, data.subarray(500_000, 520_000));
    assert.deepEqual(inside, data.subarray(505_000, 506_000));
    assert.equal(again.byteOffset, 0);
    assert.equal(again.buffer.byteLength, 20_000);
    assert.equal(server.requests.length - start, 1);
    assert.equal(src.stats?.cacheHits, 2);
  });

  it('fetchShared hands out the cached bytes themselves (no copy); fetch still copies', async () => {
    const src = await createSourceOpener(options()).open(`${server.url}/cog.tif`);
    const start = server.requests.length;
    const [a, b] = await Promise.all([src.fetchShared!(900_000, 20_000), src.fetchShared!(900_000, 20_000)]);
    assert.equal(a, b); // one read, one array
    const inside = await src.fetchShared!(905_000, 1_000);
    assert.equal(inside.buffer, a.buffer); // a view of the cached range
    assert.equal(inside.byteOffset - a.byteOffset, 5_000);
    assert.deepEqual(inside, data.subarray(905_000, 906_000));
    const copy = await src.fetch(900_000, 20_000);
    assert.notEqual(copy.buffer, a.buffer);
    assert.equal(copy.byteOffset, 0);
    copy.fill(0);
    assert.deepEqual(await src.fetchShared!(900_000, 20_000), data.subarray(900_000, 920_000));
    assert.equal((await src.fetchShared!(data.length + 10, 5)).length, 0);
    assert.equal(server.requests.length - start, 1);
  });

  it('de-duplicates a read already in flight, and survives one waiter aborting', async () => {
    const src = await createSourceOpener(options()).open(`${slow.url}/cog.tif`);
    const start = slow.requests.length;
    const controller = new AbortController();
    const a = src.fetch(700_000, 5_000, controller.signal);
    await sleep(30); // the first request is on the wire now
    const b = src.fetch(700_000, 5_000);
    controller.abort();
    await assert.rejects(a, { name: 'AbortError' });
    assert.deepEqual(await b, data.subarray(700_000, 705_000));
    assert.equal(slow.requests.length - start, 1);
  });

  it('is bounded in bytes across sources', async () => {
    const opener = createSourceOpener(options({ cacheBytes: 100_000 }));
    const src = await opener.open(`${server.url}/cog.tif`);
    for (let i = 0; i < 10; i++) await src.fetch(i * 40_000, 30_000);
    assert.ok(opener.stats.cache.bytes <= 100_000, `${opener.stats.cache.bytes}`);
    assert.equal(opener.stats.cache.entries, 3);
    const start = server.requests.length;
    assert.deepEqual(await src.fetch(9 * 40_000, 30_000), data.subarray(360_000, 390_000)); // recent: cached
    assert.deepEqual(await src.fetch(0, 30_000), data.subarray(0, 30_000)); // evicted: fetched again
    assert.equal(server.requests.length - start, 1);
  });

  it('ByteCache keeps one entry for a range put again or covered by a cached one', () => {
    const cache = new ByteCache(1000);
    cache.put('u', 0, patternBytes(200, 1));
    cache.put('u', 0, patternBytes(200, 1)); // the same range again (two concurrent misses)
    cache.put('u', 50, patternBytes(100, 1).subarray(0, 100)); // inside the first one
    assert.deepEqual(cache.stats, { entries: 1, bytes: 200, maxBytes: 1000 });
    cache.put('u', 150, patternBytes(100, 2)); // overlaps only partly: a range of its own
    assert.deepEqual(cache.stats, { entries: 2, bytes: 300, maxBytes: 1000 });
    assert.deepEqual(cache.lookup('u', 160, 250), patternBytes(100, 2).subarray(10));
  });

  it('ByteCache: a put of a covered range counts as a use (eviction order)', () => {
    const cache = new ByteCache(300);
    cache.put('u', 0, patternBytes(100, 1));
    cache.put('u', 100, patternBytes(100, 2));
    cache.put('u', 0, patternBytes(100, 1)); // u@0 becomes the most recently used
    cache.put('u', 200, patternBytes(200, 3)); // evicts u@100 only
    assert.equal(cache.lookup('u', 100, 101), undefined);
    assert.deepEqual(cache.lookup('u', 0, 100), patternBytes(100, 1));
    assert.deepEqual(cache.stats, { entries: 2, bytes: 300, maxBytes: 300 });
  });

  it('ByteCache drops evicted ranges from the index, and forget/clear empty it', () => {
    const cache = new ByteCache(250);
    for (let i = 0; i < 20; i++) cache.put('u', i * 100, patternBytes(100, i)); // keeps the last two
    assert.equal(cache.stats.entries, 2);
    for (let i = 0; i < 18; i++) assert.equal(cache.lookup('u', i * 100, i * 100 + 1), undefined, `range ${i}`);
    // were stale entries left in the index, the look-back (16 entries) could not reach these
    assert.deepEqual(cache.lookup('u', 1800, 1900), patternBytes(100, 18));
    assert.deepEqual(cache.lookup('u', 1950, 2000), patternBytes(100, 19).subarray(50));
    cache.put('v', 0, patternBytes(50, 7));
    cache.clear();
    assert.deepEqual(cache.stats, { entries: 0, bytes: 0, maxBytes: 250 });
    assert.equal(cache.lookup('u', 1900, 1901), undefined);
    cache.put('u', 0, patternBytes(100, 8)); // usable again after clear
    cache.forget('u');
    cache.forget('u');
    assert.deepEqual(cache.stats, { entries: 0, bytes: 0, maxBytes: 250 });
  });

  it('ByteCache finds covering ranges and forgets evicted ones', () => {
    const cache = new ByteCache(300);
    cache.put('u', 0, patternBytes(100, 1));
    cache.put('u', 1000, patternBytes(100, 2));
    cache.put('v', 0, patternBytes(100, 3));
    assert.deepEqual(cache.lookup('u', 10, 20), patternBytes(100, 1).subarray(10, 20));
    assert.deepEqual(cache.lookup('u', 1050, 1100), patternBytes(100, 2).subarray(50));
    assert.equal(cache.lookup('u', 90, 110), undefined);
    assert.equal(cache.lookup('w', 0, 1), undefined);
    cache.put('v', 500, patternBytes(100, 4)); // evicts the least recently used: v@0 (u's were looked up since)
    assert.equal(cache.lookup('v', 0, 1), undefined);
    assert.deepEqual(cache.lookup('v', 500, 502), patternBytes(100, 4).subarray(0, 2));
    assert.deepEqual(cache.lookup('u', 1000, 1001), patternBytes(100, 2).subarray(0, 1));
    assert.equal(cache.stats.entries, 3);
    cache.forget('u');
    assert.equal(cache.lookup('u', 0, 1), undefined);
    assert.equal(cache.stats.bytes, 100); // only v@500 is left
  });
});
