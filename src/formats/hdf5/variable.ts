/**
 * An HDF5 dataset as the model's ArrayVariable: chunk reads through the chunk index (chunked
 * layouts) or virtual chunks of about 1 MiB (contiguous and compact), filters undone, bytes
 * turned into typed arrays. Chunk bytes are fetched straight from the Source (not the metadata
 * page cache) and charged to the request's memory budget first.
 */
import type { TypedArray } from '../../dtype.ts';
import { Errors, isRastileError } from '../../errors.ts';
import { raceAbortShared } from '../array/abort-fanout.ts';
import { streamRead } from '../../sources/stream-read.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';
import type { ArrayDType, ArrayVariable, AttrValue } from '../array/array-model.ts';
import { makeChunkIndex } from './chunk-index/make-index.ts';
import type { ChunkIndex } from './chunk-index/types.ts';
import type { DatasetInfo } from './dataset-info.ts';
import { arrayDTypeOf, describeType } from './datatype.ts';
import type { FileContext } from './file-context.ts';
import { streamableShuffle, StreamedChunk } from './chunk-stream.ts';
import { unfilter, unsupportedFilter } from './filters.ts';
import { filterName } from './messages/filter-pipeline.ts';
import { decodeNumbers, decodeScalar, deliveredDType } from './numbers.ts';

/** Size of the virtual chunks of contiguous and compact datasets (about; see virtualChunks). */
export const VIRTUAL_CHUNK_BYTES = 1024 * 1024;
/** No chunk is decoded beyond this, budget or not (HDF5 itself caps chunks at 4 GiB). */
const MAX_CHUNK_BYTES = 1024 * 1024 * 1024;

export class Hdf5Variable implements ArrayVariable {
  dims: string[];
  readonly shape: number[];
  readonly chunkShape: number[];
  readonly dtype: ArrayDType;
  readonly storedType?: string;
  readonly fillValue: number | null;
  readonly filters: string[];
  private readonly index: ChunkIndex | null;
  private readonly chunkBytes: number;

  constructor(
    private readonly ctx: FileContext,
    readonly name: string,
    readonly path: string,
    /** Object header address (dimension scales refer to it). */
    readonly address: number,
    public attrs: Record<string, AttrValue>,
    private readonly info: DatasetInfo,
  ) {
    const { space, type, layout } = info;
    this.shape = space.dims ?? [];
    this.dims = this.shape.map((_, i) => `phony_dim_${i}`);
    this.dtype = arrayDTypeOf(type);
    if (this.dtype === 'other' || (type.kind === 'float' && type.size === 2)) this.storedType = describeType(type);
    this.filters = info.filters.map(filterName);
    this.chunkShape = layout.kind === 'chunked' ? layout.chunk.slice() : virtualChunks(this.shape, type.size, ctx.virtualChunkBytes);
    this.chunkBytes = this.chunkShape.reduce((a, b) => a * b, type.size);
    const numeric = type.kind === 'int' || type.kind === 'float';
    this.fillValue =
      !numeric || info.fill.undefined ? null : info.fill.bytes !== null && info.fill.bytes.length >= type.size ? decodeScalar(type, info.fill.bytes) : 0;
    this.index =
      layout.kind === 'chunked'
        ? makeChunkIndex(layout, {
            ctx,
            address: layout.address,
            shape: this.shape,
            maxShape: space.maxDims,
            chunk: layout.chunk,
            chunkBytes: this.chunkBytes,
            filtered: info.filters.length > 0,
            params: layout.params,
            what: `dataset ${path}`,
          })
        : null;
  }

  async readChunk(coords: readonly number[], signal?: AbortSignal): Promise<TypedArray | null> {
    const target = deliveredDType(this.dtype);
    if (target === null)
      throw Errors.badRequest(`Variable ${this.path} has the ${describeType(this.info.type)} type, which cannot be read as numbers`, {
        context: { variable: this.path },
      });
    if (coords.length !== this.shape.length || coords.some((c, i) => !Number.isInteger(c) || c < 0 || c * this.chunkShape[i] >= Math.max(1, this.shape[i]))) {
      throw Errors.badRequest(`Chunk [${coords.join(', ')}] is outside the chunk grid of ${this.path}`, { context: { variable: this.path } });
    }
    if (this.chunkBytes > MAX_CHUNK_BYTES) {
      throw Errors.maxSize(`Variable ${this.path} has chunks of ${this.chunkBytes} bytes, more than this server decodes (${MAX_CHUNK_BYTES})`, {
        context: { variable: this.path },
      });
    }
    const bad = unsupportedFilter(this.info.filters);
    if (bad !== null) {
      throw Errors.unsupported(
        `Variable ${this.path} is compressed with the HDF5 filter '${filterName(bad)}' (id ${bad.id}), which this server cannot decode (supported: deflate, shuffle, fletcher32)`,
        {
          context: { variable: this.path, url: this.ctx.location },
        },
      );
    }
    try {
      const raw = await this.readRaw(coords, signal);
      if (raw === null) return null;
      const count = this.chunkBytes / this.info.type.size;
      return decodeNumbers(this.info.type, target, raw, count);
    } catch (err) {
      if (isRastileError(err) && err.context?.variable === undefined) throw Errors.wrap(err, '', { variable: this.path });
      if (err instanceof RangeError)
        throw Errors.invalidFormat(`HDF5 variable ${this.path}: corrupt chunk (${err.message})`, { cause: err, context: { variable: this.path } });
      throw err;
    }
  }

  /** The unfiltered bytes of a chunk (full chunk size), or null when not stored. */
  private async readRaw(coords: readonly number[], signal?: AbortSignal): Promise<Uint8Array | null> {
    const { layout } = this.info;
    const what = `HDF5 variable ${this.path} chunk [${coords.join(', ')}]`;
    if (layout.kind === 'compact') return this.virtualChunk(coords, layout.data, 0);
    if (layout.kind === 'contiguous') {
      if (layout.address < 0) return null;
      return this.virtualChunk(coords, null, layout.address, signal);
    }
    const stored = await this.index!.find(coords, signal);
    if (stored === null) return null;
    // stored bytes + the decoded chunk, + one intermediate buffer when several filters run
    const scratch = this.info.filters.length > 1 ? this.chunkBytes : 0;
    chargeRequest(stored.size + this.chunkBytes + scratch, `${what} (${stored.size} bytes stored, ${this.chunkBytes} decoded)`);
    try {
      const edge = layout.edgeUnfiltered && coords.some((c, i) => (c + 1) * this.chunkShape[i] > this.shape[i]);
      const shuffle = edge ? null : streamableShuffle(this.info.filters, stored.mask, this.info.type.size);
      if (shuffle !== null) return await this.streamChunk(stored.address, stored.size, shuffle, what, signal);
      const bytes = await this.fetch(stored.address, stored.size, what, signal);
      if (this.info.filters.length === 0 || edge) {
        if (bytes.length < this.chunkBytes) throw Errors.invalidFormat(`${what}: ${bytes.length} bytes stored, ${this.chunkBytes} expected`);
        return bytes;
      }
      return unfilter(bytes, this.info.filters, stored.mask, this.chunkBytes, this.info.type.size, what);
    } finally {
      releaseRequest(stored.size + scratch);
    }
  }

  private async fetch(address: number, size: number, what: string, signal?: AbortSignal): Promise<Uint8Array> {
    const abs = this.ctx.baseAddress + address;
    if (!(address >= 0) || !(size >= 0) || abs + size > this.ctx.fileSize) {
      throw Errors.invalidFormat(`${what}: ${size} bytes at ${address} lie outside the file (${this.ctx.fileSize} bytes; truncated or corrupt)`);
    }
    if (signal?.aborted) throw signal.reason;
    const bytes = await raceAbortShared(this.ctx.source.fetch(abs, size, signal), signal, this.ctx.location);
    if (bytes.length < size) throw Errors.invalidFormat(`${what}: the file ends inside the chunk (truncated)`);
    return bytes;
  }

  /** A deflated (and shuffled) chunk decoded while its bytes arrive (chunk-stream.ts). */
  private async streamChunk(address: number, size: number, shuffle: number, what: string, signal?: AbortSignal): Promise<Uint8Array> {
    const abs = this.ctx.baseAddress + address;
    if (!(address >= 0) || !(size >= 0) || abs + size > this.ctx.fileSize) {
      throw Errors.invalidFormat(`${what}: ${size} bytes at ${address} lie outside the file (${this.ctx.fileSize} bytes; truncated or corrupt)`);
    }
    if (signal?.aborted) throw signal.reason;
    const chunk = new StreamedChunk(this.chunkBytes, shuffle, what);
    // The inflater goes back only once the read has settled (not when an abort stops the wait).
    const read = streamRead(this.ctx.source, abs, size, chunk, signal).finally(() => chunk.close());
    // A fresh chunk array's pages are faulted in while the server answers, a slice per turn of
    // the event loop (the request is written meanwhile), not during the decode.
    void chunk.prefault();
    const n = await raceAbortShared(read, signal, this.ctx.location);
    if (n < size) throw Errors.invalidFormat(`${what}: the file ends inside the chunk (truncated)`);
    return chunk.finish();
  }

  /** A virtual chunk of contiguous or compact storage: one contiguous byte range, padded to full size. */
  private async virtualChunk(coords: readonly number[], compact: Uint8Array | null, address: number, signal?: AbortSignal): Promise<Uint8Array> {
    const size = this.info.type.size;
    const strides: number[] = [];
    let s = size;
    for (let i = this.shape.length - 1; i >= 0; i--) {
      strides[i] = s;
      s *= this.shape[i];
    }
    const total = s;
    let start = 0;
    coords.forEach((c, i) => (start += c * this.chunkShape[i] * strides[i]));
    const end = Math.min(total, start + this.chunkBytes);
    chargeRequest(this.chunkBytes, `HDF5 variable ${this.path} block`);
    const out = new Uint8Array(this.chunkBytes);
    if (compact !== null) out.set(compact.subarray(start, end));
    else out.set(await this.fetch(address + start, end - start, `HDF5 variable ${this.path}`, signal));
    return out;
  }
}

/** Rows of about `target` bytes (1 MiB): the last axes whole, then as much of the next axis as fits. */
export function virtualChunks(shape: readonly number[], elementSize: number, target = VIRTUAL_CHUNK_BYTES): number[] {
  const out = shape.map(() => 1);
  let bytes = Math.max(1, elementSize);
  for (let i = shape.length - 1; i >= 0; i--) {
    const n = Math.max(1, shape[i]);
    if (bytes * n <= target) {
      out[i] = n;
      bytes *= n;
    } else {
      out[i] = Math.max(1, Math.floor(target / bytes));
      break;
    }
  }
  return out;
}
