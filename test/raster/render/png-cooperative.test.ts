/** The sliced, yielding PNG encoder writes the same bytes as the one-pass encoder. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodePngCooperative, encodePngSync, type PngInput } from '../../../src/raster/render/png-encoder.ts';

function input(width: number, height: number, channels: 1 | 2 | 3 | 4, bits: 8 | 16, filter: PngInput['filter']): PngInput {
  const n = width * height * channels;
  const data = bits === 8 ? new Uint8Array(n) : new Uint16Array(n);
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = ((i % (width * channels)) * 7 + (s >>> 28)) & (bits === 8 ? 0xff : 0xffff);
  }
  return { width, height, channels, data, level: 1, filter };
}

for (const [w, h, c, bits, filter] of [
  [1024, 1030, 4, 8, 'up'],
  [1027, 1024, 3, 8, 'up'],
  [1100, 1000, 1, 16, 'up'],
  [700, 1600, 2, 8, 'adaptive'],
  [1024, 1024, 4, 8, 'none'],
] as const) {
  test(`cooperative PNG = one-pass PNG (${w}×${h}×${c}, ${bits}-bit, ${filter})`, async () => {
    const inp = input(w, h, c, bits, filter);
    assert.ok((await encodePngCooperative(inp)).equals(encodePngSync(inp)));
  });
}

test("cooperative PNG = one-pass PNG under 'auto', dense and mostly empty (libpng's settings decided once for the image)", async () => {
  const dense = input(1024, 1030, 4, 8, 'auto');
  assert.ok((await encodePngCooperative(dense)).equals(encodePngSync(dense)));
  const sparse = input(1100, 1000, 2, 16, 'auto');
  sparse.data.fill(0, 0, 1100 * 2 * 900); // 90 % empty rows
  assert.ok((await encodePngCooperative(sparse)).equals(encodePngSync(sparse)));
});
