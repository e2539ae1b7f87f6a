/**
 * Reads STAC Items through the byte sources (so local roots, private-host blocking, retries and
 * deadlines apply as for any dataset), with a size cap, and keeps parsed items in an LRU cache
 * (byte budget, time to live) shared by concurrent requests.
 */
import { Errors } from '../../errors.ts';
import { raceAbort } from '../../sources/abort.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import { LruCache, SharedPromiseCache } from '../../util/lru-cache.ts';
import { markUnversionedRead } from '../../util/read-set.ts';
import { parseStacItem, type StacItem } from './item.ts';

export interface StacItemLoaderOptions {
  /** Largest item document accepted, bytes. Default 4 MiB. */
  maxItemBytes?: number;
  /** Budget of the parsed-item cache, bytes (estimated from the document size). Default 16 MiB. */
  cacheBytes?: number;
  /** How long a parsed item is reused, ms. Default 300 000 (TiTiler's STAC cache TTL). */
  ttlMs?: number;
}

interface Entry {
  item: StacItem;
  bytes: number;
  loadedAt: number;
}

export class StacItemLoader {
  private readonly cache: SharedPromiseCache<string, Entry>;
  private readonly maxItemBytes: number;
  private readonly ttlMs: number;

  constructor(
    private readonly sources: SourceOpener,
    options: StacItemLoaderOptions = {},
  ) {
    this.maxItemBytes = options.maxItemBytes ?? 4 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 300_000;
    this.cache = new SharedPromiseCache(new LruCache<string, Entry>(options.cacheBytes ?? 16 * 1024 * 1024, (e) => e.bytes));
  }

  /** The item at `location` (local path, file://, http(s)://, s3://). Throws RastileError. */
  async load(location: string, signal?: AbortSignal): Promise<StacItem> {
    // Items are kept for a time, not by version: a response built on one is not cacheable.
    markUnversionedRead(`the STAC item ${location} is cached by time, not version`);
    const hit = this.cache.peek(location);
    if (hit !== undefined && Date.now() - hit.loadedAt > this.ttlMs) this.cache.delete(location);
    const entry = await raceAbort(
      this.cache.getOrCreate(location, () => this.read(location)),
      signal,
      location,
    );
    return entry.item;
  }

  private async read(location: string): Promise<Entry> {
    const source = await this.sources.open(location);
    const bytes = await source.fetch(0, this.maxItemBytes + 1);
    if (bytes.length > this.maxItemBytes) {
      throw Errors.maxSize(`STAC item ${location} is larger than the limit of ${this.maxItemBytes} bytes`);
    }
    const text = new TextDecoder('utf-8').decode(bytes);
    return { item: parseStacItem(text, location), bytes: 2 * text.length + 1024, loadedAt: Date.now() };
  }
}
