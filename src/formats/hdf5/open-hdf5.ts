/**
 * Opens an HDF5 / NetCDF-4 file through a byte Source and returns the ArrayFile model: the
 * group tree, every dataset as a variable with its attributes, dimensions and chunk reader.
 * Reads the first 64 KiB, then only the metadata pages the walk needs; chunk indexes are read
 * lazily, on the first chunk read.
 */
import { Errors } from '../../errors.ts';
import { raceAbort } from '../../sources/abort.ts';
import type { Source } from '../../sources/source.ts';
import type { ArrayFile } from '../array/array-model.ts';
import { resolveDimensions } from './dimensions.ts';
import { FileContext, HEAD_BYTES } from './file-context.ts';
import { walkGroup, type Walk } from './group.ts';
import { isHdf5Signature, parseSuperblock } from './superblock.ts';

export { isHdf5Signature };

export interface Hdf5Options {
  /** Size of the virtual chunks contiguous and compact datasets are read by (default 1 MiB). */
  virtualChunkBytes?: number;
  /** Bytes of the first read (default HEAD_BYTES, 256 KiB). */
  headBytes?: number;
}

export async function openHdf5(source: Source, signal?: AbortSignal, options: Hdf5Options = {}): Promise<ArrayFile> {
  const headBytes = Math.max(4096, options.headBytes ?? HEAD_BYTES);
  const head = await raceAbort(source.fetch(0, headBytes, signal), signal, source.url);
  if (!isHdf5Signature(head)) throw Errors.invalidFormat(`${source.url} is not an HDF5/NetCDF-4 file (no HDF5 signature)`, { context: { url: source.url } });
  const sb = parseSuperblock(head);
  let size = source.size ?? (head.length < headBytes ? head.length : NaN);
  // HDF5 writes the end-of-file address counting a user block too (as an absolute offset)
  if (!Number.isFinite(size)) size = sb.eofAddress >= 0 ? sb.eofAddress : Number.MAX_SAFE_INTEGER;
  if (sb.eofAddress >= 0 && sb.eofAddress > size) {
    throw Errors.invalidFormat(`HDF5 file is truncated: its superblock says it ends at byte ${sb.eofAddress}, but it has ${size} bytes`, {
      context: { url: source.url },
    });
  }
  const ctx = new FileContext(source, size);
  ctx.sizeOfOffsets = sb.sizeOfOffsets;
  ctx.sizeOfLengths = sb.sizeOfLengths;
  ctx.baseAddress = sb.baseAddress;
  if (options.virtualChunkBytes !== undefined) ctx.virtualChunkBytes = Math.max(1, options.virtualChunkBytes);
  ctx.seed(head);
  try {
    const walk: Walk = { ctx, visited: new Set([sb.rootAddress]), variables: [], signal };
    const root = await walkGroup(walk, sb.rootAddress, '', '/', sb.rootSymbolTable);
    const driver = await resolveDimensions(ctx, walk, root, signal);
    return { location: source.url, version: source.version ?? '', driver, root };
  } catch (err) {
    if (err instanceof RangeError)
      throw Errors.invalidFormat(`HDF5 file ${source.url} is corrupt (${err.message})`, { cause: err, context: { url: source.url } });
    throw err;
  }
}
