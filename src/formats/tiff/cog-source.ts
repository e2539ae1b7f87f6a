/**
 * Adapts our `Source` to the byte-source shape @cogeotiff/core expects (URL, ArrayBuffer results),
 * with two guards: a cap on the length of any one read (a corrupt header must not make us
 * allocate gigabytes) and, while a file is being opened, a small memo of the ranges already read
 * so that our IFD pre-scan and cogeotiff's own header parsing share the same requests.
 */
import { pathToFileURL } from 'node:url';
import type { Source as CogSource } from '@cogeotiff/core';
import { Errors } from '../../errors.ts';
import type { Source } from '../../sources/source.ts';

interface Chunk {
  offset: number;
  bytes: Uint8Array;
  /** The read returned fewer bytes than asked: the object ends at offset + bytes.length. */
  reachedEnd: boolean;
}

export class CogSourceAdapter implements CogSource {
  readonly url: URL;
  readonly metadata: { size?: number };
  private chunks: Chunk[] | null = [];

  constructor(
    readonly source: Source,
    private readonly maxReadBytes: number,
  ) {
    this.url = toUrl(source.url);
    this.metadata = source.size !== undefined ? { size: source.size } : {};
  }

  /** Bytes at [offset, offset+length), fewer only at the end of the object. */
  async read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw Errors.invalidFormat(`TIFF structure points to an invalid byte range (offset ${offset}, length ${length})`);
    }
    if (length > this.maxReadBytes) {
      throw Errors.invalidFormat(`TIFF structure asks for a ${length}-byte read, over the ${this.maxReadBytes}-byte limit (corrupt or hostile header)`);
    }
    if (length === 0) return new Uint8Array(0);
    const hit = this.cached(offset, length);
    if (hit !== null) return hit;
    const bytes = await this.source.fetch(offset, length, signal);
    if (this.source.size === undefined && bytes.length < length) this.metadata.size = offset + bytes.length;
    else if (this.source.size !== undefined) this.metadata.size = this.source.size;
    if (this.chunks !== null) this.chunks.push({ offset, bytes, reachedEnd: bytes.length < length });
    return bytes;
  }

  /** Bytes of [offset, offset+length) from the open-phase memo, or null. */
  cached(offset: number, length: number): Uint8Array | null {
    if (this.chunks === null) return null;
    for (const c of this.chunks) {
      const end = c.offset + c.bytes.length;
      if (offset >= c.offset && (offset + length <= end || (c.reachedEnd && offset <= end))) {
        return c.bytes.subarray(offset - c.offset, Math.min(end, offset + length) - c.offset);
      }
    }
    return null;
  }

  async fetch(offset: number, length?: number, options?: { signal?: AbortSignal }): Promise<ArrayBuffer> {
    if (length === undefined) throw Errors.invalidFormat('TIFF reader asked for an unbounded read');
    const bytes = await this.read(offset, length, options?.signal);
    // cogeotiff indexes `.buffer` directly, so hand it a buffer that holds exactly these bytes.
    if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
      return bytes.buffer;
    }
    return bytes.slice().buffer;
  }

  /** Stop memoising reads (called once the headers are parsed). */
  endOpen(): void {
    this.chunks = null;
  }
}

function toUrl(location: string): URL {
  try {
    return new URL(location);
  } catch {
    return pathToFileURL(location);
  }
}
