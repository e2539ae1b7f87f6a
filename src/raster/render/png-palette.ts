/**
 * Lossless palette reduction for PNG: an 8-bit RGB or RGBA image of at most 256 distinct colours
 * (colormapped tiles, classified or mostly empty images) written as an indexed PNG (colour type 3,
 * PLTE + tRNS) — a quarter of the RGBA bytes to filter and deflate. Decoders that expand palettes
 * (browsers, libpng/sharp, Pillow's convert, GDAL's colour table) give back the same samples; an
 * RGBA source always gets a tRNS chunk, so libpng-based decoders report four channels again.
 *
 * The colours are found with a small open-addressing table keyed by the pixel's 32-bit value
 * (runs of one colour skip the lookup); the scan stops at the 257th colour, which photographic
 * images reach within a few rows.
 */

const SLOTS = 1024; // a power of two, four times the largest palette: short probe chains
const EMPTY = -1;

export class PaletteBuilder {
  /** Colour (r | g<<8 | b<<16 | a<<24, read little-endian) of each table slot. */
  private readonly keys = new Int32Array(SLOTS);
  /** Palette index of each slot, EMPTY when free. */
  private readonly slots = new Int16Array(SLOTS).fill(EMPTY);
  /** RGBA entries in order of first appearance. */
  readonly palette = new Uint8Array(256 * 4);
  count = 0;
  private lastKey = 0;
  private lastIndex = EMPTY;

  constructor(readonly channels: 3 | 4) {}

  /**
   * Index pixels [from, to) of `data` into `out` (one byte per pixel, at the same pixel offsets).
   * Returns false as soon as a 257th colour appears (the builder is then unusable).
   */
  index(data: Uint8Array, from: number, to: number, out: Uint8Array): boolean {
    const { keys, slots, palette, channels } = this;
    const words = channels === 4 && (data.byteOffset & 3) === 0 ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2) : null;
    let lastKey = this.lastKey;
    let lastIndex = this.lastIndex;
    for (let p = from; p < to; p++) {
      let key: number;
      if (words) key = words[p] | 0;
      else if (channels === 4) {
        const o = p * 4;
        key = data[o] | (data[o + 1] << 8) | (data[o + 2] << 16) | (data[o + 3] << 24);
      } else {
        const o = p * 3;
        key = data[o] | (data[o + 1] << 8) | (data[o + 2] << 16) | (255 << 24);
      }
      if (key === lastKey && lastIndex !== EMPTY) {
        out[p] = lastIndex;
        continue;
      }
      let s = Math.imul(key, 0x9e3779b1) >>> 22; // 10 bits: SLOTS
      for (;;) {
        const i = slots[s];
        if (i === EMPTY) {
          if (this.count === 256) return false;
          const n = this.count++;
          slots[s] = n;
          keys[s] = key;
          palette[n * 4] = key & 0xff;
          palette[n * 4 + 1] = (key >>> 8) & 0xff;
          palette[n * 4 + 2] = (key >>> 16) & 0xff;
          palette[n * 4 + 3] = key >>> 24;
          lastIndex = n;
          break;
        }
        if (keys[s] === key) {
          lastIndex = i;
          break;
        }
        s = (s + 1) & (SLOTS - 1);
      }
      lastKey = key;
      out[p] = lastIndex;
    }
    this.lastKey = lastKey;
    this.lastIndex = lastIndex;
    return true;
  }

  /** The PLTE chunk's body: RGB of each entry. */
  plte(): Uint8Array {
    const out = new Uint8Array(this.count * 3);
    for (let i = 0; i < this.count; i++) {
      out[i * 3] = this.palette[i * 4];
      out[i * 3 + 1] = this.palette[i * 4 + 1];
      out[i * 3 + 2] = this.palette[i * 4 + 2];
    }
    return out;
  }

  /**
   * The tRNS chunk's body: alpha of the entries up to the last not fully opaque one (at least one
   * entry for an RGBA source, so the decoded image has an alpha channel again); null for RGB.
   */
  trns(): Uint8Array | null {
    if (this.channels === 3) return null;
    let last = 0;
    for (let i = 0; i < this.count; i++) if (this.palette[i * 4 + 3] !== 255) last = i;
    const out = new Uint8Array(last + 1);
    for (let i = 0; i <= last; i++) out[i] = this.palette[i * 4 + 3];
    return out;
  }
}

/**
 * Grey+alpha (8 or 16-bit) whose alpha is only 0 or full and whose transparent pixels all hold one
 * grey value that no opaque pixel holds: written as grey with that value as the tRNS key, half the
 * bytes. libpng (and so GDAL's mask, sharp, Pillow's convert, browsers) expands it back to the same
 * grey+alpha samples. A fully opaque image gets the key of a grey value it does not use, so it
 * still decodes with an alpha channel.
 */
export class GreyKeyBuilder {
  /** 1 for each grey value held by an opaque pixel. */
  private readonly used: Uint8Array;
  /** Grey value of the transparent pixels, -1 before the first. */
  private masked = -1;

  constructor(readonly depth: 8 | 16) {
    this.used = new Uint8Array(depth === 8 ? 256 : 65536);
  }

  /** Grey of pixels [from, to) into `out`; false when the image does not qualify. */
  add8(data: Uint8Array, from: number, to: number, out: Uint8Array): boolean {
    const used = this.used;
    let masked = this.masked;
    for (let p = from; p < to; p++) {
      const g = data[2 * p];
      const a = data[2 * p + 1];
      out[p] = g;
      if (a === 255) used[g] = 1;
      else if (a !== 0 || (masked !== g && masked !== -1)) return false;
      else masked = g;
    }
    this.masked = masked;
    return true;
  }

  /** add8 for 16-bit samples (a separate loop: one element type per call site keeps it fast). */
  add16(data: Uint16Array, from: number, to: number, out: Uint16Array): boolean {
    const used = this.used;
    let masked = this.masked;
    for (let p = from; p < to; p++) {
      const g = data[2 * p];
      const a = data[2 * p + 1];
      out[p] = g;
      if (a === 65535) used[g] = 1;
      else if (a !== 0 || (masked !== g && masked !== -1)) return false;
      else masked = g;
    }
    this.masked = masked;
    return true;
  }

  /** The tRNS grey value, or null when the transparent pixels' grey is also an opaque one. */
  key(): number | null {
    if (this.masked >= 0) return this.used[this.masked] ? null : this.masked;
    const free = this.used.indexOf(0);
    return free < 0 ? null : free;
  }
}
