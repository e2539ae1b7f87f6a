import type { TypedArray } from '../../dtype.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { SharedPromiseCache } from '../../util/lru-cache.ts';
import { TinyLfuCache } from '../../util/tiny-lfu-cache.ts';

/**
 * One decoded TIFF block (tile or strip), split into sample planes so that windows are
 * assembled by copying rows.
 */
export interface DecodedBlock {
  /** Row length of every plane: the tile width, or the image width for strips. */
  readonly width: number;
  /** Rows held: the tile height, or the rows of this strip (the last strip may be shorter). */
  readonly height: number;
  /**
   * One array of `width*height` samples per sample the block holds: every sample of a
   * pixel-interleaved block, the single sample of a band-separate block. Mask blocks hold
   * one Uint8Array of 0 (masked) / 255 (valid).
   */
  readonly planes: TypedArray[];
  readonly byteLength: number;
  /**
   * Buffers only this block's planes use (none when a plane views shared bytes): the cache
   * recycles them when it drops the block.
   */
  readonly owned: readonly ArrayBuffer[];
}

export interface BlockCacheStats {
  entries: number;
  bytes: number;
  inFlight: number;
  /** Number of decodes started since creation (cache misses that were not shared). */
  decodes: number;
}

/**
 * Byte-bounded cache (W-TinyLFU, see src/util/tiny-lfu-cache.ts) of decoded blocks keyed by source url + image + block index, fronted by a
 * promise cache so that concurrent reads of the same block share one fetch and decode.
 * Created once by the caller and shared by every dataset.
 */
export class BlockCache {
  private readonly cache: SharedPromiseCache<string, DecodedBlock>;
  private decodeCount = 0;

  constructor(readonly maxBytes: number) {
    this.cache = new SharedPromiseCache(
      new TinyLfuCache<string, DecodedBlock>(maxBytes, (b) => b.byteLength + 64, (_key, b) => BUFFER_POOL.releaseLater(b.owned)),
    );
  }

  /** The cached block for `key`, or the result of `decode()` (shared with concurrent callers). */
  get(key: string, decode: () => Promise<DecodedBlock>): Promise<DecodedBlock> {
    return this.cache.getOrCreate(key, () => {
      this.decodeCount++;
      return decode();
    });
  }

  get stats(): BlockCacheStats {
    return { ...this.cache.stats, decodes: this.decodeCount };
  }

}

export function createBlockCache(maxBytes: number): BlockCache {
  return new BlockCache(maxBytes);
}

/** Cache key of one block: `image` is the IFD index inside the file at `url`. */
export const blockKey = (url: string, image: number, block: number): string => `${url}\u0000${image}:${block}`;
