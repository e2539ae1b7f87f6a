/**
 * The PNG writer's lossless reductions under 'auto' (png-reduce.ts): indexed (PLTE + tRNS) for
 * 8-bit RGB(A) of ≤ 256 colours, grey with a tRNS key for grey+alpha with a binary alpha. Each
 * output is decoded by GDAL (rasterio: the colour table, or the band and its nodata mask), by
 * libpng through sharp and by the tests' own decoder, and must give back the input samples.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { encodePng, encodePngCooperative, encodePngSync, type PngInput } from '../../../src/raster/render/png-encoder.ts';
import { decodePng } from './png-decode.ts';

const PY = '/usr/bin/python3';
const probe = spawnSync(PY, ['-c', 'import rasterio, numpy'], { encoding: 'utf8' });
const noGdal = probe.status !== 0 ? 'needs /usr/bin/python3 with rasterio and numpy' : false;
const dir = mkdtempSync(join(tmpdir(), 'rastile-png-reduce-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * GDAL's reading of a PNG, as interleaved samples of `channels` (little-endian for 16-bit): an
 * indexed PNG through its colour table (alpha from tRNS), a grey one with a tRNS key as the band
 * plus GDAL's mask (from the nodata value) as alpha; otherwise the bands as they are.
 */
const READER = `
import sys, warnings
warnings.simplefilter("ignore")
import numpy as np, rasterio
path, channels = sys.argv[1], int(sys.argv[2])
with rasterio.open(path) as s:
    a = s.read()
    if s.count == 1 and s.colorinterp[0].name == "palette":
        lut = np.zeros((256, 4), np.uint8)
        for i, rgba in s.colormap(1).items():
            lut[i] = rgba
        out = lut[a[0]][:, :, :channels]
    elif s.count == 1 and channels == 2:
        assert s.nodata is not None
        full = np.iinfo(a.dtype).max
        mask = (s.dataset_mask() > 0).astype(a.dtype) * full
        out = np.stack([a[0], mask], axis=-1)
    else:
        out = np.moveaxis(a, 0, -1)
sys.stdout.buffer.write(np.ascontiguousarray(out).astype(out.dtype.newbyteorder("<")).tobytes())
`;

function gdalSamples(png: Buffer, channels: number, sixteen: boolean): Uint8Array | Uint16Array {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.png`);
  writeFileSync(path, png);
  const r = spawnSync(PY, ['-c', READER, path, String(channels)], { maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr?.toString());
  const b = r.stdout;
  return sixteen ? new Uint16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)) : new Uint8Array(b);
}

/** The IHDR colour type and whether PLTE/tRNS chunks are there. */
function layout(png: Buffer): { colorType: number; depth: number; plte: boolean; trns: boolean } {
  return { colorType: png[25], depth: png[24], plte: png.includes('PLTE'), trns: png.includes('tRNS') };
}

/** An image of `colours` distinct RGBA (or RGB) values in patches, a transparent border. */
function fewColours(width: number, height: number, channels: 3 | 4, colours: number): Uint8Array {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * channels;
      const border = channels === 4 && (x < 3 || y < 2);
      const c = (Math.floor(x / 3) * 7 + Math.floor(y / 2) * 13) % colours;
      data[o] = border ? 0 : (c * 37) & 0xff;
      data[o + 1] = border ? 0 : (c * 11 + 5) & 0xff;
      data[o + 2] = border ? 0 : c;
      if (channels === 4) data[o + 3] = border ? 0 : c % 5 === 0 ? 128 : 255;
    }
  }
  return data;
}

/** Grey+alpha: a ramp with transparent pixels of grey 0 where (x + y) % 11 === 0. */
function greyAlpha(width: number, height: number, sixteen: boolean, opaque = false): Uint8Array | Uint16Array {
  const full = sixteen ? 65535 : 255;
  const data = sixteen ? new Uint16Array(width * height * 2) : new Uint8Array(width * height * 2);
  for (let p = 0; p < width * height; p++) {
    const x = p % width;
    const y = Math.floor(p / width);
    const hole = !opaque && (x + y) % 11 === 0;
    data[2 * p] = hole ? 0 : 1 + ((x * 3 + y * 5) % (sixteen ? 60000 : 250));
    data[2 * p + 1] = hole ? 0 : full;
  }
  return data;
}

async function checkAll(input: PngInput, want: { colorType: number; depth: number; plte: boolean; trns: boolean }): Promise<void> {
  const png = encodePng(input);
  assert.ok(png.equals(encodePngSync(input)));
  assert.ok(png.equals(await encodePngCooperative(input)));
  assert.deepEqual(layout(png), want);
  const ours = decodePng(png);
  assert.equal(ours.channels, input.channels);
  assert.deepEqual(Array.from(ours.data), Array.from(input.data));
  if (!(input.data instanceof Uint16Array)) {
    // libvips (sharp) hands grey images out as RGB(A): compare with the input expanded the same way
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual(Array.from(data), Array.from(asChannels(input.data, input.channels, info.channels)));
  }
}

/** Samples of `from` channels as `to` channels (grey → RGB, grey+alpha → RGBA, as decoders expand). */
function asChannels(data: Uint8Array, from: number, to: number): Uint8Array {
  if (from === to) return data;
  assert.ok(from <= 2 && to >= 3, `${from} → ${to} channels`);
  const n = data.length / from;
  const out = new Uint8Array(n * to);
  for (let p = 0; p < n; p++) {
    out.fill(data[p * from], p * to, p * to + 3);
    if (to === 4) out[p * to + 3] = from === 2 ? data[p * from + 1] : 255;
  }
  return out;
}

describe("PNG reductions under 'auto'", () => {
  it('RGBA of ≤ 256 colours → indexed with tRNS; GDAL, libpng and our decoder read the same RGBA', { skip: noGdal }, async () => {
    const input: PngInput = { width: 67, height: 40, channels: 4, data: fewColours(67, 40, 4, 200), level: 1, filter: 'auto' };
    await checkAll(input, { colorType: 3, depth: 8, plte: true, trns: true });
    assert.deepEqual(Array.from(gdalSamples(encodePng(input), 4, false)), Array.from(input.data));
  });

  it('RGB of ≤ 256 colours → indexed without tRNS', { skip: noGdal }, async () => {
    const input: PngInput = { width: 64, height: 33, channels: 3, data: fewColours(64, 33, 3, 256), level: 1, filter: 'auto' };
    await checkAll(input, { colorType: 3, depth: 8, plte: true, trns: false });
    assert.deepEqual(Array.from(gdalSamples(encodePng(input), 3, false)), Array.from(input.data));
  });

  it('257 colours stay RGBA', async () => {
    const data = fewColours(64, 64, 4, 200);
    for (let i = 0; i < 60; i++) data.set([i, 250, 250, 255], (40 * 64 + i) * 4); // 57+ new colours
    await checkAll({ width: 64, height: 64, channels: 4, data, level: 1, filter: 'auto' }, { colorType: 6, depth: 8, plte: false, trns: false });
  });

  for (const sixteen of [false, true]) {
    it(`${sixteen ? 16 : 8}-bit grey+alpha with a binary alpha → grey with a tRNS key; GDAL reads the band and its mask`, { skip: noGdal }, async () => {
      const input: PngInput = { width: 50, height: 30, channels: 2, data: greyAlpha(50, 30, sixteen), level: 1, filter: 'auto' };
      await checkAll(input, { colorType: 0, depth: sixteen ? 16 : 8, plte: false, trns: true });
      assert.deepEqual(Array.from(gdalSamples(encodePng(input), 2, sixteen)), Array.from(input.data));
    });

    it(`${sixteen ? 16 : 8}-bit grey+alpha, all opaque → keyed on a grey value it does not use (still two channels)`, async () => {
      const input: PngInput = { width: 40, height: 20, channels: 2, data: greyAlpha(40, 20, sixteen, true), level: 1, filter: 'auto' };
      await checkAll(input, { colorType: 0, depth: sixteen ? 16 : 8, plte: false, trns: true });
      assert.equal(decodePng(encodePng(input)).greyKey, true);
    });
  }

  it('grey+alpha stays as it is when a transparent grey is also an opaque one, or the alpha is not binary', async () => {
    const shared = greyAlpha(40, 20, false) as Uint8Array;
    shared[2 * 5] = 0; // an opaque pixel of grey 0, the transparent pixels' grey
    await checkAll({ width: 40, height: 20, channels: 2, data: shared, level: 1, filter: 'auto' }, { colorType: 4, depth: 8, plte: false, trns: false });
    const partial = greyAlpha(40, 20, false) as Uint8Array;
    partial[2 * 7 + 1] = 128;
    await checkAll({ width: 40, height: 20, channels: 2, data: partial, level: 1, filter: 'auto' }, { colorType: 4, depth: 8, plte: false, trns: false });
    const differentHoles = greyAlpha(40, 20, false) as Uint8Array;
    differentHoles[2 * 11] = 9; // a transparent pixel of another grey
    differentHoles[2 * 11 + 1] = 0;
    await checkAll(
      { width: 40, height: 20, channels: 2, data: differentHoles, level: 1, filter: 'auto' },
      { colorType: 4, depth: 8, plte: false, trns: false },
    );
  });

  it('only under auto: the other filters (pngraw is none) keep the layout', () => {
    const data = fewColours(32, 8, 4, 10);
    for (const filter of ['none', 'up', 'adaptive'] as const)
      assert.equal(layout(encodePng({ width: 32, height: 8, channels: 4, data, level: 1, filter })).colorType, 6);
  });

  it('large images (the cooperative encoder, sliced reduction) and mostly empty ones: the same PNG as one pass', async () => {
    const big = fewColours(1024, 1030, 4, 150);
    big.fill(0, 0, 1024 * 4 * 800); // mostly empty rows: libpng's settings on the indexed image
    await checkAll({ width: 1024, height: 1030, channels: 4, data: big, level: 1, filter: 'auto' }, { colorType: 3, depth: 8, plte: true, trns: true });
    const grey = greyAlpha(1100, 1000, true);
    await checkAll({ width: 1100, height: 1000, channels: 2, data: grey, level: 1, filter: 'auto' }, { colorType: 0, depth: 16, plte: false, trns: true });
  });
});
