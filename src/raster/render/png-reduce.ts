/**
 * Lossless reductions of the PNG's layout under the 'auto' profile (png-palette.ts): an 8-bit RGB
 * or RGBA image of ≤ 256 colours becomes indexed, a grey+alpha image with a binary alpha becomes
 * grey with a tRNS key. Fewer bytes to filter and deflate, so the smaller image can be deflated
 * harder at less CPU than the full layout at zlib level 1 (bench/png-matrix.ts).
 */
import { constants } from 'node:zlib';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import type { PngInput } from './png-input.ts';
import { GreyKeyBuilder, PaletteBuilder } from './png-palette.ts';

type Settings = Pick<PngInput, 'filter' | 'level' | 'strategy'>;
/** zlib settings and filter of an indexed image, measured on the matrix's images (bench/png-matrix.ts). */
export const INDEXED_SETTINGS: Settings = { filter: 'none', level: 2, strategy: constants.Z_DEFAULT_STRATEGY };
/** zlib settings and filter of a grey image with a tRNS key. */
export const GREY_KEY_SETTINGS: Settings = { filter: 'up', level: 1, strategy: constants.Z_DEFAULT_STRATEGY };

export class Reducer {
  private ok = true;
  private constructor(
    private readonly input: PngInput,
    private readonly out: Uint8Array | Uint16Array,
    private readonly palette: PaletteBuilder | null,
    private readonly grey: GreyKeyBuilder | null,
  ) {}

  /** A reducer for `input`, or null when no reduction applies to its layout. */
  static for(input: PngInput): Reducer | null {
    if (input.filter !== 'auto' || input.plte || input.trns) return null;
    const n = input.width * input.height;
    const sixteen = input.data instanceof Uint16Array;
    if (!sixteen && (input.channels === 3 || input.channels === 4)) return new Reducer(input, BUFFER_POOL.bytes(n), new PaletteBuilder(input.channels), null);
    if (input.channels === 2) {
      const out = sixteen ? (BUFFER_POOL.array('uint16', n) as Uint16Array) : BUFFER_POOL.bytes(n);
      return new Reducer(input, out, null, new GreyKeyBuilder(sixteen ? 16 : 8));
    }
    return null;
  }

  /**
   * Reduce rows [y0, y1); false (and nothing more to do) once the image does not qualify. A row
   * of zeros or equal to the row above (most rows of a sparse image) is reduced from its first
   * pixel or copied, without the per-pixel lookup.
   */
  add(y0: number, y1: number): boolean {
    if (!this.ok) return false;
    const { width: w, channels, data } = this.input;
    const rowWords = (w * channels * data.BYTES_PER_ELEMENT) / 4;
    const words = Number.isInteger(rowWords) && data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, rowWords * this.input.height) : null;
    for (let y = y0; y < y1 && this.ok; y++) {
      let zero = words !== null;
      let same = words !== null && y > 0;
      if (words) {
        const r = y * rowWords;
        for (let k = 0; k < rowWords && (zero || same); k++) {
          const v = words[r + k];
          if (v !== 0) zero = false;
          if (same && v !== words[r - rowWords + k]) same = false;
        }
      }
      if (same) this.out.copyWithin(y * w, (y - 1) * w, y * w);
      else if (zero) {
        this.ok = this.pixels(y * w, y * w + 1);
        this.out.fill(this.out[y * w], y * w + 1, (y + 1) * w);
      } else this.ok = this.pixels(y * w, (y + 1) * w);
    }
    return this.ok;
  }

  private pixels(from: number, to: number): boolean {
    const data = this.input.data;
    if (this.palette) return this.palette.index(data as Uint8Array, from, to, this.out as Uint8Array);
    return data instanceof Uint16Array ? this.grey!.add16(data, from, to, this.out as Uint16Array) : this.grey!.add8(data, from, to, this.out as Uint8Array);
  }

  /** The reduced image (its samples in this reducer's scratch: call release() after encoding), or null. */
  result(): PngInput | null {
    if (!this.ok) return null;
    const { width, height } = this.input;
    if (this.palette) {
      return { width, height, channels: 1, data: this.out, level: 1, filter: 'auto', plte: this.palette.plte(), trns: this.palette.trns() };
    }
    const key = this.grey!.key();
    if (key === null) return null;
    const trns = new Uint8Array(2);
    trns[0] = key >>> 8;
    trns[1] = key & 0xff;
    return { width, height, channels: 1, data: this.out, level: 1, filter: 'auto', trns };
  }

  release(): void {
    BUFFER_POOL.release(this.out.buffer);
  }
}
