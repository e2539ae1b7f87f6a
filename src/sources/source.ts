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
   * Read `length` bytes at `offset`. May return fewer bytes only when the read reaches the end of
   * the object; an offset at or beyond the end returns an empty array.
   * Throws RastileError (SourceNotFound, SourceForbidden, UpstreamError, UpstreamTimeout).
   */
  fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  close?(): Promise<void>;
}
