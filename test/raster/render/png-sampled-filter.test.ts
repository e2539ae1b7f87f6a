/**
 * The sampled min-sum filter choice (png-sampled-filter.ts) and the 'auto' settings of dense
 * 8-bit colour images that use it: the branch-free Paeth predictor against the PNG spec's on
 * every (a, b, c), every filter type chosen somewhere, and the PNGs decoded by GDAL (rasterio),
 * libpng (sharp) and the tests' decoder give back the input samples.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { autoSettings, encodePng, encodePngCooperative, encodePngSync, type PngInput } from '../../../src/raster/render/png-encoder.ts';
import { paethOf } from '../../../src/raster/render/png-sampled-filter.ts';
import { decodePng } from './png-decode.ts';

const PY = '/usr/bin/python3';
const noGdal = spawnSync(PY, ['-c', 'import rasterio, numpy'], { encoding: 'utf8' }).status !== 0 ? 'needs /usr/bin/python3 with rasterio and numpy' : false;
const dir = mkdtempSync(join(tmpdir(), 'rastile-png-sampled-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** GDAL's bands of a PNG, interleaved (band-interleaved by pixel), as raw bytes. */
function gdalBytes(png: Buffer): Uint8Array {
  const path = join(dir, 'a.png');
  writeFileSync(path, png);
  const code = `import sys, numpy as np, rasterio\nwith rasterio.open(sys.argv[1]) as s: open(sys.argv[2], 'wb').write(np.ascontiguousarray(np.moveaxis(s.read(), 0, -1)).tobytes())`;
  const r = spawnSync(PY, ['-c', code, path, path + '.raw'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return new Uint8Array(readFileSync(path + '.raw'));
}

/** A continuous-tone image (smooth fields plus noise, > 256 colours) with rows that favour each filter. */
function photo(width: number, height: number, channels: 3 | 4): Uint8Array {
  const data = new Uint8Array(width * height * channels);
  let s = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        const noise = (s >>> 29) - 3;
        const kind = y % 6;
        const v =
          c === 3
            ? 255 - (x & 7)
            : kind === 0
              ? x * 3 + c * 40 + noise
              : kind === 1
                ? y * 5 + c + noise
                : 128 + 60 * Math.sin((x + y * 0.7 + c * 9) / 11) + noise;
        data[(y * width + x) * channels + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  return data;
}

/** Equal samples, or a failure naming the first difference (deepEqual's diff of large arrays takes minutes). */
function assertSame(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) assert.fail(`${what}: sample ${i} is ${actual[i]}, want ${expected[i]}`);
}

function filterTypes(png: Buffer, rowBytes: number, height: number): number[] {
  const at = png.indexOf('IDAT');
  const scan = inflateSync(png.subarray(at + 4, at + 4 + png.readUInt32BE(at - 4)));
  return Array.from({ length: height }, (_, y) => scan[y * (rowBytes + 1)]);
}

describe('sampled min-sum PNG filter', () => {
  it('the branch-free Paeth predictor is the PNG spec’s on every (a, b, c)', () => {
    for (let a = 0; a < 256; a++) {
      for (let b = 0; b < 256; b++) {
        for (let c = 0; c < 256; c++) {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          const want = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          if (paethOf(a, b, c) !== want) assert.fail(`paeth(${a}, ${b}, ${c}) = ${paethOf(a, b, c)}, want ${want}`);
        }
      }
    }
  });

  for (const channels of [1, 2, 3, 4] as const) {
    for (const sixteen of [false, true]) {
      it(`decodes to the input, ${channels} channel(s), ${sixteen ? 16 : 8}-bit, every filter type used`, async () => {
        const width = 301;
        const height = 48;
        const src = photo(width, height, 4);
        const n = width * height * channels;
        const data = sixteen ? new Uint16Array(n) : new Uint8Array(n);
        for (let i = 0; i < width * height; i++) for (let c = 0; c < channels; c++) data[i * channels + c] = src[i * 4 + c] * (sixteen ? 257 : 1);
        data.fill(0, 10 * width * channels, 12 * width * channels);
        data.copyWithin(20 * width * channels, 19 * width * channels, 20 * width * channels);
        const input: PngInput = { width, height, channels, data, level: 1, filter: 'sampled' };
        const png = encodePngSync(input);
        assert.ok(png.equals(encodePng(input)));
        assertSame(decodePng(png).data, data, 'our decoder');
        if (!sixteen && channels >= 3) assertSame(new Uint8Array(await sharp(png).raw().toBuffer()), data, 'libpng (sharp)');
        const types = new Set(filterTypes(png, width * channels * (sixteen ? 2 : 1), height));
        if (channels >= 3) assert.ok(types.size >= 3 && types.has(4), `filters used: ${[...types].join(',')}`);
      });
    }
  }

  for (const channels of [3, 4] as const) {
    it(
      `auto: a dense ${channels === 3 ? 'RGB' : 'RGBA'} image of > 256 colours stays ${channels === 3 ? 'RGB' : 'RGBA'}, sampled filters, runs-only deflate; GDAL reads it back`,
      { skip: noGdal },
      async () => {
        const width = 260;
        const height = 64;
        const data = photo(width, height, channels);
        const input: PngInput = { width, height, channels, data, level: 1, filter: 'auto' };
        const settings = autoSettings(input);
        assert.deepEqual([settings.filter, settings.strategy], ['sampled', 3]); // Z_RLE
        const png = encodePng(input);
        assert.equal(png[25], channels === 3 ? 2 : 6); // colour type: not reduced
        assert.ok(png.equals(encodePngSync(input)));
        assert.ok(png.equals(await encodePngCooperative(input)));
        assertSame(gdalBytes(png), data, 'GDAL');
        assertSame(new Uint8Array(await sharp(png).raw().toBuffer()), data, 'libpng (sharp)');
        assert.ok(new Set(filterTypes(png, width * channels, height)).size >= 3);
      },
    );
  }
});
