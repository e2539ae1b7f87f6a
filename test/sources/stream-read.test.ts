/**
 * Streamed reads (Source.stream, src/sources/stream-read.ts) through the opener's remote stack
 * over a real loopback Range server: the pieces are the bytes `fetch` returns, one request, not
 * put in the byte cache; a cached range is delivered without a request; a retried attempt
 * restarts the sink; sources without `stream` fall back to one `fetch`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Errors } from '../../src/errors.ts';
import { createSourceOpener } from '../../src/sources/open-source.ts';
import { sourceOptionsFromEnv } from '../../src/sources/options.ts';
import { markRetryable, RetryingSource } from '../../src/sources/retry.ts';
import { createSourceStats, type ByteSink, type Source } from '../../src/sources/source.ts';
import { streamRead } from '../../src/sources/stream-read.ts';
import { RequestBudget } from '../../src/util/request-budget.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { makeTempTree, patternBytes, type TempTree } from './fixture-files.ts';

/** Collects the pieces of a streamed read, counting restarts and pieces. */
function collector(): ByteSink & { bytes(): Uint8Array; restarts: number; pieces: number } {
  let parts: Uint8Array[] = [];
  const sink = {
    restarts: 0,
    pieces: 0,
    restart() {
      sink.restarts++;
      parts = [];
    },
    write(piece: Uint8Array) {
      sink.pieces++;
      parts.push(piece.slice());
    },
    bytes() {
      const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    },
  };
  return sink;
}

describe('streamed reads over HTTP Range', () => {
  const data = patternBytes(3 * 1024 * 1024, 5);
  let tree: TempTree;
  let server: RangeServer;
  before(async () => {
    tree = await makeTempTree({ 'big.bin': data });
    server = await startRangeServer({ root: tree.dir, validators: 'etag' });
  });
  after(async () => {
    await server.close();
    await tree.cleanup();
  });
  const opener = () => createSourceOpener({ ...sourceOptionsFromEnv({}), allowPrivateHosts: true, headerBytes: 64 * 1024, retryBaseDelayMs: 1 });

  it('delivers the bytes fetch returns, in one request, without caching them', async () => {
    const src = await opener().open(`${server.url}/big.bin`);
    const requests = src.stats!.requests;
    const sink = collector();
    const n = await streamRead(src, 100_000, 2_000_000, sink);
    assert.equal(n, 2_000_000);
    assert.deepEqual(sink.bytes(), data.subarray(100_000, 2_100_000));
    assert.equal(sink.restarts, 1);
    assert.ok(sink.pieces > 1, 'the body arrives in pieces');
    assert.equal(src.stats!.requests - requests, 1);
    assert.equal(src.stats!.bytesFetched, 64 * 1024 + 2_000_000);
    // not in the byte cache: the same range read again is another request
    assert.deepEqual(await src.fetch(100_000, 2_000_000), data.subarray(100_000, 2_100_000));
    assert.equal(src.stats!.requests - requests, 2);
  });

  it('a large streamed read collects the young generation once, before its body arrives; a small one does not', async () => {
    const src = await opener().open(`${server.url}/big.bin`);
    const g = globalThis as { gc?: unknown };
    const saved = g.gc;
    const events: string[] = [];
    g.gc = (options?: { type?: string }) => events.push(`gc ${options?.type}`);
    try {
      await new Promise((r) => setTimeout(r, 25)); // past the collections' minimum interval
      const sink = collector();
      const write = sink.write.bind(sink);
      sink.write = (piece) => {
        if (!events.includes('piece')) events.push('piece');
        write(piece);
      };
      await streamRead(src, 200_000, 1_500_000, sink);
      assert.deepEqual(events, ['gc minor', 'piece']);
      events.length = 0;
      await new Promise((r) => setTimeout(r, 25));
      await streamRead(src, 2_000_000, 100_000, sink);
      assert.deepEqual(events, ['piece'], 'no collection for a small read');
      // with other requests being served the wait is not idle: no collection
      const budgets = [new RequestBudget(1 << 30), new RequestBudget(1 << 30)];
      events.length = 0;
      await new Promise((r) => setTimeout(r, 25));
      await streamRead(src, 200_000, 1_500_000, sink);
      for (const b of budgets) b.close();
      assert.deepEqual(events, ['piece'], 'no collection while other requests are served');
    } finally {
      g.gc = saved;
    }
  });

  it('delivers a cached range from the cache, and the end of the object short', async () => {
    const src = await opener().open(`${server.url}/big.bin`);
    const requests = src.stats!.requests;
    const sink = collector();
    assert.equal(await streamRead(src, 10, 5000, sink), 5000);
    assert.deepEqual(sink.bytes(), data.subarray(10, 5010));
    assert.equal(src.stats!.requests, requests, 'inside the cached head');
    const tail = collector();
    assert.equal(await streamRead(src, data.length - 100, 1000, tail), 100);
    assert.deepEqual(tail.bytes(), data.subarray(data.length - 100));
    const past = collector();
    assert.equal(await streamRead(src, data.length + 10, 1000, past), 0);
  });
});

describe('streamed reads: retries and fallback', () => {
  it('a retried attempt restarts the sink', async () => {
    const bytes = patternBytes(1000, 9);
    let attempts = 0;
    const flaky: Source = {
      url: 'memory:flaky',
      fetch: () => Promise.reject(new Error('not used')),
      stream(offset, length, sink) {
        attempts++;
        sink.restart();
        sink.write(bytes.subarray(offset, offset + length / 2));
        if (attempts === 1) return Promise.reject(markRetryable(Errors.upstream('connection reset mid-body')));
        sink.write(bytes.subarray(offset + length / 2, offset + length));
        return Promise.resolve(length);
      },
    };
    const stats = createSourceStats();
    const retrying = new RetryingSource(flaky, { retries: 2, baseDelayMs: 1, timeoutMs: 5000, label: 'memory' }, stats);
    const sink = collector();
    assert.equal(await streamRead(retrying, 100, 500, sink), 500);
    assert.deepEqual(sink.bytes(), bytes.subarray(100, 600));
    assert.equal(sink.restarts, 2);
    assert.equal(stats.retries, 1);
  });

  it('a source without stream is read with one fetch', async () => {
    const bytes = patternBytes(1000, 3);
    const plain: Source = { url: 'memory:plain', fetch: (o, l) => Promise.resolve(bytes.slice(o, Math.min(bytes.length, o + l))) };
    const sink = collector();
    assert.equal(await streamRead(plain, 900, 500, sink), 100);
    assert.deepEqual(sink.bytes(), bytes.subarray(900));
    assert.equal(sink.pieces, 1);
  });
});
