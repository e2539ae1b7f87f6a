/**
 * The GIF file writer (gif-file.ts) and the LZW edge cases, decoded by Pillow and ImageMagick
 * (Debian's): frame count, delays, size and every pixel of every frame (RGBA; a transparent pixel
 * has no colour), including repeated frames written as transparent frames over the kept previous
 * one, single-colour frames (lzwRun), 1-pixel frames, palettes of 2 and 256 entries, and code
 * sizes growing from 3 bits (minimum code size 2) to 12 with table resets.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encodeAnimatedGif, type IndexedFrame } from '../../../src/raster/render/encode-gif.ts';
import { encodeFrame, writeAnimatedGif } from '../../../src/raster/render/gif-file.ts';
import { lzwImageData, lzwMaxBytes, lzwRun } from '../../../src/raster/render/gif-lzw.ts';
import { random, rgbaOf } from '../../helpers/gif-pixels.ts';

const greys = (n: number): number[][] => Array.from({ length: n }, (_, k) => [k, 255 - k, (k * 7) & 255]);

function frame(width: number, height: number, index: Uint8Array, paletteSize: number, transparentIndex = -1): IndexedFrame {
  return { width, height, index, palette: greys(paletteSize), transparentIndex };
}

interface Decoded {
  frames: number;
  size: [number, number];
  durations: number[];
  rgba: string[];
}

/** Pillow: every frame composited (as ImageSequence gives it) to RGBA, transparent pixels zeroed; hex per frame. */
function pillow(gif: Buffer): Decoded {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastile-giffile-'));
  try {
    writeFileSync(path.join(dir, 'a.gif'), gif);
    const script = `
import json, sys
from PIL import Image, ImageSequence
im = Image.open(sys.argv[1])
rgba, durations = [], []
for f in ImageSequence.Iterator(im):
    durations.append(f.info.get('duration'))
    px = bytearray(f.convert('RGBA').tobytes())
    for i in range(0, len(px), 4):
        if px[i + 3] == 0: px[i:i + 4] = b'\\0\\0\\0\\0'
    rgba.append(px.hex())
print(json.dumps({'frames': im.n_frames, 'size': list(im.size), 'durations': durations, 'rgba': rgba}))`;
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, path.join(dir, 'a.gif')], { encoding: 'utf8', maxBuffer: 256 << 20 })) as Decoded;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** ImageMagick: the coalesced frames as raw RGBA (transparent pixels zeroed), one hex string per frame. */
function magick(gif: Buffer, width: number, height: number): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastile-giffile-'));
  try {
    writeFileSync(path.join(dir, 'a.gif'), gif);
    const raw = execFileSync('convert', [path.join(dir, 'a.gif'), '-coalesce', 'rgba:-'], { maxBuffer: 256 << 20 });
    const per = 4 * width * height;
    const out: string[] = [];
    for (let o = 0; o < raw.length; o += per) {
      const px = Buffer.from(raw.subarray(o, o + per));
      for (let i = 0; i < px.length; i += 4) if (px[i + 3] === 0) px.fill(0, i, i + 4);
      out.push(px.toString('hex'));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const hex = (a: Uint8Array): string => Buffer.from(a).toString('hex');

describe('GIF files decoded by Pillow and ImageMagick', () => {
  it('repeats: a transparent frame over the kept previous one decodes to that frame, runs of 1–3, transparency, A B A', () => {
    const [w, h] = [41, 17];
    const n = w * h;
    const a = frame(w, h, random(n, 200, 1), 256, 3);
    a.index.forEach((_, i) => i % 7 === 0 && (a.index[i] = 3)); // a has transparent pixels
    const b = frame(w, h, random(n, 256, 2), 256); // opaque
    const c = frame(w, h, random(n, 5, 3), 5, 4); // its own palette (a local table), transparent entry 4
    // (b, opaque, only at the end: after an opaque frame disposed to the background Pillow shows palette
    // entry 0, opaque, under the next frame's transparent pixels, whatever the encoder)
    const order = [a, a, a, c, c, a, c, b, b];
    const gif = encodeAnimatedGif(order, 120);
    const p = pillow(gif);
    assert.equal(p.frames, order.length);
    assert.deepEqual(p.size, [w, h]);
    assert.deepEqual(p.durations, Array(order.length).fill(120));
    const im = magick(gif, w, h);
    assert.equal(im.length, order.length);
    const want = order.map((f) => hex(rgbaOf(f)));
    assert.deepEqual(
      want.map((x, i) => p.rgba[i] === x),
      want.map(() => true),
      'Pillow: each frame',
    );
    assert.deepEqual(
      want.map((x, i) => im[i] === x),
      want.map(() => true),
      'ImageMagick: each frame',
    );
    const once = encodeAnimatedGif([a, c, a, c, b], 120).length;
    assert.ok(gif.length < once + 4 * 1024, 'the 4 repeats cost less than 1 KB each');
  });

  it('single-colour frames, 1-pixel frames, palettes of 2 and 256 entries', () => {
    const cases: Array<[string, IndexedFrame]> = [
      ['1 pixel, palette of 2', frame(1, 1, Uint8Array.of(1), 2)],
      ['1 pixel, transparent', frame(1, 1, Uint8Array.of(0), 2, 0)],
      ['one colour, 300×200 (long strings, resets)', frame(300, 200, new Uint8Array(60_000).fill(1), 2)],
      ['one colour, palette of 256', frame(64, 64, new Uint8Array(4096).fill(255), 256)],
      ['two colours, noise', frame(97, 33, random(97 * 33, 2, 5), 2)],
      ['256 colours, noise (12-bit codes, resets)', frame(256, 160, random(256 * 160, 256, 6), 256)],
    ];
    for (const [name, f] of cases) {
      const gif = encodeAnimatedGif([f, f], 50);
      const p = pillow(gif);
      assert.equal(p.frames, 2, name);
      assert.deepEqual(p.size, [f.width, f.height], name);
      assert.equal(p.rgba[0], hex(rgbaOf(f)), name);
      assert.equal(p.rgba[1], hex(rgbaOf(f)), `${name}, repeated`);
      const im = magick(gif, f.width, f.height);
      assert.deepEqual(im, [hex(rgbaOf(f)), hex(rgbaOf(f))], `${name} (ImageMagick)`);
    }
  });

  it('minimum code size 2 (a 4-entry table): codes grow from 3 bits to 12, with resets', () => {
    const [w, h] = [300, 300];
    const index = random(w * h, 4, 7);
    const f = frame(w, h, index, 4);
    const out = new Uint8Array(lzwMaxBytes(w * h));
    const end = lzwImageData(index, 2, out, 0);
    // the file with this image data in place of the 8-bit one (same headers)
    const gif = writeAnimatedGif([{ ...encodeFrame(f), data: out.subarray(0, end) }], 100);
    const p = pillow(gif);
    assert.equal(p.rgba[0], hex(rgbaOf(f)));
    assert.deepEqual(magick(gif, w, h), [hex(rgbaOf(f))]);
  });
});

describe('lzwRun: the image data of a single-value run without pixels', () => {
  it("equals lzwImageData's bytes on the same run (around every code-width step and the reset)", () => {
    const sizes = [0, 1, 2, 3, 4, 10, 255, 256, 257, 1000, 4095, 65_536, 262_144, 8_386_559, 8_386_560, 8_386_561, 8_400_000];
    for (const minCodeSize of [2, 8]) {
      for (const n of sizes) {
        const value = minCodeSize === 2 ? 3 : 200;
        const out = new Uint8Array(lzwMaxBytes(n));
        const end = lzwImageData(new Uint8Array(n).fill(value), minCodeSize, out, 0);
        assert.deepEqual(Buffer.from(lzwRun(n, value, minCodeSize)), Buffer.from(out.subarray(0, end)), `n ${n}, min code size ${minCodeSize}`);
      }
    }
  });
});
