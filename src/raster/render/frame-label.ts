/**
 * A date label in the top-left corner of a GIF frame (`label=true` on time-series GIFs): white
 * 5×7 pixel glyphs on a black box, drawn into the frame's palette indices (black and white are
 * added to the palette; when it is full, entries no pixel uses, else the nearest). Only the characters of ISO
 * datetimes are drawn (digits, `-`, `:`, `T`, `.`, `+`, space); others are left blank.
 */
import type { IndexedFrame } from './encode-gif.ts';

/** Rows of 5 bits, most significant bit = leftmost pixel. */
const GLYPHS: Record<string, number[]> = {
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  '-': [0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00],
  ':': [0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00],
  '.': [0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c],
  '+': [0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00],
  T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

function paletteEntry(palette: number[][], rgb: [number, number, number], skip: number, used: () => Uint8Array): number {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < palette.length; i++) {
    if (i === skip) continue;
    const c = palette[i]!;
    const d = (c[0]! - rgb[0]) ** 2 + (c[1]! - rgb[1]) ** 2 + (c[2]! - rgb[2]) ** 2;
    if (d < bestD) [best, bestD] = [i, d];
  }
  if (bestD === 0) return best;
  if (palette.length < 256) {
    palette.push([...rgb]);
    return palette.length - 1;
  }
  // a full palette (a whole colormap): take an entry no pixel of the frame uses, else the nearest
  const inUse = used();
  for (let i = 0; i < 256; i++) {
    if (inUse[i] !== 0 || i === skip) continue;
    inUse[i] = 1;
    palette[i] = [...rgb];
    return i;
  }
  return best;
}

/** Which palette entries the frame's pixels use. */
function entriesUsed(index: Uint8Array): Uint8Array {
  const used = new Uint8Array(256);
  for (let i = 0; i < index.length; i++) used[index[i]!] = 1;
  return used;
}

/** A copy of the frame with `text` drawn at the top-left (scale 2 on frames at least 256 px wide). */
export function labelFrame(frame: IndexedFrame, text: string): IndexedFrame {
  const scale = frame.width >= 256 ? 2 : 1;
  const palette = frame.palette.map((c) => [...c]);
  let used: Uint8Array | undefined;
  const inUse = () => (used ??= entriesUsed(frame.index));
  const black = paletteEntry(palette, [0, 0, 0], frame.transparentIndex, inUse);
  const white = paletteEntry(palette, [255, 255, 255], frame.transparentIndex, inUse);
  const index = frame.index.slice();
  const boxW = Math.min(frame.width, (text.length * 6 + 1) * scale);
  const boxH = Math.min(frame.height, 9 * scale);
  for (let y = 0; y < boxH; y++) index.fill(black, y * frame.width, y * frame.width + boxW);
  [...text].forEach((ch, k) => {
    const rows = GLYPHS[ch] ?? GLYPHS[' ']!;
    for (let gy = 0; gy < 7; gy++) {
      for (let gx = 0; gx < 5; gx++) {
        if (((rows[gy]! >> (4 - gx)) & 1) === 0) continue;
        for (let sy = 0; sy < scale; sy++) {
          for (let sx = 0; sx < scale; sx++) {
            const x = (1 + k * 6 + gx) * scale + sx;
            const y = (1 + gy) * scale + sy;
            if (x < frame.width && y < frame.height) index[y * frame.width + x] = white;
          }
        }
      }
    }
  });
  return { ...frame, index, palette };
}

/** The label of a step: its start, the date alone when it starts at midnight. */
export function stepLabel(step: string): string {
  const start = step.split('/')[0]!;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(start);
  if (!m) return start;
  return m[2] === '00:00:00' ? m[1]! : `${m[1]} ${m[2]}`;
}
