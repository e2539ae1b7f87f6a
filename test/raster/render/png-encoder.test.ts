/**
 * Our PNG writer: every filter mode and layout decodes to the input samples — checked with the
 * tests' own decoder (exact samples, channels, depth) and with libpng through sharp (validity).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { decodePng } from './png-decode.ts';
import { inflateSync } from 'node:zlib';
import { autoSettings, encodePng, encodePngSync, freeRowFraction, type PngInput } from '../../../src/raster/render/png-encoder.ts';

function samples(width: number, height: number, channels: number, sixteen: boolean): Uint8Array | Uint16Array {
  const n = width * height * channels;
  const out = sixteen ? new Uint16Array(n) : new Uint8Array(n);
  // smooth ramps plus noise, so every filter type is chosen somewhere and bytes wrap
  for (let i = 0; i < n; i++) out[i] = ((i * 37 + (i % 13) * 101 + ((i * 2654435761) >>> 27)) * (sixteen ? 257 : 1)) % (sixteen ? 65536 : 256);
  return out;
}

describe('PNG encoder', () => {
  for (const filter of ['up', 'adaptive', 'none', 'sampled', 'auto'] as const) {
    for (const channels of [1, 2, 3, 4] as const) {
      for (const [width, sixteen] of [
        [64, false],
        [37, false],
        [20, true],
      ] as const) {
        it(`${filter}, ${channels} channel(s), width ${width}, ${sixteen ? 16 : 8}-bit`, async () => {
          const height = 9;
          const data = samples(width, height, channels, sixteen);
          data.fill(0, 2 * width * channels, 4 * width * channels); // empty rows
          data.copyWithin(5 * width * channels, 4 * width * channels, 5 * width * channels); // a repeated row
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

  /** Filter-type byte of each row. */
  function filterTypes(png: Buffer, rowBytes: number, height: number): number[] {
    const idat: Buffer[] = [];
    for (let o = 8; o < png.length;) {
      const len = png.readUInt32BE(o);
      if (png.toString('latin1', o + 4, o + 8) === 'IDAT') idat.push(png.subarray(o + 8, o + 8 + len));
      o += 12 + len;
    }
    const scan = inflateSync(Buffer.concat(idat));
    return Array.from({ length: height }, (_, y) => scan[y * (rowBytes + 1)]);
  }

  for (const channels of [1, 2, 3, 4] as const) {
    it(`adaptive chooses each row's filter as libpng does (sharp's libpng, all filters), ${channels} channel(s)`, async () => {
      const width = 48;
      const height = 40;
      const data = new Uint8Array(width * height * channels);
      for (let i = 0; i < data.length; i++) {
        const y = Math.floor(i / (width * channels));
        // noise, ramps, flat areas: each of the five filters wins some row
        data[i] = y % 5 === 0 ? (i * 2654435761) >>> 24 : y % 5 === 1 ? (i * 3) & 255 : y % 5 === 2 ? (y * 9) & 255 : (i % (channels * 3)) * 40 + y;
      }
      data.fill(0, 10 * width * channels, 13 * width * channels);
      data.copyWithin(20 * width * channels, 19 * width * channels, 20 * width * channels);
      const raw = { width, height, channels };
      const ref = await sharp(data, { raw })
        .toColourspace(channels < 3 ? 'b-w' : 'srgb')
        .png({ compressionLevel: 6, adaptiveFiltering: true })
        .toBuffer();
      const ours = encodePngSync({ ...raw, data, level: 6, filter: 'adaptive' });
      const expected = filterTypes(ref, width * channels, height);
      assert.deepEqual(filterTypes(ours, width * channels, height), expected);
      assert.ok(new Set(expected).size >= 3, `filters used: ${[...new Set(expected)].join(',')}`);
    });
  }

  it("auto: libpng's settings for mostly empty images (one zero run), Up at the given level otherwise", () => {
    const width = 512;
    const height = 256;
    const data = new Uint16Array(width * height * 2);
    for (let y = 100; y < 110; y++) for (let x = 0; x < width; x++) data.set([(x * y) & 0xffff, 65535], (y * width + x) * 2);
    assert.equal(freeRowFraction(data, width * 2, height), 246 / 256);
    const sparse = autoSettings({ width, height, channels: 2, data, level: 1, filter: 'auto' });
    assert.deepEqual([sparse.filter, sparse.level], ['adaptive', 6]);
    const png = encodePngSync({ width, height, channels: 2, data, level: 1, filter: 'auto' });
    assert.deepEqual(filterTypes(png, width * 4, height).slice(0, 3), [0, 0, 0]); // empty rows: None
    assert.ok(png.length < encodePngSync({ width, height, channels: 2, data, level: 1, filter: 'up' }).length / 2);
    const dense = autoSettings({ width, height, channels: 2, data: samples(width, height, 2, true), level: 1, filter: 'auto' });
    assert.deepEqual([dense.filter, dense.level], ['up', 1]);
  });
});
