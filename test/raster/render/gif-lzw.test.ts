/**
 * The GIF LZW writer (gif-lzw.ts) against gifenc's encoder as the oracle: the same image data,
 * byte for byte, on inputs that exercise every path (code width growth, table resets on noisy
 * data, long runs, one and two pixels, sub-block boundaries). Pillow decodes the GIFs written
 * with it in gif-frame.test.ts and the time-series HTTP tests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import gifenc from 'gifenc';
import { lzwImageData, lzwMaxBytes } from '../../../src/raster/render/gif-lzw.ts';
import { random } from '../../helpers/gif-pixels.ts';

const { GIFEncoder } = gifenc;

/** gifenc's image data for `index`: its frame minus the graphic control extension (8) and image descriptor (10). */
function gifencImageData(index: Uint8Array): Uint8Array {
  const e = GIFEncoder({ auto: false, initialCapacity: index.length + 4096 });
  e.writeFrame(index, index.length, 1, {});
  return e.bytes().subarray(18);
}

function ours(index: Uint8Array): Uint8Array {
  const out = new Uint8Array(lzwMaxBytes(index.length) + 3);
  const end = lzwImageData(index, 8, out, 3);
  assert.ok(end - 3 <= lzwMaxBytes(index.length));
  return out.subarray(3, end);
}

describe('GIF LZW image data', () => {
  const cases: Array<[string, Uint8Array]> = [
    ['one pixel', Uint8Array.of(7)],
    ['two pixels', Uint8Array.of(200, 3)],
    ['a constant run (long strings, no reset)', new Uint8Array(70_000).fill(42)],
    ['noise over 256 symbols (a table reset every few thousand pixels)', random(100_000, 256, 1)],
    ['noise over 2 symbols', random(50_000, 2, 2)],
    ['noise over 16 symbols', random(300_000, 16, 4)],
    ['a smooth ramp with noise', Uint8Array.from({ length: 512 * 512 }, (_, i) => ((i % 512) >> 2) + (random(1, 3, i)[0]! & 3))],
  ];
  for (const [name, index] of cases) {
    it(`equals gifenc's bytes: ${name}`, () => {
      assert.deepEqual(Buffer.from(ours(index)), Buffer.from(gifencImageData(index)));
    });
  }

  it('encodes frame after frame with the shared table (generations) as a fresh encoder would', () => {
    const a = random(20_000, 200, 9);
    const first = Buffer.from(ours(a));
    for (let k = 0; k < 5; k++) ours(random(40_000, 256, k));
    assert.deepEqual(Buffer.from(ours(a)), first);
  });

  it('stays equal after the table generations wrap around (> 2047 resets)', () => {
    const noise = random(1_000_000, 256, 5);
    for (let k = 0; k < 12; k++) ours(noise); // ~200 resets each
    const b = random(30_000, 256, 6);
    assert.deepEqual(Buffer.from(ours(b)), Buffer.from(gifencImageData(b)));
  });
});
