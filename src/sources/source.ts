/**
 * The one byte-source interface every reader goes through (cogeotiff/PMTiles style).
 * Caching, range coalescing, retries and deadlines are wrappers around it.
 */
export interface Source {
  /** Normalised location, used for cache keys and error messages (never contains credentials). */
  readonly url: string;
  /** Total size in bytes once known (after the first read of a remote source, or stat of a file). */
  size?: number;
  /**
   * The version of the bytes read (src/sources/version.ts): local `f:<dev>:<ino>:<size>:<mtime>`,
   * remote the ETag or Last-Modified of the first response. Fixed for the Source's lifetime: a
   * read that finds other bytes throws SourceChanged, and the opener hands out a new Source for
   * the new version. Undefined for sources that cannot change (in-memory) and, for a remote
   * source, until its first response.
   */
  readonly version?: string;
  /** True once a read met another version: every later read throws SourceChanged (even cached ones). */
  readonly changed?: boolean;
  /**
   * Read `length` bytes at `offset`. May return fewer bytes only when the read reaches the end of
   * the object; an offset at or beyond the end returns an empty array.
   * Throws RastileError (SourceNotFound, SourceForbidden, UpstreamError, UpstreamTimeout).
   * Sources made by `createSourceOpener` return arrays that own their buffer (byteOffset 0,
   * not shared with any cache), so callers may mutate them or pass `.buffer` on.
   */
  fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * Optional: like `fetch`, but the array may be a view of bytes a cache keeps (no copy of them is
   * made): the caller only reads it, and neither writes into it nor hands its buffer on (e.g. to
   * BUFFER_POOL.release). For decoders that read their input once, e.g. a compressed block.
   */
  fetchShared?(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * Optional: like `fetch`, but hands the bytes to `sink` in order as they arrive instead of
   * collecting them into one array (a large chunk decoded while it is received, with no copy of
   * its stored bytes). Such reads are not put in the byte cache (the caller caches what it
   * decodes). Resolves with the number of bytes delivered. Use `streamRead` (stream-read.ts),
   * which falls back to `fetch` for sources without it.
   */
  stream?(offset: number, length: number, sink: ByteSink, signal?: AbortSignal): Promise<number>;
  close?(): Promise<void>;
  /** Counters for tests and benchmarks (optional; the opener's sources always have them). */
  readonly stats?: SourceStats;
}

/** Receives the bytes of one streamed read (Source.stream), in order. */
export interface ByteSink {
  /** Called before the first piece of every attempt: a retried read starts over. */
  restart(): void;
  /** The next piece; valid only during the call (the sink copies what it keeps). May throw to end the read. */
  write(piece: Uint8Array): void;
}

/** Simple per-source counters. All wrappers of one opened source share one object. */
export interface SourceStats {
  /** `fetch` calls made on the opened source. */
  reads: number;
  /** Reads answered from the byte cache, or by joining an identical read already in flight (no new upstream work). */
  cacheHits: number;
  /** Upstream requests sent: HTTP requests (every redirect hop and retry) or file reads. */
  requests: number;
  /** Bytes received from upstream (response bodies, or bytes read from the file). */
  bytesFetched: number;
  /** Attempts repeated after a transient failure. */
  retries: number;
  /** Reads that were merged with at least one other read into a single upstream request. */
  coalescedReads: number;
}

export function createSourceStats(): SourceStats {
  return { reads: 0, cacheHits: 0, requests: 0, bytesFetched: 0, retries: 0, coalescedReads: 0 };
}
