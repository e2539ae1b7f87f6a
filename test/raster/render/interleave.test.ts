/** interleaveWithAlpha (grey, RGB and other band counts, 8-bit alpha and the 16-bit ALPHA16 table) against plain per-sample definitions. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interleaveWithAlpha } from '../../../src/raster/render/interleave.ts';
import { ALPHA16 } from '../../../src/raster/render/mask-band.ts';

const n = 257;
const alpha8 = Uint8Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : i % 7 === 0 ? 128 : 255));

function expected(planes: ArrayLike<number>[], alpha: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const p of planes) out.push(alpha[i] === 0 ? 0 : p[i]);
    out.push(alpha[i]);
  }
  return out;
}

for (const bands of [1, 2, 3, 4]) {
  test(`interleaveWithAlpha, ${bands} band(s): samples interleaved, colour 0 where alpha is 0, stale output overwritten`, () => {
    const planes8 = Array.from({ length: bands }, (_, k) => Uint8Array.from({ length: n }, (_, i) => (i * (k + 3) + 1) & 255));
    const out8 = new Uint8Array(n * (bands + 1)).fill(99);
    assert.deepEqual(Array.from(interleaveWithAlpha(out8, planes8, alpha8, n)), expected(planes8, alpha8));
    const planes16 = planes8.map((p) => Uint16Array.from(p, (v) => v * 257 + 3));
    const alpha16 = Array.from(alpha8, (a) => Math.trunc((a / 255) * 65535)); // rio-tiler's 16-bit alpha
    const out16 = new Uint16Array(n * (bands + 1)).fill(999);
    assert.deepEqual(Array.from(interleaveWithAlpha(out16, planes16, alpha8, n, ALPHA16)), expected(planes16, alpha16));
  });
}

test('ALPHA16 is trunc(a / 255 · 65535) for every 8-bit alpha, 0 only for 0', () => {
  assert.deepEqual(
    Array.from(ALPHA16),
    Array.from({ length: 256 }, (_, a) => Math.trunc((a / 255) * 65535)),
  );
  assert.ok(ALPHA16.subarray(1).every((v) => v > 0));
});
