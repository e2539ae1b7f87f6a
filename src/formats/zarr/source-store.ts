/**
 * A zarrita store (AsyncReadable) over our own byte sources: each key is its own location under
 * the store's base (resolveStoreKey), opened with the caller's source opener, so local roots,
 * network policy, auth, the byte cache and coalescing all apply. `get` reads a whole object,
 * `getRange` a byte range (shard indexes and inner chunks of sharded arrays). A key that does not
 * exist answers undefined (zarrita then uses the fill value); other failures are RastileErrors.
 *
 * Metadata already known (from consolidated metadata) is answered from memory: `known` holds the
 * documents, and when `metadataComplete` is set a metadata key missing from it is absent without
 * a request.
 */
import type { AbsolutePath, AsyncReadable, GetOptions, RangeQuery } from '@zarrita/storage';
import { Errors, isRastileError } from '../../errors.ts';
import type { FirstRead } from '../../sources/open-source.ts';
import type { Source } from '../../sources/source.ts';
import { concat } from '../../sources/upstream-response.ts';
import { resolveStoreKey } from './store-keys.ts';

/** The source opener (SourceOpener.open): `first` is the range read first, which a new remote source reads on opening. */
export type OpenSource = (location: string, signal?: AbortSignal, first?: FirstRead) => Promise<Source>;

/** GetOptions that also record whether a read met a missing key (a chunk that is not stored). */
export interface TrackedGetOptions extends GetOptions {
  missing?: boolean;
}

const META_KEY = /(^|\/)(\.zarray|\.zattrs|\.zgroup|\.zmetadata|zarr\.json)$/;
/** What the source opener reads of a remote object when opening it (DEFAULT_SOURCE_OPTIONS.headerBytes). */
const OPENED_BYTES = 64 * 1024;
/**
 * What opening a chunk object reads: the whole chunk in that one request (its version is learnt
 * from it) unless it is larger than this, titiler-cmr's 8 MiB read block. Smaller objects cost
 * nothing more (a range past the end is answered with what exists).
 */
const CHUNK_OPEN_BYTES = 8 * 1024 * 1024;
const REMOTE = /^(https?|s3):/i;
/** First read of an object of unknown size; the rest follows once the size is known. */
const FIRST_READ = 1 << 20;

export class SourceStore implements AsyncReadable {
  readonly known = new Map<string, Uint8Array>();
  metadataComplete = false;

  constructor(
    readonly base: string,
    private readonly openSource: OpenSource,
  ) {}

  /** The Source of `key`, or null when it does not exist (`first`: the range read next, see OpenSource). */
  async source(key: string, signal?: AbortSignal, first?: FirstRead): Promise<Source | null> {
    try {
      return await this.openSource(resolveStoreKey(this.base, key), signal, first);
    } catch (err) {
      if (isRastileError(err, 'SourceNotFound')) return null;
      throw err;
    }
  }

  async get(key: AbsolutePath, opts?: TrackedGetOptions): Promise<Uint8Array | undefined> {
    const known = this.known.get(key);
    if (known !== undefined) return known;
    if (this.metadataComplete && META_KEY.test(key)) return undefined;
    const chunk = !META_KEY.test(key);
    const src = await this.source(key, opts?.signal, chunk ? { offset: 0, length: CHUNK_OPEN_BYTES } : undefined);
    if (src === null) return this.absent(opts);
    return readWhole(src, opts?.signal, chunk ? CHUNK_OPEN_BYTES : OPENED_BYTES);
  }

  async getRange(key: AbsolutePath, range: RangeQuery, opts?: TrackedGetOptions): Promise<Uint8Array | undefined> {
    const src = await this.source(key, opts?.signal, 'offset' in range ? range : undefined);
    if (src === null) return this.absent(opts);
    if ('suffixLength' in range) {
      const size = src.size ?? (await src.fetch(0, 1, opts?.signal), src.size);
      if (size === undefined) return readWhole(src, opts?.signal).then((b) => b.subarray(Math.max(0, b.length - range.suffixLength)));
      const n = Math.min(size, range.suffixLength);
      return src.fetch(size - n, n, opts?.signal);
    }
    const { offset, length } = range;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || (src.size !== undefined && offset + length > src.size)) {
      throw Errors.invalidFormat(`Invalid Zarr store: bytes ${offset}+${length} of ${key.slice(1)} are outside the object (${src.size ?? '?'} bytes)`, {
        context: { url: this.base },
      });
    }
    return src.fetch(offset, length, opts?.signal);
  }

  private absent(opts: TrackedGetOptions | undefined): undefined {
    if (opts !== undefined) opts.missing = true;
    return undefined;
  }
}

/**
 * Every byte of a source: one read when its size is known, else reads until a short one.
 * `opened`: how many first bytes the opener read into the byte cache (asked for again, not refetched).
 */
export async function readWhole(src: Source, signal?: AbortSignal, opened = OPENED_BYTES): Promise<Uint8Array> {
  const size = src.size;
  if (size !== undefined && (size <= opened || !REMOTE.test(src.url))) return size === 0 ? new Uint8Array(0) : src.fetch(0, size, signal);
  const parts: Uint8Array[] = [];
  let offset = 0;
  if (size !== undefined) {
    // The opener read the first bytes of a remote object into the byte cache: ask only for the rest.
    parts.push(await src.fetch(0, opened, signal));
    offset = parts[0]!.length;
  }
  for (;;) {
    const want = src.size !== undefined ? src.size - offset : FIRST_READ;
    if (want <= 0) break;
    const part = await src.fetch(offset, want, signal);
    parts.push(part);
    offset += part.length;
    if (part.length < want) break;
  }
  return parts.length === 1 ? parts[0]! : concat(parts, offset);
}
