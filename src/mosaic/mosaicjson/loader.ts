/**
 * Reads MosaicJSON documents through the byte sources (local roots, private-host policy, s3
 * signing, retries and deadlines apply as to any dataset), with a size cap. Parsed documents
 * are kept per location *and version* of their bytes (src/sources/version.ts): every use opens
 * the source (one `stat` for a local file; a remote source is current until a response shows
 * another ETag/Last-Modified), so a rewritten document is read again, never served stale. Each
 * load records the document's version in the request's read set (kind SOURCE_READ_KIND), so the
 * response cache's key holds it.
 */
import { Errors, isRastileError } from '../../errors.ts';
import { raceAbort } from '../../sources/abort.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import { SOURCE_READ_KIND, sourceCacheKey } from '../../sources/version.ts';
import { LruCache, SharedPromiseCache } from '../../util/lru-cache.ts';
import { markUnversionedRead, recordRead } from '../../util/read-set.ts';
import { validateMosaicJson, type MosaicJson, type MosaicJsonIssue } from './document.ts';

export interface MosaicJsonLoaderOptions {
  /** Largest document accepted, bytes. Default 32 MiB. */
  maxBytes?: number;
  /** Budget of the parsed-document cache, bytes (estimated from document sizes). Default 64 MiB. */
  cacheBytes?: number;
}

interface Entry {
  doc: MosaicJson;
  bytes: number;
}

/** Shows the first problems of an invalid document in an error message. */
export function issuesMessage(issues: readonly MosaicJsonIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.loc.length ? i.loc.join('.') : '(document)'}: ${i.msg}`)
    .join('; ');
}

export class MosaicJsonLoader {
  private readonly cache: SharedPromiseCache<string, Entry>;
  private readonly maxBytes: number;

  constructor(
    private readonly sources: SourceOpener,
    options: MosaicJsonLoaderOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.cache = new SharedPromiseCache(new LruCache<string, Entry>(options.cacheBytes ?? 64 * 1024 * 1024, (e) => e.bytes));
  }

  /** The document at `location` (local path, file://, http(s)://, s3://). Throws RastileError. */
  async load(location: string, signal?: AbortSignal): Promise<MosaicJson> {
    const source = await this.sources.open(location, signal).catch((err: unknown) => {
      // TiTiler answers a missing document with cogeo-mosaic's MosaicError (424), not 404.
      if (isRastileError(err, 'SourceNotFound'))
        throw Errors.mosaicUnavailable(`MosaicJSON document not found: ${err.message}`, { cause: err, context: { url: location } });
      throw err;
    });
    // The response cache keys on the document's version (and on each COG's, recorded where it is opened).
    if (source.version === undefined) markUnversionedRead(`the MosaicJSON document ${location} has no version`);
    else recordRead(SOURCE_READ_KIND, location, source.version);
    const key = sourceCacheKey(source);
    const entry = await raceAbort(
      this.cache.getOrCreate(key, async () => {
        const bytes = await source.fetch(0, this.maxBytes + 1);
        if (bytes.length > this.maxBytes) throw Errors.maxSize(`MosaicJSON ${location} is larger than the limit of ${this.maxBytes} bytes`);
        const text = new TextDecoder('utf-8').decode(bytes);
        return { doc: parseMosaicJson(text, location), bytes: 3 * text.length + 1024 };
      }),
      signal,
      location,
    );
    return entry.doc;
  }
}

/** Parses and validates a document's text; a bad document is an InvalidFormat error (400) naming its problems. */
export function parseMosaicJson(text: string, location: string): MosaicJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw Errors.invalidFormat(`MosaicJSON ${location} is not valid JSON: ${(err as Error).message}`);
  }
  const r = validateMosaicJson(value);
  if ('issues' in r) throw Errors.invalidFormat(`MosaicJSON ${location} is not a valid MosaicJSON document: ${issuesMessage(r.issues)}`);
  if (r.doc.tilematrixset !== undefined && r.doc.tilematrixset.id !== 'WebMercatorQuad') {
    throw Errors.unsupported(
      `MosaicJSON ${location} indexes tiles of TileMatrixSet '${String(r.doc.tilematrixset.id)}': only WebMercatorQuad indexes are supported`,
    );
  }
  return r.doc;
}
