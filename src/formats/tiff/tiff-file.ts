/**
 * One TIFF file opened for reading: the IFD chain is checked (ifd-scan.ts), cogeotiff parses the
 * headers, and every image gets its block layout. Used for the main file and for the .ovr/.msk
 * sidecars.
 */
import { Tiff } from '@cogeotiff/core';
import { Errors, isRastileError } from '../../errors.ts';
import type { Source } from '../../sources/source.ts';
import { CogSourceAdapter } from './cog-source.ts';
import { READ_SIZE, scanIfdChain } from './ifd-scan.ts';
import type { IfdLayout } from './ifd-layout.ts';
import { readIfdLayout } from './ifd-layout.ts';
import { readTag } from './tiff-tags.ts';

export interface TiffFile {
  readonly source: Source;
  readonly tiff: Tiff;
  readonly bigTiff: boolean;
  readonly littleEndian: boolean;
  /** One entry per image; the error when that image cannot be read by us. */
  readonly layouts: Array<IfdLayout | Error>;
  /** Values of the `firstImageTags` asked for (null when absent), read while the header bytes are at hand. */
  readonly firstImageTags: Map<number, unknown>;
}

export async function openTiffFile(source: Source, maxBlockBytes: number, firstImageTags: number[], signal?: AbortSignal): Promise<TiffFile> {
  const what = `TIFF file '${source.url}'`;
  // Reads during open are headers and tag arrays; cap them like a block.
  const adapter = new CogSourceAdapter(source, Math.max(maxBlockBytes * 2, 16 * 1024 * 1024));
  try {
    const scan = await scanIfdChain({ cached: (o, l) => adapter.cached(o, l), read: (o, l) => adapter.read(o, l, signal) }, what);
    let tiff: Tiff;
    try {
      tiff = await Tiff.create(adapter, { defaultReadSize: READ_SIZE, signal });
    } catch (err) {
      if (isRastileError(err) || !isFormatError(err, signal)) throw err;
      throw Errors.invalidFormat(`${what} has an unreadable header: ${(err as Error).message}`, { cause: err });
    }
    const layouts = await Promise.all(
      tiff.images.map((image) =>
        // A broken image is skipped (with a warning) unless it is the first; I/O errors are not.
        readIfdLayout(image, source, scan.littleEndian, signal, maxBlockBytes).catch((err: unknown) => {
          if (!isFormatError(err, signal)) throw err;
          return err instanceof Error ? err : new Error(String(err));
        }),
      ),
    );
    const image0 = tiff.images[0];
    const values = await Promise.all(firstImageTags.map((id) => readTag(image0, id, signal)));
    const tags = new Map(firstImageTags.map((id, i) => [id, values[i]]));
    return { source, tiff, bigTiff: scan.bigTiff, littleEndian: scan.littleEndian, layouts, firstImageTags: tags };
  } finally {
    adapter.endOpen();
  }
}

/**
 * Whether `err` says the bytes are bad (InvalidFormat, UnsupportedFeature, or an exception of the
 * cogeotiff parser), as opposed to an I/O failure (upstream errors, timeouts, a missing or
 * forbidden source) or an abort. Only format errors may be swallowed into a warning: a dataset
 * degraded by a transient I/O error would stay cached that way.
 */
export function isFormatError(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false;
  if (isRastileError(err)) return err.kind === 'InvalidFormat' || err.kind === 'UnsupportedFeature';
  return !(err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}
