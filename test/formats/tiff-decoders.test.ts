/** Unit tests of the hand-written TIFF pieces: LZW, PackBits, predictors, sample unpacking, tag parsing. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bitmapPalette, colorInterpretations, paletteFromColorMap } from '../../src/formats/tiff/band-meta.ts';
import { lzwDecode } from '../../src/formats/tiff/decoders/lzw.ts';
import { inflateBlock } from '../../src/formats/tiff/decoders/inflate.ts';
import { deflateSync } from 'node:zlib';
import { runWithSharedWork, SharedWork } from '../../src/util/shared-work.ts';
import { packbitsDecode } from '../../src/formats/tiff/decoders/packbits.ts';
import { horizontalToPlanes, swapBytes, undoFloatingPoint, undoHorizontal } from '../../src/formats/tiff/decoders/predictor.ts';
import { deinterleave, halfToFloat, unpackBits } from '../../src/formats/tiff/decoders/samples.ts';
import { parseGdalMetadata, parseGdalNodata } from '../../src/formats/tiff/gdal-metadata.ts';
import { geoTransformFromGcps } from '../../src/formats/tiff/gcp-fit.ts';
import { geoTransformFromTags } from '../../src/formats/tiff/geotransform.ts';

/** A straightforward TIFF LZW encoder (MSB-first codes, early change, Clear before the table fills). */
function lzwEncode(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let nbits = 0;
  let width = 9;
  const emit = (code: number): void => {
    acc = (acc << width) | code;
    nbits += width;
    while (nbits >= 8) {
      out.push((acc >>> (nbits - 8)) & 0xff);
      nbits -= 8;
    }
    acc &= (1 << nbits) - 1;
  };
  let dict = new Map<string, number>();
  let next = 258;
  const reset = (): void => {
    dict = new Map();
    next = 258;
  };
  emit(256);
  let w = '';
  for (const byte of data) {
    const wc = w + String.fromCharCode(byte);
    if (w === '' || (wc.length > 1 ? dict.has(wc) : true)) {
      w = wc;
      continue;
    }
    emit(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
    dict.set(wc, next++);
    if (next >= 1 << width && width < 12) width++; // the decoder lags one entry: its "early change"
    if (next >= 4094) {
      emit(256);
      width = 9;
      reset();
    }
    w = String.fromCharCode(byte);
  }
  if (w !== '') emit(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
  emit(257);
  if (nbits > 0) out.push((acc << (8 - nbits)) & 0xff);
  return Uint8Array.from(out);
}

function pseudoRandom(n: number, seed: number, alphabet = 256): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out[i] = (s >> 16) % alphabet;
  }
  return out;
}

describe('LZW', () => {
  it('round-trips data through every code width, table resets and KwKwK codes', () => {
    const cases = [
      new Uint8Array(0),
      Uint8Array.from([7]),
      new Uint8Array(5000).fill(42), // long runs: KwKwK
      pseudoRandom(20000, 1, 4), // low entropy: long strings, 12-bit codes
      pseudoRandom(60000, 2), // high entropy: many table resets
    ];
    for (const data of cases) {
      const decoded = lzwDecode(lzwEncode(data), data.length);
      assert.deepEqual(decoded, data, `length ${data.length}`);
    }
  });

  it('stops at the expected size and rejects data that ends early', () => {
    const data = pseudoRandom(3000, 3, 16);
    const enc = lzwEncode(data);
    assert.deepEqual(lzwDecode(enc, 1000), data.subarray(0, 1000));
    assert.throws(() => lzwDecode(enc.subarray(0, 100), 3000), { kind: 'InvalidFormat' });
    assert.throws(() => lzwDecode(Uint8Array.from([0x80, 0x7f, 0xff, 0xff]), 10), { kind: 'InvalidFormat' });
  });
});

describe('PackBits', () => {
  it('decodes the TIFF 6.0 specification example', () => {
    const input = Uint8Array.from([0xfe, 0xaa, 0x02, 0x80, 0x00, 0x2a, 0xfd, 0xaa, 0x03, 0x80, 0x00, 0x2a, 0x22, 0xf7, 0xaa]);
    const expected = Uint8Array.from([
      0xaa, 0xaa, 0xaa, 0x80, 0x00, 0x2a, 0xaa, 0xaa, 0xaa, 0xaa, 0x80, 0x00, 0x2a, 0x22, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa,
    ]);
    assert.deepEqual(packbitsDecode(input, expected.length), expected);
    assert.throws(() => packbitsDecode(input, expected.length + 1), { kind: 'InvalidFormat' });
  });
});

describe('predictors', () => {
  it('undoes horizontal differencing per sample, with wrap-around', () => {
    // 2 rows × 3 pixels × 2 samples (uint8)
    const buf = Uint8Array.from([10, 200, 5, 100, 250, 1, /* row 2 */ 1, 2, 3, 4, 5, 6]);
    undoHorizontal(buf, 3, 2, 2, 1);
    assert.deepEqual(Array.from(buf), [10, 200, 15, 44, 9, 45, 1, 2, 4, 6, 9, 12]);
    const u16 = new Uint16Array([65535, 2, 3]);
    undoHorizontal(new Uint8Array(u16.buffer), 3, 1, 1, 2);
    assert.deepEqual(Array.from(u16), [65535, 1, 4]);
  });

  it('undoes horizontal differencing of 8, 16 and 32-bit samples, 1 to 3 per pixel, back to the original rows', () => {
    let x = 7;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const width = 37;
    const rows = 5;
    for (const [bytes, Typed] of [
      [1, Uint8Array],
      [2, Uint16Array],
      [4, Uint32Array],
    ] as const) {
      for (const samples of [1, 2, 3]) {
        const rowLen = width * samples;
        const original = new Typed(rowLen * rows);
        for (let i = 0; i < original.length; i++) original[i] = next();
        // the encoder's side: each sample minus the same sample of the previous pixel, wrapped
        const diff = new Typed(original.length);
        for (let i = 0; i < original.length; i++) diff[i] = i % rowLen < samples ? original[i] : original[i] - original[i - samples];
        undoHorizontal(new Uint8Array(diff.buffer), width, rows, samples, bytes);
        assert.deepEqual(diff, original, `${bytes * 8}-bit, ${samples} sample(s)`);
      }
    }
  });

  it('undoes horizontal differencing of 64-bit samples (carries between 32-bit halves)', () => {
    // 3 rows × 5 pixels × 2 samples of float64 and of full-range 64-bit integers
    const [width, rows, samples] = [5, 3, 2];
    const n = width * rows * samples;
    const floats = new Float64Array(n);
    for (let i = 0; i < n; i++) floats[i] = (i % 3 === 0 ? -1 : 1) * (i * 1234.5678 + 1e-3) * 10 ** (i % 7);
    floats[3] = Number.NaN;
    floats[8] = -0;
    floats[11] = Infinity;
    const ints = new BigUint64Array(n);
    for (let i = 0; i < n; i++) ints[i] = BigInt.asUintN(64, 0xfedcba9876543210n * BigInt(i + 1) + 0xffffffffn * BigInt(i));
    for (const original of [new BigUint64Array(floats.buffer), ints]) {
      // encode by differencing (modulo 2^64) with stride `samples`, independently with BigInt
      const enc = original.slice();
      for (let r = 0; r < rows; r++) {
        for (let i = (r + 1) * width * samples - 1; i >= r * width * samples + samples; i--) {
          enc[i] = BigInt.asUintN(64, original[i] - original[i - samples]);
        }
      }
      assert.notDeepEqual(enc, original);
      const bytes = new Uint8Array(enc.buffer);
      undoHorizontal(bytes, width, rows, samples, 8);
      assert.deepEqual(new BigUint64Array(bytes.buffer), original);
    }
  });

  it('fuses horizontal differencing with de-interleaving into signed planes', () => {
    const raw = new Uint16Array([1, 65535, 1, 65535, 1, 65535]); // 3 pixels × 2 samples
    const planes = [new Uint16Array(3), new Int16Array(3)];
    horizontalToPlanes(new Uint8Array(raw.buffer), 3, 1, 2, planes);
    assert.deepEqual(Array.from(planes[0]), [1, 2, 3]);
    assert.deepEqual(Array.from(planes[1]), [-1, -2, -3]);
  });

  it('undoes the floating-point predictor (byte planes, MSB first)', () => {
    const values = new Float32Array([1.5, -2.25, 3e10, Number.NaN, 0, -0.1]);
    const width = 3;
    const samples = 2;
    const bytes = new Uint8Array(values.buffer.slice(0));
    // encode as libtiff does: split into big-endian byte planes, then difference with stride `samples`
    const wc = width * samples;
    const enc = new Uint8Array(wc * 4);
    for (let k = 0; k < wc; k++) for (let b = 0; b < 4; b++) enc[b * wc + k] = bytes[k * 4 + (3 - b)];
    for (let i = enc.length - 1; i >= samples; i--) enc[i] = (enc[i] - enc[i - samples]) & 0xff;
    undoFloatingPoint(enc, width, 1, samples, 4);
    assert.deepEqual(enc, bytes);
  });

  it('undoes the floating-point predictor word-wise for one 32-bit sample per pixel (several rows)', () => {
    const width = 12;
    const rows = 3;
    const values = Float32Array.from({ length: width * rows }, (_, i) => (i % 7 === 3 ? Number.NaN : Math.sin(i) * 10 ** (i % 9)));
    const bytes = new Uint8Array(values.buffer.slice(0));
    const enc = new Uint8Array(bytes.length);
    for (let r = 0; r < rows; r++) {
      const row = enc.subarray(r * width * 4, (r + 1) * width * 4);
      for (let k = 0; k < width; k++) for (let b = 0; b < 4; b++) row[b * width + k] = bytes[(r * width + k) * 4 + (3 - b)];
      for (let i = row.length - 1; i >= 1; i--) row[i] = (row[i] - row[i - 1]) & 0xff;
    }
    undoFloatingPoint(enc, width, rows, 1, 4);
    assert.deepEqual(enc, bytes);
  });

  it('swaps byte order', () => {
    const b = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    swapBytes(b, 4);
    assert.deepEqual(Array.from(b), [4, 3, 2, 1, 8, 7, 6, 5]);
  });
});

describe('samples', () => {
  it('unpacks 1, 2, 4 and 12-bit samples with byte-aligned rows', () => {
    assert.deepEqual(Array.from(unpackBits(Uint8Array.from([0b10110000, 0b01000000]), 3, 2, 1, 'uint8')), [1, 0, 1, 0, 1, 0]);
    assert.deepEqual(Array.from(unpackBits(Uint8Array.from([0b11100100]), 4, 1, 2, 'uint8')), [3, 2, 1, 0]);
    assert.deepEqual(Array.from(unpackBits(Uint8Array.from([0xab, 0xc0, 0x12]), 3, 2, 4, 'uint8')), [10, 11, 12, 1, 2, 0]);
    assert.deepEqual(Array.from(unpackBits(Uint8Array.from([0xab, 0xcd, 0xef]), 2, 1, 12, 'uint16')), [0xabc, 0xdef]);
  });

  it('converts half floats like GDAL (subnormals, infinities, NaN payloads)', () => {
    const half = new Uint16Array([0x3c00, 0xc000, 0x7c00, 0xfc00, 0x0001, 0x8000, 0x3555, 0x7e01]);
    const f = halfToFloat(new Uint8Array(half.buffer), half.length);
    assert.deepEqual(Array.from(f.subarray(0, 6)), [1, -2, Infinity, -Infinity, 2 ** -24, -0]);
    assert.ok(Math.abs(f[6] - 0.333251953125) < 1e-12);
    assert.ok(Number.isNaN(f[7]));
    assert.equal(new Uint32Array(f.buffer)[7], 0x7fc02000);
  });

  it('de-interleaves any number of samples', () => {
    for (const samples of [1, 2, 3, 4, 5]) {
      const n = 7;
      const arr = Uint16Array.from({ length: n * samples }, (_, i) => i);
      const planes = deinterleave(arr, samples, n, 'uint16');
      assert.equal(planes.length, samples);
      planes.forEach((p, s) =>
        assert.deepEqual(
          Array.from(p),
          Array.from({ length: n }, (_, i) => i * samples + s),
        ),
      );
    }
  });
});

describe('GDAL tags', () => {
  it('parses GDAL_METADATA items, roles and double escaping', () => {
    const xml = `<GDALMetadata>
  <Item name="PRODUCT">fixture &amp;amp; &amp;lt;test&amp;gt;</Item>
  <Item name="IGNORED" domain="IMAGE_STRUCTURE">x</Item>
  <Item name="STATISTICS_MAXIMUM" sample="0">800</Item>
  <Item name="SCALE" sample="0" role="scale">0.0100000000000000002</Item>
  <Item name="OFFSET" sample="1" role="offset">-1.5</Item>
  <Item name="DESCRIPTION" sample="1" role="description">near infrared</Item>
  <Item name="UNITTYPE" sample="1" role='unittype'>m</Item>
  <Item name="COLORINTERP" sample="1" role="colorinterp">Blue</Item>
  <Item name="EMPTY"/>
</GDALMetadata>`;
    const m = parseGdalMetadata(xml);
    assert.deepEqual(m.dataset, { PRODUCT: 'fixture & <test>', EMPTY: '' });
    assert.deepEqual(m.bands.get(0), { items: { STATISTICS_MAXIMUM: '800' }, scale: 0.01 });
    assert.deepEqual(m.bands.get(1), { items: {}, offset: -1.5, description: 'near infrared', unit: 'm', colorInterp: 'blue' });
    assert.deepEqual(parseGdalMetadata(null), { dataset: {}, bands: new Map() });
  });

  it('parses GDAL_NODATA like CPLAtofM', () => {
    assert.ok(Number.isNaN(parseGdalNodata('nan')!));
    assert.ok(Number.isNaN(parseGdalNodata('-nan')!));
    assert.equal(parseGdalNodata('inf'), Infinity);
    assert.equal(parseGdalNodata('-inf'), -Infinity);
    assert.equal(parseGdalNodata('-9999'), -9999);
    assert.equal(parseGdalNodata(' 1e+20\0'), 1e20);
    assert.equal(parseGdalNodata('-3.4028234663852886e+38'), -3.4028234663852886e38);
    assert.equal(parseGdalNodata(null), null);
  });

  it('computes geotransforms from scale + tiepoint or a transformation matrix', () => {
    const base = { pixelScale: [10, 10, 0], tiepoints: [0, 0, 0, 500000, 5600000, 0], transformation: null };
    assert.deepEqual(geoTransformFromTags({ ...base, pixelIsPoint: false }), [500000, 10, 0, 5600000, 0, -10]);
    assert.deepEqual(geoTransformFromTags({ ...base, pixelIsPoint: true }), [499995, 10, 0, 5600005, 0, -10]);
    // tiepoint at pixel (2, 3)
    assert.deepEqual(
      geoTransformFromTags({ pixelScale: [2, 4, 0], tiepoints: [2, 3, 0, 100, 200, 0], transformation: null, pixelIsPoint: false }),
      [96, 2, 0, 212, 0, -4],
    );
    const m = [8, 3, 0, 300000, 2, -9, 0, 4000000, 0, 0, 0, 0, 0, 0, 0, 1];
    assert.deepEqual(geoTransformFromTags({ pixelScale: null, tiepoints: null, transformation: m, pixelIsPoint: false }), [300000, 8, 3, 4000000, 2, -9]);
    // two GCPs: the north-up fit rasterio's from_gcps gives (1, 0.4, 0, 2, 0, 0.4)
    assert.deepEqual(
      geoTransformFromTags({ pixelScale: null, tiepoints: [0, 0, 0, 1, 2, 0, 5, 5, 0, 3, 4, 0], transformation: null, pixelIsPoint: false }),
      [1, 0.4, 0, 2, 0, 0.4],
    );
    assert.equal(geoTransformFromTags({ pixelScale: null, tiepoints: null, transformation: null, pixelIsPoint: false }), null);
  });

  it('converts colour maps and derives colour interpretation like GDAL', () => {
    const map16 = [0, 65535, 257 * 7, 0, 0, 0, 0, 0, 65535]; // 3 entries
    assert.deepEqual(paletteFromColorMap(map16, 1), [
      [0, 0, 0, 255],
      [255, 0, 0, 0],
      [7, 0, 255, 255],
    ]);
    assert.deepEqual(paletteFromColorMap([0, 255, 0, 128, 0, 1], null), [
      [0, 0, 0, 255],
      [255, 128, 1, 255],
    ]);
    assert.deepEqual(bitmapPalette(0), [
      [255, 255, 255, 255],
      [0, 0, 0, 255],
    ]);
    const ci = (photometric: number, spp: number, extraSamples: number[] = [], compression = 1, hasPalette = false) =>
      colorInterpretations({ photometric, compression, samplesPerPixel: spp, bitsPerSample: 8, extraSamples, hasPalette });
    assert.deepEqual(ci(1, 3, [0, 2]), ['gray', 'undefined', 'alpha']);
    assert.deepEqual(ci(2, 4, [1]), ['red', 'green', 'blue', 'alpha']);
    assert.deepEqual(ci(2, 4), ['red', 'green', 'blue', 'undefined']);
    assert.deepEqual(ci(6, 3, [], 7), ['red', 'green', 'blue']);
    assert.deepEqual(ci(6, 3, [], 1), ['ycbcr_y', 'ycbcr_cb', 'ycbcr_cr']);
    assert.deepEqual(ci(5, 4), ['cyan', 'magenta', 'yellow', 'black']);
    assert.deepEqual(ci(3, 2, [2], 1, true), ['palette', 'alpha']);
    assert.deepEqual(ci(0, 1), ['undefined']);
  });
});

describe('deflate blocks', () => {
  for (const size of [300_000, 5 * 1024 * 1024]) {
    // small blocks inflate on a reused handle, large ones (> 4 MB) on the thread pool: same results
    it(`inflates a ${size}-byte block exactly, accepts trailing output, rejects short and corrupt streams`, async () => {
      const data = Uint8Array.from({ length: size + 100 }, (_, i) => (i * 31 + (i >> 11)) & 255);
      const z = deflateSync(data);
      const out = await inflateBlock(z, new Uint8Array(size));
      assert.deepEqual(out, data.subarray(0, size));
      const short = deflateSync(data.subarray(0, size - 10));
      await assert.rejects(inflateBlock(short, new Uint8Array(size)), { kind: 'InvalidFormat', message: /ends early/ });
      const bad = Uint8Array.from(z);
      bad[2] ^= 0xff;
      bad[3] ^= 0x55;
      await assert.rejects(inflateBlock(bad, new Uint8Array(size)), { kind: 'InvalidFormat' });
    });
  }

  it('inside a series scope that asks for it, the same results with the inflate on the thread pool', async () => {
    const size = 131_072;
    const data = Uint8Array.from({ length: size + 100 }, (_, i) => (i * 31 + (i >> 11)) & 255);
    const z = deflateSync(data);
    const work = new SharedWork();
    work.inflateOffThread = true;
    await runWithSharedWork(async () => {
      // several at once, as sets read concurrently do
      const outs = await Promise.all([0, 1, 2, 3, 4, 5].map(() => inflateBlock(z, new Uint8Array(size))));
      for (const out of outs) assert.deepEqual(out, data.subarray(0, size));
      const short = deflateSync(data.subarray(0, size - 10));
      await assert.rejects(inflateBlock(short, new Uint8Array(size)), { kind: 'InvalidFormat', message: /ends early/ });
      const bad = Uint8Array.from(z);
      bad[2] ^= 0xff;
      bad[3] ^= 0x55;
      await assert.rejects(inflateBlock(bad, new Uint8Array(size)), { kind: 'InvalidFormat', message: /Corrupt deflate/ });
      assert.deepEqual(await inflateBlock(z, new Uint8Array(size)), data.subarray(0, size));
    }, work);
  });
});

describe('GCP fit (rasterio transform.from_gcps oracle)', () => {
  it('least-squares affine of noisy GCPs', () => {
    // rasterio 1.3: from_gcps([GCP(0,0,0,0), GCP(0,100,100,0), GCP(100,0,0,-100), GCP(100,100,130,-140)]).to_gdal()
    const gt = geoTransformFromGcps([
      { pixel: 0, line: 0, x: 0, y: 0, z: 0 },
      { pixel: 100, line: 0, x: 100, y: 0, z: 0 },
      { pixel: 0, line: 100, x: 0, y: -100, z: 0 },
      { pixel: 100, line: 100, x: 130, y: -140, z: 0 },
    ]);
    const want = [-7.5, 1.15, 0.15, 10, -0.2, -1.2];
    for (let i = 0; i < 6; i++) assert.ok(Math.abs(gt![i] - want[i]) < 1e-12, `gt[${i}] ${gt![i]} vs ${want[i]}`);
  });
});
