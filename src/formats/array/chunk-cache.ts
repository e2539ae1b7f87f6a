/**
 * Decoded chunks of every array format (HDF5, NetCDF-3, Zarr), in the same byte-bounded,
 * in-flight de-duplicated cache as the TIFF blocks (formats/tiff/block-cache.ts): one memory
 * budget for all decoded pixels. Keys: the file's location and version, the variable's path, the
 * chunk's grid coordinates, so another version of a file never hits an old chunk and
 * `forgetFile` drops a replaced version's chunks at once.
 */
import type { TypedArray } from '../../dtype.ts';
import { Errors } from '../../errors.ts';
import { raceAbortShared } from './abort-fanout.ts';
import type { BlockCache, DecodedBlock } from '../tiff/block-cache.ts';
import type { ArrayDType, ArrayFile, ArrayVariable } from './array-model.ts';

const SEPARATOR = '\u0001';

/** Bytes of one element of an array dtype (strings/other cannot be read as numbers: 0). */
export function arrayItemBytes(dtype: ArrayDType): number {
  switch (dtype) {
    case 'uint8':
    case 'int8':
      return 1;
    case 'uint16':
    case 'int16':
      return 2;
    case 'uint32':
    case 'int32':
    case 'float32':
      return 4;
    case 'float64':
    case 'int64':
    case 'uint64':
      return 8;
    default:
      return 0;
  }
}

/** The cache-key prefix of one version of a file (what `forgetFile` drops). */
export const fileCacheKey = (file: Pick<ArrayFile, 'location' | 'version'>): string => `${file.location}\u0000${file.version}`;

export class ChunkCache {
  constructor(
    private readonly blocks: BlockCache,
    /** Largest decoded chunk accepted (bytes): bigger chunks are a clear 400, not an OOM. */
    readonly maxChunkBytes: number,
  ) {}

  /** Bytes a decoded chunk of `v` takes. */
  static chunkBytes(v: ArrayVariable): number {
    return v.chunkShape.reduce((a, b) => a * b, 1) * Math.max(1, arrayItemBytes(v.dtype));
  }

  /**
   * The decoded chunk at `coords` (null: not stored, the caller fills), shared with concurrent
   * readers of the same chunk; the decode runs without any one caller's signal, each caller
   * stops waiting when its own aborts.
   */
  async get(file: ArrayFile, v: ArrayVariable, coords: readonly number[], signal?: AbortSignal): Promise<TypedArray | null> {
    const bytes = ChunkCache.chunkBytes(v);
    if (bytes > this.maxChunkBytes) {
      throw Errors.maxSize(
        `Variable '${v.path}' is stored in chunks of ${v.chunkShape.join('×')} ${v.dtype} (${bytes} bytes decoded), over the ${this.maxChunkBytes}-byte chunk limit`,
      );
    }
    const key = `${fileCacheKey(file)}${SEPARATOR}${v.path}:${coords.join(',')}`;
    const block = this.blocks.get(key, async (): Promise<DecodedBlock> => {
      const data = await v.readChunk(coords);
      if (data === null) return { width: 0, height: 0, planes: [], byteLength: 0, owned: [] };
      return { width: data.length, height: 1, planes: [data], byteLength: data.byteLength, owned: [] };
    });
    const got = signal === undefined ? await block : await raceAbortShared(block, signal, `chunk ${coords.join(',')} of '${v.path}'`);
    return got.planes.length === 0 ? null : got.planes[0];
  }

  /** Drops every chunk of one file version (it was replaced by a newer one). */
  forgetFile(file: Pick<ArrayFile, 'location' | 'version'>): void {
    this.blocks.forgetSource(fileCacheKey(file));
  }
}
