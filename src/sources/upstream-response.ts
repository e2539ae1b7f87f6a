/**
 * The one view of an upstream answer the remote sources read: status, headers and the body as
 * pieces handed to a callback. The node:http transport (node-http-get.ts) delivers its socket's
 * Buffers straight through; `fromFetch` wraps a WHATWG Response (the S3 transport).
 */

/** Header lookup by case-insensitive name; repeated headers joined with ", " (as fetch's Headers). */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderReader;
  /**
   * Hands the body's pieces to `onPiece` in order, as they arrive (the transport does not reuse
   * them: they may be kept). Resolves at the end of the body, or as soon as `onPiece` returns false (the rest is
   * dropped). Rejects with `onPiece`'s exception, or with the network error as the transport saw it
   * (the caller maps it). Call at most once.
   */
  read(onPiece: (piece: Uint8Array) => boolean | void): Promise<void>;
  /** Drops the body (the connection is closed or reused). Never throws. */
  cancel(): Promise<void>;
}

/** Wraps a fetch Response. */
export function fromFetch(response: Response): UpstreamResponse {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    async read(onPiece) {
      if (response.body === null) return;
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (onPiece(value) === false) {
            await reader.cancel().catch(() => {});
            return;
          }
        }
      } catch (err) {
        await reader.cancel().catch(() => {});
        throw err;
      }
    },
    async cancel() {
      try {
        await response.body?.cancel();
      } catch {
        // the body stream is already broken
      }
    },
  };
}

/** A response whose body was already read (`bytes`). */
export function bufferedResponse(status: number, statusText: string, headers: HeaderReader, bytes: Uint8Array): UpstreamResponse {
  return {
    status,
    statusText,
    headers,
    read(onPiece) {
      if (bytes.length > 0) onPiece(bytes);
      return Promise.resolve();
    },
    cancel: () => Promise.resolve(),
  };
}

/** Reads at most `cap` bytes of a body (then drops the rest) into one array. */
export async function readUpTo(response: UpstreamResponse, cap: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  await response.read((piece) => {
    chunks.push(piece);
    total += piece.length;
    return total < cap;
  });
  return concat(chunks, total);
}

export function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
