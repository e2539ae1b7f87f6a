/**
 * A GeoTIFF/COG opened for reading, as GDAL's GTiff driver presents it: the full-resolution
 * image, its overviews (internal, else `<file>.ovr`), the per-dataset mask of each level
 * (internal, else `<file>.msk` / `<file>.msk.ovr`), band metadata, georeferencing tags, and
 * `readWindow`, which fetches and decodes only the blocks a window needs (in parallel, through
 * the shared block cache) and copies their rows into band arrays.
 */
import { Errors, isRastileError } from '../../errors.ts';
import type { GeoTransform } from '../../geo/affine.ts';
import type { DType, TypedArray } from '../../dtype.ts';
import { bytesPerSample, representableNodata } from '../../dtype.ts';
import type { Rgba } from '../../color.ts';
import type { Source } from '../../sources/source.ts';
import type { BlockCache, DecodedBlock } from './block-cache.ts';
import { blockKey } from './block-cache.ts';
import { readBlock } from './block-reader.ts';
import type { DatasetMeta, TiffBandMeta } from './dataset-meta.ts';
import { DATASET_TAGS, describeDataset } from './dataset-meta.ts';
import type { Gcp } from './gcp-fit.ts';
import type { IfdLayout } from './ifd-layout.ts';
import { blocksPerPlane, rowsInBlock, samplesPerBlock } from './ifd-layout.ts';
import type { LevelSource, Plane } from './levels.ts';
import { assembleLevels } from './levels.ts';
import type { TiffFile } from './tiff-file.ts';
import { isFormatError, openTiffFile } from './tiff-file.ts';
import { compressionName } from './tag-names.ts';
import { applyPam, readPamSidecar } from './pam.ts';
import type { WindowRect } from './window-copy.ts';
import { copyBlockIntoWindow } from './window-copy.ts';
import { raceAbort } from '../../sources/abort.ts';
import { sourceCacheKey } from '../../sources/version.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { chargeRequest, releaseRequest } from '../../util/request-budget.ts';

export type { TiffBandMeta } from './dataset-meta.ts';

export interface TiffLevel {
  /** Pixels of this level. */
  width: number;
  height: number;
  blockWidth: number;
  blockHeight: number;
  /** An internal or sidecar mask exists for this level. */
  hasMask: boolean;
}

export interface TiffOpenOptions {
  /** Created by the caller (createBlockCache) and shared by all datasets. */
  blockCache: BlockCache;
  /** `<file>.ovr`, when the caller found one (used only when the file has no internal overviews). */
  overviewSource?: Source;
  /** `<file>.msk`, when the caller found one (used only when the file has no internal mask). */
  maskSource?: Source;
  /** `<file>.msk.ovr` (overviews of the .msk, written by `gdaladdo -ro`), when the caller found one. */
  maskOverviewSource?: Source;
  /** `<file>.aux.xml` (GDAL PAM sidecar), when the caller found one: amends metadata and georeferencing. */
  pamSource?: Source;
  /** Largest decoded block, in bytes (default 64 MiB); bigger blocks are an InvalidFormat error. */
  maxBlockBytes?: number;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_BLOCK_BYTES = 64 * 1024 * 1024;

export class TiffDataset {
  readonly source: Source;
  readonly width: number;
  readonly height: number;
  /** Samples per pixel, alpha included. */
  readonly count: number;
  readonly dtype: DType;
  /** Null when not georeferenced. */
  readonly geoTransform: GeoTransform | null;
  /** Ground control points the geotransform was fitted to (null when it was not). */
  readonly gcps: readonly Gcp[] | null;
  /** Raw GeoKey id → value (not interpreted here). */
  readonly geoKeys: Map<number, number | string | number[]>;
  /** Parsed GDAL_NODATA, else the PAM sidecar's band-1 NoDataValue (NaN allowed). */
  readonly nodata: number | null;
  /** The SRS of the PAM sidecar (it overrides the GeoKeys, as in GDAL), or null. */
  readonly pamSrs: string | null;
  readonly bands: TiffBandMeta[];
  readonly datasetMetadata: Record<string, string>;
  /** 1-based index of the (first) band whose colour interpretation is alpha. */
  readonly alphaBand: number | null;
  /** Colour table of band 1 (2^bits entries, RGBA 0..255), or null. */
  readonly palette: Rgba[] | null;
  /** [0] = full resolution, then overviews in decreasing size. */
  readonly levels: TiffLevel[];
  /** Per-dataset mask (internal or .msk). */
  readonly hasDatasetMask: boolean;
  /** GDAL name: 'DEFLATE', 'LZW', 'JPEG', 'NONE', 'LERC_ZSTD', … */
  readonly compression: string;
  readonly isTiled: boolean;
  readonly isBigTiff: boolean;
  /** Problems that did not prevent opening (an unreadable sidecar, a skipped overview). */
  readonly warnings: string[];

  private readonly levelSources: LevelSource[];
  private readonly cache: BlockCache;
  private readonly maxBlockBytes: number;
  private readonly fill: number;

  private constructor(
    init: DatasetMeta & {
      source: Source;
      base: IfdLayout;
      bigTiff: boolean;
      levelSources: LevelSource[];
      cache: BlockCache;
      maxBlockBytes: number;
      warnings: string[];
      srs: string | null;
    },
  ) {
    const base = init.base;
    this.source = init.source;
    this.width = base.width;
    this.height = base.height;
    this.count = base.samplesPerPixel;
    this.dtype = base.dtype;
    this.geoTransform = init.geoTransform;
    this.gcps = init.gcps;
    this.geoKeys = init.geoKeys;
    this.nodata = init.nodata;
    this.pamSrs = init.srs;
    this.bands = init.bands;
    this.datasetMetadata = init.datasetMetadata;
    const alpha = init.bands.findIndex((b) => b.colorInterp === 'alpha');
    this.alphaBand = alpha >= 0 ? alpha + 1 : null;
    this.palette = init.palette;
    this.levelSources = init.levelSources;
    this.levels = init.levelSources.map(({ image, mask }) => ({
      width: image.layout.width,
      height: image.layout.height,
      blockWidth: image.layout.blockWidth,
      blockHeight: image.layout.blockHeight,
      hasMask: mask !== null,
    }));
    this.hasDatasetMask = this.levels[0].hasMask;
    this.compression = compressionName(base.compression, base.lercParameters);
    this.isTiled = base.tiled;
    this.isBigTiff = init.bigTiff;
    this.warnings = init.warnings;
    this.cache = init.cache;
    this.maxBlockBytes = init.maxBlockBytes;
    // never-written blocks hold nodata when the dtype can hold it (GDAL), else 0
    this.fill = representableNodata(init.nodata, base.dtype) ?? 0;
  }

  static async open(source: Source, options: TiffOpenOptions): Promise<TiffDataset> {
    const maxBlockBytes = options.maxBlockBytes ?? DEFAULT_MAX_BLOCK_BYTES;
    const signal = options.signal;
    const warnings: string[] = [];
    const openSidecar = async (s: Source | undefined, kind: string): Promise<TiffFile | null> => {
      if (s === undefined) return null;
      try {
        return await openTiffFile(s, maxBlockBytes, [], signal);
      } catch (err) {
        // A broken sidecar is ignored as GDAL does; an I/O error must not leave a degraded dataset.
        if (!isFormatError(err, signal)) throw err;
        warnings.push(`Ignored ${kind} '${s.url}': ${(err as Error).message}`);
        return null;
      }
    };
    const [main, ovr, msk, mskOvr, pam] = await Promise.all([
      openTiffFile(source, maxBlockBytes, DATASET_TAGS, signal),
      openSidecar(options.overviewSource, 'external overviews'),
      openSidecar(options.maskSource, 'external mask'),
      openSidecar(options.maskOverviewSource, 'external mask overviews'),
      readPamSidecar(options.pamSource, warnings, signal),
    ]);
    const first = main.layouts[0];
    if (first instanceof Error) {
      if (isRastileError(first)) throw first;
      throw Errors.invalidFormat(`TIFF file '${source.url}': ${first.message}`, first);
    }
    const base = first;
    const levelSources = assembleLevels({ main, base, ovr, msk, mskOvr }, warnings);
    const tiffMeta = describeDataset(main.tiff.images[0], base, main.firstImageTags);
    const meta = pam ? applyPam(tiffMeta, pam) : { ...tiffMeta, srs: null };
    return new TiffDataset({
      source,
      base,
      bigTiff: main.bigTiff,
      ...meta,
      levelSources,
      cache: options.blockCache,
      maxBlockBytes,
      warnings,
    });
  }

  /**
   * Read an integer pixel window of a level. The window must lie inside the level, `bands` are
   * 1-based sample indexes (duplicates allowed). Returns one array per requested band (length
   * width*height, dtype = this.dtype; duplicates are separate copies) and the per-dataset mask
   * of the window (255 valid / 0 masked) when the level has one, else null. The arrays sit on
   * BUFFER_POOL buffers: a caller done with them may give them back (BUFFER_POOL.release).
   *
   * Block fetches are shared with concurrent readers and are not cancelled by `signal`; an
   * aborted read stops waiting and rejects with the signal's reason.
   */
  async readWindow(
    level: number,
    col: number,
    row: number,
    width: number,
    height: number,
    bands: readonly number[],
    signal?: AbortSignal,
  ): Promise<{ bands: TypedArray[]; mask: Uint8Array | null }> {
    const src = this.levelSources[level];
    // Levels and windows come from our read planners, never from a client: a bad one is our bug.
    if (src === undefined) throw Errors.internal(`Overview level ${level} does not exist (levels: 0–${this.levels.length - 1})`);
    const lw = src.image.layout.width;
    const lh = src.image.layout.height;
    if (![col, row, width, height].every(Number.isInteger) || col < 0 || row < 0 || width < 1 || height < 1 || col + width > lw || row + height > lh) {
      throw Errors.internal(`Window (${col}, ${row}, ${width}×${height}) is not inside level ${level} (${lw}×${lh})`);
    }
    for (const b of bands) {
      if (!Number.isInteger(b) || b < 1 || b > this.count) {
        throw Errors.invalidBandIndex(`Band ${b} does not exist (the file has ${this.count} band${this.count === 1 ? '' : 's'})`, { context: { band: b } });
      }
    }
    signal?.throwIfAborted();
    const win: WindowRect = { col, row, width, height };
    const unique = [...new Set(bands)];
    chargeRequest(
      (bands.length * bytesPerSample(this.dtype) + (src.mask !== null ? 1 : 0)) * width * height,
      `Reading a ${width}×${height} window of ${bands.length} band(s) of '${this.source.url}'`,
    );
    const decoded = { bytes: 0 }; // blocks this read decodes: held until they are copied
    const arrays = new Map<number, TypedArray>();
    for (const b of unique) arrays.set(b, BUFFER_POOL.array(this.dtype, width * height));
    const tasks: Promise<void>[] = [];

    const layout = src.image.layout;
    forEachBlock(layout, win, (blockIndex, x0, y0) => {
      if (layout.planar === 1) {
        tasks.push(
          this.block(src.image, blockIndex, false, decoded).then((block) => {
            for (const b of unique) copyBlockIntoWindow(block.planes[b - 1], block.width, block.height, x0, y0, win, arrays.get(b)!);
          }),
        );
      } else {
        for (const b of unique) {
          const index = (b - 1) * blocksPerPlane(layout) + blockIndex;
          tasks.push(
            this.block(src.image, index, false, decoded).then((block) => {
              copyBlockIntoWindow(block.planes[0], block.width, block.height, x0, y0, win, arrays.get(b)!);
            }),
          );
        }
      }
    });

    let mask: Uint8Array | null = null;
    if (src.mask !== null) {
      const m = BUFFER_POOL.bytes(width * height);
      mask = m;
      const maskPlane = src.mask;
      forEachBlock(maskPlane.layout, win, (blockIndex, x0, y0) => {
        tasks.push(
          this.block(maskPlane, blockIndex, true, decoded).then((block) => {
            copyBlockIntoWindow(block.planes[0], block.width, block.height, x0, y0, win, m);
          }),
        );
      });
    }

    try {
      await raceAbort(Promise.all(tasks), signal, 'TIFF block');
    } finally {
      releaseRequest(decoded.bytes);
    }
    const seen = new Set<number>();
    const out = bands.map((b) => {
      const arr = arrays.get(b)!;
      if (!seen.has(b)) {
        seen.add(b);
        return arr;
      }
      return arr.slice();
    });
    return { bands: out, mask };
  }

  /** Decoded block through the shared cache. */
  private block(plane: Plane, index: number, mask: boolean, decoded: { bytes: number }): Promise<DecodedBlock> {
    const url = plane.file.source.url;
    const key = blockKey(sourceCacheKey(plane.file.source), plane.layout.index, index, mask ? 'm' : '');
    return this.cache.get(key, () => {
      // charged to the request that decodes it (a cache hit costs nothing)
      const l = plane.layout;
      const bytes = l.blockWidth * l.blockHeight * (mask ? 1 : samplesPerBlock(l) * bytesPerSample(l.dtype));
      chargeRequest(bytes, `Decoding a ${l.blockWidth}×${l.blockHeight} block of '${url}'`);
      decoded.bytes += bytes;
      return readBlock(plane.file.source, plane.layout, index, {
        maxBlockBytes: this.maxBlockBytes,
        fill: this.fill,
        mask,
        what: `TIFF file '${url}'`,
      });
    });
  }
}

/** Calls `fn(blockIndex within a plane, block x origin, block y origin)` for every block the window touches. */
function forEachBlock(layout: IfdLayout, win: WindowRect, fn: (index: number, x0: number, y0: number) => void): void {
  const bw = layout.blockWidth;
  const bh = layout.blockHeight;
  const bx0 = Math.floor(win.col / bw);
  const bx1 = Math.floor((win.col + win.width - 1) / bw);
  const by0 = Math.floor(win.row / bh);
  const by1 = Math.floor((win.row + win.height - 1) / bh);
  for (let by = by0; by <= by1; by++) {
    // strips: rowsInBlock clips the last one; tiles overhang and are clipped by the window
    if (rowsInBlock(layout, by) <= 0) continue;
    for (let bx = bx0; bx <= bx1; bx++) fn(by * layout.blocksAcross + bx, bx * bw, by * bh);
  }
}
