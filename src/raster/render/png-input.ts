/** What the PNG writer (png-encoder.ts) encodes. */
export interface PngInput {
  width: number;
  height: number;
  /** 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
  channels: 1 | 2 | 3 | 4;
  /** Interleaved samples: Uint8Array for 8-bit, Uint16Array (host order) for 16-bit. */
  data: Uint8Array | Uint16Array;
  /** zlib level 0..9. */
  level: number;
  /**
   * 'adaptive': libpng's per-row min-sum choice of None/Sub/Up/Average/Paeth; 'up': Up on every
   * row; 'none'; 'sampled': the min-sum choice on sampled pixels (png-sampled-filter.ts); 'auto':
   * see autoSettings (`level` and `strategy` then apply to dense images only).
   */
  filter: 'adaptive' | 'up' | 'none' | 'sampled' | 'auto';
  /** zlib strategy (node:zlib constants); Z_DEFAULT_STRATEGY when absent. */
  strategy?: number;
  /** An indexed image (colour type 3): the palette's RGB entries; `data` holds 8-bit indices, `channels` is 1. */
  plte?: Uint8Array;
  /** A tRNS chunk's body (palette alphas, or the transparent grey value as 2 big-endian bytes). */
  trns?: Uint8Array | null;
}
