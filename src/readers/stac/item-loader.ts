/**
 * Reads STAC Items through the byte sources (so local roots, private-host blocking, retries and
 * deadlines apply as for any dataset), with a size cap, and keeps parsed items in an LRU cache
 * shared by concurrent requests, keyed by location *and version* of the item's bytes
 * (src/sources/version.ts), as MosaicJSON documents are: every use opens the source (one `stat`
 * for a local file; a remote source is current until a response shows another ETag /
 * Last-Modified, re-validated after RASTILE_REVALIDATE_MS), so a rewritten item is read again,
 * never served stale. (TiTiler keeps items for 300 s whatever happens to them.) Each load records
 * the item's version in the request's read set, so the response cache's key holds it.
 */
import { Errors } from '../../errors.ts';
import { raceAbort } from '../../sources/abort.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import { SOURCE_READ_KIND, sourceCacheKey } from '../../sources/version.ts';
import { LruCache, SharedPromiseCache } from '../../util/lru-cache.ts';
import { markUnversionedRead, recordRead } from '../../util/read-set.ts';
import { parseStacItem, type StacItem } from './item.ts';

export interface StacItemLoaderOptions {
  /** Largest item document accepted, bytes. Default 4 MiB. */
  maxItemBytes?: number;
  /** Budget of the parsed-item cache, bytes (estimated from the document size). Default 16 MiB. */
  cacheBytes?: number;
}

interface Entry {
  item: StacItem;
  bytes: number;
}

export class StacItemLoader {
  private readonly cache: SharedPromiseCache<string, Entry>;
  private readonly maxItemBytes: number;

  constructor(
    private readonly sources: SourceOpener,
    options: StacItemLoaderOptions = {},
  ) {
    this.maxItemBytes = options.maxItemBytes ?? 4 * 1024 * 1024;
    this.cache = new SharedPromiseCache(new LruCache<string, Entry>(options.cacheBytes ?? 16 * 1024 * 1024, (e) => e.bytes));
  }

  /** The item at `location` (local path, file://, http(s)://, s3://). Throws RastileError. */
  async load(location: string, signal?: AbortSignal): Promise<StacItem> {
    const source = await this.sources.open(location, signal);
    if (source.version === undefined) markUnversionedRead(`the STAC item ${location} has no version`);
    else recordRead(SOURCE_READ_KIND, location, source.version);
    const entry = await raceAbort(
      // The location as written is part of the key: relative hrefs resolve against it.
      this.cache.getOrCreate(`${location}\u0000${sourceCacheKey(source)}`, async () => {
        const bytes = await source.fetch(0, this.maxItemBytes + 1);
        if (bytes.length > this.maxItemBytes) {
          throw Errors.maxSize(`STAC item ${location} is larger than the limit of ${this.maxItemBytes} bytes`);
        }
        const text = new TextDecoder('utf-8').decode(bytes);
        return { item: parseStacItem(text, location), bytes: 2 * text.length + 1024 };
      }),
      signal,
      location,
    );
    return entry.item;
  }
}
