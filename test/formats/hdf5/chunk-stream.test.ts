/**
 * Chunks decoded while their bytes arrive (src/formats/hdf5/chunk-stream.ts) equal the one-shot
 * decode: every value of the h5py / netCDF4-python fixtures (expected.json, written by
 * scripts/fixtures/make-hdf5-fixtures.py) read through a source that streams each range in
 * small pieces and restarts once mid-way (a retry), and StreamedChunk against `unfilter` on
 * the same stored bytes for every piece size, element size and error.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { streamableShuffle, StreamedChunk } from '../../../src/formats/hdf5/chunk-stream.ts';
import { unfilter } from '../../../src/formats/hdf5/filters.ts';
import type { FilterSpec } from '../../../src/formats/hdf5/messages/filter-pipeline.ts';
import { openHdf5 } from '../../../src/formats/hdf5/open-hdf5.ts';
import type { ByteSink, Source } from '../../../src/sources/source.ts';
import { allVariables, readAll } from './read-all.ts';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');
const expected = JSON.parse(readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<
  string,
  { variables: Record<string, { values?: number[]; filters?: string[] }> }
>;

/** The file in memory as a Source whose `stream` hands out pieces of 1…`maxPiece` bytes and starts over once. */
function streamingSource(bytes: Uint8Array, maxPiece: number): Source & { streamed: number } {
  let seed = 7;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  const src = {
    url: 'memory:streamed.h5',
    size: bytes.length,
    streamed: 0,
    fetch: (offset: number, length: number) => Promise.resolve(bytes.slice(offset, Math.min(bytes.length, offset + length))),
    async stream(offset: number, length: number, sink: ByteSink): Promise<number> {
      src.streamed++;
      const all = bytes.subarray(offset, Math.min(bytes.length, offset + length));
      const deliver = (upTo: number): void => {
        sink.restart();
        for (let at = 0; at < upTo;) {
          const n = Math.min(upTo - at, 1 + Math.floor(rand() * maxPiece));
          sink.write(all.slice(at, at + n));
          at += n;
        }
      };
      deliver(Math.floor(all.length / 2)); // an attempt cut off half-way…
      await Promise.resolve();
      deliver(all.length); // …and the retry from the start
      return all.length;
    },
  };
  return src;
}

describe('HDF5 chunks decoded while streamed equal h5py', () => {
  for (const name of ['dtypes.h5', 'earliest.h5', 'latest.h5', 'userblock.h5']) {
    for (const maxPiece of [1, 61, 4096]) {
      it(`${name}, pieces of up to ${maxPiece} bytes`, async () => {
        const src = streamingSource(new Uint8Array(readFileSync(path.join(DIR, name))), maxPiece);
        const vars = allVariables(await openHdf5(src));
        let checked = 0;
        for (const [p, e] of Object.entries(expected[name]!.variables)) {
          if (e.values === undefined) continue;
          assert.deepEqual(await readAll(vars.get(p)!), e.values, `${p} values`);
          if (e.filters?.includes('deflate') === true && !e.filters.includes('fletcher32')) checked++;
        }
        assert.ok(checked > 0, 'the file has deflated variables');
        assert.ok(src.streamed > 0, 'chunks were streamed');
      });
    }
  }
});

const spec = (id: number, params: number[] = []): FilterSpec => ({ id, name: '', optional: false, params });

/** HDF5's byte shuffle (the writer's side): byte k of every element into plane k. */
function shuffle(src: Uint8Array, size: number): Uint8Array {
  const n = Math.floor(src.length / size);
  const out = new Uint8Array(src.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < size; k++) out[k * n + i] = src[i * size + k]!;
  out.set(src.subarray(n * size), n * size);
  return out;
}

function feed(chunk: StreamedChunk, stored: Uint8Array, piece: number): Uint8Array {
  chunk.restart();
  for (let at = 0; at < stored.length; at += piece) chunk.write(stored.subarray(at, at + piece));
  try {
    return chunk.finish();
  } finally {
    chunk.close();
  }
}

describe('StreamedChunk against unfilter', () => {
  const data = new Uint8Array(200_003);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 13 ? (i >> 3) ^ (i * 31) : 0;

  for (const [size, chunkBytes] of [
    [1, 200_000],
    [2, 200_000],
    [2, 200_001],
    [2, 3 * 65_536 + 2],
    [4, 200_000],
    [8, 200_000],
    [4, 200_003],
    [4, 3],
  ] as const) {
    const raw = data.subarray(0, chunkBytes);
    const filters = size === 1 ? [spec(1, [4])] : [spec(2, [size]), spec(1, [4])];
    const stored = deflateSync(size === 1 ? raw : shuffle(raw, size), { level: 4 });
    it(`element size ${size}, ${chunkBytes} bytes: the same bytes for any piece size`, () => {
      const oneShot = unfilter(stored, filters, 0, chunkBytes, size, 'test chunk');
      assert.deepEqual(oneShot, raw);
      assert.equal(streamableShuffle(filters, 0, size), size);
      for (const piece of [1, 3, 1000, 65_536, stored.length]) {
        assert.deepEqual(feed(new StreamedChunk(chunkBytes, size, 'test chunk'), stored, piece), oneShot, `pieces of ${piece}`);
      }
    });
  }

  for (const size of [2, 4]) {
    it(`prefault() touches nothing once the read has started, and changes no byte before (element size ${size})`, async () => {
      // a few prefault slices long (256 KiB each)
      const raw = new Uint8Array(1_000_000 + size).map((_, i) => data[i % data.length]! ^ (i >> 12));
      const stored = deflateSync(shuffle(raw, size));
      const early = new StreamedChunk(raw.length, size, 'c');
      await early.prefault();
      assert.deepEqual(feed(early, stored, 999), raw);
      const late = new StreamedChunk(raw.length, size, 'c');
      late.restart();
      late.write(stored.subarray(0, stored.length >> 1));
      const prefault = late.prefault(); // too late: would zero decoded bytes if it ran
      for (let i = 0; i < 8; i++) await new Promise((r) => setImmediate(r));
      late.write(stored.subarray(stored.length >> 1));
      await prefault;
      assert.deepEqual(late.finish(), raw);
      late.close();
      const during = new StreamedChunk(raw.length, size, 'c');
      const running = during.prefault(); // a slice per turn: the read starts half-way through
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(feed(during, stored, 4096), raw);
      await running;
      assert.deepEqual(during.finish(), raw, 'no slice ran after the first piece');
    });
  }

  it('ignores bytes after the chunk is full, as the one-shot inflate does', () => {
    const raw = data.subarray(0, 4000);
    const stored = deflateSync(shuffle(raw, 2));
    const padded = new Uint8Array(stored.length + 100).fill(0xab);
    padded.set(stored);
    assert.deepEqual(feed(new StreamedChunk(4000, 2, 'c'), padded, 10), raw);
  });

  it('reports a short or corrupt stream with the one-shot messages', () => {
    const filters = [spec(2, [2]), spec(1)];
    const stored = deflateSync(shuffle(data.subarray(0, 4000), 2));
    const messages = (run: () => unknown): string => {
      try {
        run();
      } catch (err) {
        assert.ok(isRastileError(err, 'InvalidFormat'), String(err));
        return (err as Error).message.replace(/\(.*\)/, '(…)');
      }
      assert.fail('no error');
    };
    // a stream that decodes to fewer bytes than the chunk
    const short = deflateSync(data.subarray(0, 3000));
    assert.equal(
      messages(() => feed(new StreamedChunk(4000, 2, 'c'), short, 100)),
      messages(() => unfilter(short, filters, 0, 4000, 2, 'c')),
    );
    const corrupt = stored.slice();
    corrupt.fill(0xff, 10, 40);
    assert.equal(
      messages(() => feed(new StreamedChunk(4000, 2, 'c'), corrupt, 7)),
      messages(() => unfilter(corrupt, filters, 0, 4000, 2, 'c')),
    );
  });

  it('leaves other pipelines to the one-shot path', () => {
    assert.equal(streamableShuffle([spec(2), spec(1), spec(3)], 0, 4), null, 'fletcher32');
    assert.equal(streamableShuffle([spec(2), spec(1)], 1, 4), null, 'a filter skipped by the mask');
    assert.equal(streamableShuffle([spec(1), spec(2)], 0, 4), null, 'another order');
    assert.equal(streamableShuffle([spec(2)], 0, 4), null, 'shuffle alone');
    assert.equal(streamableShuffle([spec(2), spec(1)], 0, 4), 4, 'the element size when the shuffle has no parameter');
  });
});
