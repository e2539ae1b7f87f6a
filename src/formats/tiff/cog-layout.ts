/**
 * The byte layout of a GeoTIFF as a Cloud-Optimized GeoTIFF validator sees it (the rules of
 * GDAL's validate_cloud_optimized_geotiff.py and rio-cogeo's `cog_validate`): where each image
 * directory (IFD) and each image's first block lie, tiling, overviews, masks and GDAL's "ghost"
 * structural-metadata header. Reads headers only, never pixel blocks.
 */
import { Errors } from '../../errors.ts';
import type { Source } from '../../sources/source.ts';
import { scanIfdChain } from './ifd-scan.ts';
import { Subfile, type IfdLayout } from './ifd-layout.ts';
import { openTiffFile } from './tiff-file.ts';

export interface CogImage {
  /** Position in the IFD chain. */
  index: number;
  ifdOffset: number;
  width: number;
  height: number;
  tiled: boolean;
  blockWidth: number;
  blockHeight: number;
  /** Offset of block (0, 0), 0 when that block is not written (sparse). */
  firstBlockOffset: number;
  compression: number;
  photometric: number | null;
  planar: 1 | 2;
  reduced: boolean;
  mask: boolean;
}

export interface CogLayout {
  bigTiff: boolean;
  /** Image directories in chain order; images our reader cannot parse are left out. */
  images: CogImage[];
  /** Key/values of GDAL's structural metadata written after the file header, or null when absent. */
  ghostHeader: Record<string, string> | null;
  /** Where GDAL expects the first IFD: after the file header and the ghost header (2-byte aligned). */
  expectedMainIfdOffset: number;
}

/** Bytes GDAL reserves for its structural metadata: "GDAL_STRUCTURAL_METADATA_SIZE=XXXXXX bytes\n" + body. */
const GHOST_PREFIX = 'GDAL_STRUCTURAL_METADATA_SIZE=';

export async function readCogLayout(source: Source, maxBlockBytes: number, signal?: AbortSignal): Promise<CogLayout> {
  const read = (o: number, l: number): Promise<Uint8Array> => source.fetch(o, l, signal);
  const scan = await scanIfdChain({ cached: () => null, read }, `TIFF file '${source.url}'`);
  const file = await openTiffFile(source, maxBlockBytes, [], signal);
  const images: CogImage[] = [];
  for (let i = 0; i < file.layouts.length; i++) {
    const layout = file.layouts[i];
    if (layout instanceof Error) continue;
    images.push(await describe(layout, scan.offsets[i] ?? 0));
  }
  if (images.length === 0) throw Errors.invalidFormat(`TIFF file '${source.url}' has no readable image`);
  const headerSize = scan.bigTiff ? 16 : 8;
  const ghost = await readGhostHeader(source, headerSize, signal);
  const end = headerSize + (ghost?.bytes ?? 0);
  return { bigTiff: scan.bigTiff, images, ghostHeader: ghost?.values ?? null, expectedMainIfdOffset: end + (end % 2) };
}

async function describe(l: IfdLayout, ifdOffset: number): Promise<CogImage> {
  const first = await l.offsets.locate(0);
  return {
    index: l.index,
    ifdOffset,
    width: l.width,
    height: l.height,
    tiled: l.tiled,
    blockWidth: l.blockWidth,
    blockHeight: l.blockHeight,
    firstBlockOffset: first.offset,
    compression: l.compression,
    photometric: l.photometric,
    planar: l.planar,
    reduced: (l.subfileType & Subfile.Reduced) !== 0,
    mask: (l.subfileType & Subfile.Mask) !== 0,
  };
}

async function readGhostHeader(source: Source, at: number, signal?: AbortSignal): Promise<{ values: Record<string, string>; bytes: number } | null> {
  const head = await source.fetch(at, GHOST_PREFIX.length + 6, signal);
  const text = new TextDecoder('latin1').decode(head);
  if (!text.startsWith(GHOST_PREFIX)) return null;
  const size = Number(text.slice(GHOST_PREFIX.length));
  if (!Number.isInteger(size) || size < 0 || size > 4096) return null;
  // The size counts the bytes after the line "GDAL_STRUCTURAL_METADATA_SIZE=XXXXXX bytes\n".
  const lineLength = GHOST_PREFIX.length + 6 + ' bytes\n'.length;
  const body = new TextDecoder('latin1').decode(await source.fetch(at + lineLength, size, signal));
  const out: Record<string, string> = {};
  for (const line of body.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return { values: out, bytes: lineLength + size };
}
