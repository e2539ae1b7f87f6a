/** The GIF series' encoder thread gives the bytes the calling thread gives, and follows the step's signal. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeSeriesFrameOffThread, framesEncodedOffThread, gifEncoderReady, startGifEncoder } from '../../src/http/factories/timeseries-gif-encoder.ts';
import { encodeSeriesFrame } from '../../src/raster/render/encode-gif.ts';
import type { IndexedFrame } from '../../src/raster/render/indexed-frame.ts';

function frame(seed: number, width = 64, height = 48): IndexedFrame {
  const index = new Uint8Array(width * height);
  let s = seed;
  for (let i = 0; i < index.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    index[i] = ((i >> 6) + (s >> 28)) & 0xff;
  }
  return { width, height, index, palette: [[1, 2, 3]], transparentIndex: -1 };
}

describe('GIF series encoder thread', () => {
  it('encodes as encodeSeriesFrame does, before it is started and on the thread, several frames at once, resized', async () => {
    const signal = new AbortController().signal;
    const want = (seed: number, w = 64, h = 48) => Buffer.from(encodeSeriesFrame(frame(seed), w, h).data);
    assert.deepEqual(Buffer.from((await encodeSeriesFrameOffThread(frame(1), 64, 48, signal)).data), want(1));
    assert.equal(await gifEncoderReady(), true);
    const before = framesEncodedOffThread();
    const got = await Promise.all([1, 2, 3, 4, 5, 6].map((seed) => encodeSeriesFrameOffThread(frame(seed), 64, 48, signal)));
    got.forEach((e, i) => {
      assert.equal(e.width, 64);
      assert.deepEqual(Buffer.from(e.data), want(i + 1));
    });
    assert.equal(framesEncodedOffThread() - before, 6);
    const resized = await encodeSeriesFrameOffThread(frame(9), 32, 30, signal);
    assert.equal(resized.width, 32);
    assert.deepEqual(Buffer.from(resized.data), want(9, 32, 30));
  });

  it("rejects with the step's abort", async () => {
    startGifEncoder();
    const c = new AbortController();
    c.abort(new Error('gone'));
    await assert.rejects(encodeSeriesFrameOffThread(frame(1), 64, 48, c.signal));
  });
});
