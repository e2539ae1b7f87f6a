import { AsyncLocalStorage } from 'node:async_hooks';
import type { TypedArray } from '../../dtype.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { SharedPromiseCache } from '../../util/lru-cache.ts';
import { cacheMetrics, counter, gauge, observeCacheSize } from '../../util/metrics.ts';
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
 * Byte-bounded cache (W-TinyLFU, see src/util/tiny-lfu-cache.ts) of decoded blocks keyed by
 * source url and version + image + block index (`blockKey`), fronted by a promise cache so that
 * concurrent reads of the same block share one fetch and decode. Created once by the caller and
 * shared by every dataset. The keys of each source version are tracked so that `forgetSource`
 * can drop a replaced version's blocks at once.
 */
export class BlockCache {
  private readonly cache: SharedPromiseCache<string, DecodedBlock>;
  private readonly lru: TinyLfuCache<string, DecodedBlock>;
  /** Source key → keys of its cached blocks. */
  private readonly bySource = new Map<string, Set<string>>();
  private decodeCount = 0;
  private readonly metrics = cacheMetrics('block');
  private readonly decodes = counter('rastile_block_decodes_total', 'Raster blocks decoded (block cache misses not shared with a concurrent read)');

  constructor(readonly maxBytes: number) {
    this.lru = new TinyLfuCache<string, DecodedBlock>(
      maxBytes,
      (b) => b.byteLength + 64,
      (key, b) => {
        this.untrack(key);
        BUFFER_POOL.releaseLater(b.owned);
      },
    );
    this.cache = new SharedPromiseCache(this.lru);
    observeCacheSize('block', () => ({ ...this.cache.stats, maxBytes }));
    // Beside the decoded blocks, the recycled buffers their reads use: a rising count under a
    // steady tile load means the pool's budget is too small for the buffers in use (bench/array.ts).
    gauge('rastile_buffer_pool_allocations', 'Buffers the buffer pool allocated since start (takes its kept buffers could not serve)', [], (g) =>
      g.set(BUFFER_POOL.allocations),
    );
  }

  /** The cached block for `key`, or the result of `decode()` (shared with concurrent callers). */
  get(key: string, decode: () => Promise<DecodedBlock>): Promise<DecodedBlock> {
    let decoded = false;
    const block = this.cache.getOrCreate(key, () => {
      decoded = true;
      decodedHere.getStore()?.push(key);
      this.decodeCount++;
      this.decodes.inc();
      return decode().then((block) => {
        const source = sourceOfKey(key);
        let keys = this.bySource.get(source);
        if (keys === undefined) this.bySource.set(source, (keys = new Set()));
        keys.add(key);
        return block;
      });
    });
    if (decoded) this.metrics.miss();
    else this.metrics.hit();
    return block;
  }

  /** Drops every cached block of one source version (`sourceCacheKey`): it was replaced by a newer one. */
  forgetSource(source: string): void {
    const keys = this.bySource.get(source);
    if (keys === undefined) return;
    this.bySource.delete(source);
    for (const key of keys) {
      const block = this.lru.get(key);
      this.cache.delete(key);
      if (block !== undefined) BUFFER_POOL.releaseLater(block.owned);
    }
  }

  /**
   * Drops the blocks of `keys` that are still cached (keys from `withDecodedKeys`), their buffers
   * back to the pool for the next reads: an early eviction, with the same contract as the LRU's.
   */
  drop(keys: readonly string[]): void {
    for (const key of keys) {
      const block = this.cache.peek(key);
      if (block === undefined) continue;
      this.cache.delete(key);
      this.untrack(key);
      BUFFER_POOL.releaseLater(block.owned);
    }
  }

  /**
   * Runs `read`, then drops the blocks it decoded itself (`withDecodedKeys`): for a read whose
   * blocks nothing reads again (a series' granule set no other set shares), so their buffers serve
   * the next reads instead of fresh pages.
   */
  async readDropping<T>(read: () => Promise<T>): Promise<T> {
    const { value, keys } = await withDecodedKeys(read);
    this.drop(keys);
    return value;
  }

  private untrack(key: string): void {
    const source = sourceOfKey(key);
    const keys = this.bySource.get(source);
    if (keys === undefined) return;
    keys.delete(key);
    if (keys.size === 0) this.bySource.delete(source);
  }

  get stats(): BlockCacheStats {
    return { ...this.cache.stats, decodes: this.decodeCount };
  }
}

export function createBlockCache(maxBytes: number): BlockCache {
  return new BlockCache(maxBytes);
}

/** The keys of the blocks decoded (misses started) inside the current `withDecodedKeys` call. */
const decodedHere = new AsyncLocalStorage<string[]>();

/**
 * Runs `read`; returns its result and the keys of the blocks it decoded (cache misses it started,
 * not blocks it found cached or shared with a concurrent read), for `BlockCache.drop`.
 */
export async function withDecodedKeys<T>(read: () => Promise<T>): Promise<{ value: T; keys: string[] }> {
  const keys: string[] = [];
  const value = await decodedHere.run(keys, read);
  return { value, keys };
}

const SEPARATOR = '\u0001';

/**
 * Cache key of one block: `source` is the file's `sourceCacheKey` (url and version, so a block of
 * another version of the file is never hit), `image` the IFD index inside it, `suffix` marks kinds.
 */
export const blockKey = (source: string, image: number, block: number, suffix = ''): string => `${source}${SEPARATOR}${image}:${block}${suffix}`;

const sourceOfKey = (key: string): string => key.slice(0, key.lastIndexOf(SEPARATOR));
