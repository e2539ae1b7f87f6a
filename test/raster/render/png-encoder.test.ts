/**
 * Our PNG writer: every filter mode and layout decodes to the input samples — checked with the
 * tests' own decoder (exact samples, channels, depth) and with libpng through sharp (validity).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { decodePng } from './png-decode.ts';
import { encodePng, encodePngSync, type PngInput } from '../../../src/raster/render/png-encoder.ts';

function samples(width: number, height: number, channels: number, sixteen: boolean): Uint8Array | Uint16Array {
  const n = width * height * channels;
  const out = sixteen ? new Uint16Array(n) : new Uint8Array(n);
  // smooth ramps plus noise, so every filter type is chosen somewhere and bytes wrap
  for (let i = 0; i < n; i++) out[i] = ((i * 37 + (i % 13) * 101 + ((i * 2654435761) >>> 27)) * (sixteen ? 257 : 1)) % (sixteen ? 65536 : 256);
  return out;
}

describe('PNG encoder', () => {
  for (const filter of ['up', 'adaptive', 'none'] as const) {
    for (const channels of [1, 2, 3, 4] as const) {
      for (const [width, sixteen] of [
        [64, false],
        [37, false],
        [20, true],
      ] as const) {
        it(`${filter}, ${channels} channel(s), width ${width}, ${sixteen ? 16 : 8}-bit`, async () => {
          const height = 9;
          const data = samples(width, height, channels, sixteen);
          const input: PngInput = { width, height, channels, data, level: 1, filter };
          for (const png of [encodePngSync(input), encodePng(input)]) {
            const decoded = decodePng(png);
            assert.deepEqual([decoded.width, decoded.height, decoded.channels, decoded.depth], [width, height, channels, sixteen ? 16 : 8]);
            assert.deepEqual(Array.from(decoded.data), Array.from(data));
            const meta = await sharp(png).stats(); // libpng reads it without complaint (CRCs, zlib stream)
            assert.equal(meta.channels.length, channels);
          }
        });
      }
    }
  }

  it('uses the Up filter from the second row on (filter-type bytes in the decompressed stream)', async () => {
    const { inflateSync } = await import('node:zlib');
    const width = 16;
    const png = encodePngSync({ width, height: 4, channels: 4, data: samples(width, 4, 4, false), level: 1, filter: 'up' });
    const idatAt = png.indexOf('IDAT');
    const len = png.readUInt32BE(idatAt - 4);
    const scan = inflateSync(png.subarray(idatAt + 4, idatAt + 4 + len));
    assert.deepEqual(
      [0, 1, 2, 3].map((r) => scan[r * (width * 4 + 1)]),
      [1, 2, 2, 2],
    );
  });
});
