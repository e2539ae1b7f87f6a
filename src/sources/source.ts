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
  close?(): Promise<void>;
  /** Counters for tests and benchmarks (optional; the opener's sources always have them). */
  readonly stats?: SourceStats;
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
