/**
 * Opens array datasets for the grid reader: sniffs what a location holds (HDF5/NetCDF-4,
 * NetCDF-3, Zarr), opens it with that format (the formats are plugged in, formats/hdf5,
 * formats/netcdf3, formats/zarr), keeps opened files per location and version, and builds the
 * GridDataset of a selection. Locations handed to the DatasetCache carry the selection
 * (`arrayDatasetKey`), so each selection is one cached dataset whose version is its file's
 * version plus the selection (never stale: the file's version is checked on every use).
 */
import { Errors, isRastileError } from '../../errors.ts';
import type { SourceOpener } from '../../sources/open-source.ts';
import type { Source } from '../../sources/source.ts';
import { LruCache } from '../../util/lru-cache.ts';
import type { DatasetVersions, GridDataset } from '../grid-dataset.ts';
import type { ArrayFile } from './array-model.ts';
import { resolveStoreKey, trimStoreSlash, zarrStoreRoot } from '../zarr/store-keys.ts';
import { ArrayGrid } from './array-grid.ts';
import type { ChunkCache } from './chunk-cache.ts';
import { openArrayGrid, selectionKey, type ArraySelection } from './open-array-grid.ts';

/** The format readers, each given what it reads from. */
export interface ArrayFormats {
  hdf5?: (source: Source, signal?: AbortSignal) => Promise<ArrayFile>;
  netcdf3?: (source: Source, signal?: AbortSignal) => Promise<ArrayFile>;
  /** `hints`: variable paths to look for when the store cannot be listed (see ArrayFile.probed). */
  zarr?: (location: string, signal?: AbortSignal, hints?: readonly string[]) => Promise<ArrayFile>;
}

export interface ArrayOpenContext {
  sources: SourceOpener;
  chunkCache: ChunkCache;
  formats: ArrayFormats;
  /** Opened files kept (metadata trees). */
  maxFiles?: number;
}

export type ArrayKind = 'hdf5' | 'netcdf3' | 'zarr';

const HDF5_MAGIC = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
const HDF5_OFFSETS = [0, 512, 1024, 2048, 4096, 8192];
const ZARR_DOCS = ['zarr.json', '.zmetadata', '.zgroup', '.zarray'];
/**
 * What opening a remote file reads (its version is learnt from this read): the HDF5 reader's
 * first read (hdf5/file-context.ts HEAD_BYTES), which also holds the sniffed signature and a
 * NetCDF-3 header's start, so the open costs one request, not a probe and then the head.
 */
const FIRST_READ = { offset: 0, length: 256 * 1024 } as const;

// A presigned store URL keeps its query string on the root and on every key (formats/zarr/store-keys.ts).
const looksLikeZarr = (location: string): boolean => zarrStoreRoot(location) !== null;
const zarrRoot = (location: string): string => zarrStoreRoot(location) ?? location;

/** What a file's first bytes say it is (null: neither HDF5 nor NetCDF-3). */
export function sniffArrayKind(head: Uint8Array): ArrayKind | null {
  if (head[0] === 0x43 && head[1] === 0x44 && head[2] === 0x46 && [1, 2, 5].includes(head[3] ?? -1)) return 'netcdf3';
  if (HDF5_OFFSETS.some((at) => HDF5_MAGIC.every((b, i) => head[at + i] === b))) return 'hdf5';
  return null;
}

/** The DatasetCache location of a selection of a file (split again by `parseArrayDatasetKey`). */
export const arrayDatasetKey = (location: string, selection: ArraySelection): string => `${location}\u0000${JSON.stringify(selection)}`;

export function parseArrayDatasetKey(key: string): { location: string; selection: ArraySelection } {
  const at = key.indexOf('\u0000');
  if (at < 0) return { location: key, selection: { variables: [] } };
  return { location: key.slice(0, at), selection: JSON.parse(key.slice(at + 1)) as ArraySelection };
}

interface OpenedFile {
  file: ArrayFile;
  /** The version we checked (the Source's, or the Zarr metadata documents'). */
  version: string;
}

export class ArrayOpener {
  private readonly files: LruCache<string, OpenedFile>;
  private readonly opening = new Map<string, Promise<OpenedFile>>();

  constructor(private readonly ctx: ArrayOpenContext) {
    this.files = new LruCache<string, OpenedFile>(ctx.maxFiles ?? 64, () => 1);
  }

  /** The decoded-chunk cache the opened files read through. */
  get chunkCache(): ChunkCache {
    return this.ctx.chunkCache;
  }

  /** The current version of the bytes at `location` (a stat for a local file; Zarr: its metadata documents'). */
  async currentVersion(location: string, signal?: AbortSignal): Promise<string> {
    if (looksLikeZarr(location)) return this.zarrVersion(zarrRoot(location), signal);
    try {
      return (await this.ctx.sources.open(location, signal, FIRST_READ)).version ?? '';
    } catch (err) {
      if (isRastileError(err, 'SourceNotFound')) {
        const v = await this.zarrVersion(trimStoreSlash(location), signal).catch(() => null);
        if (v !== null) return v;
      }
      throw err;
    }
  }

  private async zarrVersion(root: string, signal?: AbortSignal): Promise<string> {
    const found = await Promise.all(ZARR_DOCS.map((d) => this.ctx.sources.openIfExists(resolveStoreKey(root, d), signal)));
    const parts = found.flatMap((s, i) => (s === null ? [] : [`${ZARR_DOCS[i]}=${s.version ?? ''}`]));
    if (parts.length === 0) throw Errors.sourceNotFound(`'${root}' is not a file and holds no Zarr metadata (zarr.json, .zmetadata, .zgroup)`);
    return `zarr:${parts.join('|')}`;
  }

  /**
   * The opened file at `location` (cached per version; a replaced version's chunks are dropped).
   * `hints` name the variable paths the caller needs: a store that cannot be listed is opened for
   * them (ArrayFile.probed), and opened again with more names when a later caller needs others.
   */
  async openFile(location: string, signal?: AbortSignal, hints: readonly string[] = []): Promise<OpenedFile> {
    const version = await this.currentVersion(location, signal);
    const hit = this.files.get(location);
    const same = hit !== undefined && hit.version === version ? hit : undefined;
    const probed = same?.file.probed;
    if (same !== undefined && (probed === undefined || hints.every((h) => probed.includes(h)))) return same;
    const names = [...new Set([...(probed ?? []), ...hints])].sort();
    // A first open is shared by every caller (files that can be listed ignore the names); only
    // reopening a probed store for more names is keyed by them.
    const key = probed === undefined ? `${location}\u0000${version}` : `${location}\u0000${version}\u0000${names.join('\u0000')}`;
    let pending = this.opening.get(key);
    if (pending === undefined) {
      pending = this.openUncached(location, names, signal).then((file) => ({ file, version }));
      this.opening.set(key, pending);
      pending
        .then((opened) => {
          const old = this.files.get(location);
          if (old !== undefined && old.version !== version) this.ctx.chunkCache.forgetFile(old.file);
          this.files.set(location, opened);
        })
        .catch(() => {})
        .finally(() => this.opening.delete(key));
    }
    const opened = await pending;
    const got = opened.file.probed;
    // Joined another caller's open of a probed store that lacks our names: open it again for them.
    if (got !== undefined && !hints.every((h) => got.includes(h)) && probed === undefined) return this.openFile(location, signal, hints);
    return opened;
  }

  private async openUncached(location: string, hints: readonly string[], signal?: AbortSignal): Promise<ArrayFile> {
    const { formats } = this.ctx;
    const zarr = (root: string): Promise<ArrayFile> => {
      if (formats.zarr === undefined) throw Errors.notImplemented('Zarr stores are not readable on this server yet');
      return formats.zarr(root, signal, hints);
    };
    if (looksLikeZarr(location)) return zarr(zarrRoot(location));
    let source: Source;
    try {
      source = await this.ctx.sources.open(location, signal, FIRST_READ);
    } catch (err) {
      if (isRastileError(err, 'SourceNotFound') && (await this.zarrVersion(trimStoreSlash(location), signal).catch(() => null)) !== null) {
        return zarr(trimStoreSlash(location));
      }
      throw err;
    }
    const head = await source.fetch(0, 8200, signal);
    const kind = sniffArrayKind(head);
    if (kind === 'hdf5') {
      if (formats.hdf5 === undefined) throw Errors.notImplemented('HDF5/NetCDF-4 files are not readable on this server yet');
      return formats.hdf5(source, signal);
    }
    if (kind === 'netcdf3') {
      if (formats.netcdf3 === undefined) throw Errors.notImplemented('NetCDF-3 files are not readable on this server yet');
      return formats.netcdf3(source, signal);
    }
    throw Errors.invalidFormat(`'${location}' is not an HDF5, NetCDF or Zarr dataset`);
  }

  /** The GridDataset of a selection of the file at `location`. */
  async openGrid(location: string, selection: ArraySelection, signal?: AbortSignal): Promise<ArrayGrid> {
    const group = (selection.group ?? '').replace(/^\/+|\/+$/g, '');
    const hints = selection.variables.map((v) => (group === '' ? v : `${group}/${v}`).replace(/^\/+|\/+$/g, ''));
    const { file, version } = await this.openFile(location, signal, hints);
    return openArrayGrid(file, selection, this.ctx.chunkCache, signal, version);
  }

  /** The DatasetCache opener: keys made by `arrayDatasetKey`. */
  openKey = (key: string, signal?: AbortSignal): Promise<GridDataset> => {
    const { location, selection } = parseArrayDatasetKey(key);
    return this.openGrid(location, selection, signal);
  };

  /** The DatasetCache's version check for array selections. */
  versions(): DatasetVersions {
    return {
      current: async (key, signal) => {
        const { location, selection } = parseArrayDatasetKey(key);
        return `${await this.currentVersion(location, signal)}|${selectionKey(selection)}`;
      },
      forget: (old) => {
        if (old instanceof ArrayGrid && this.files.get(old.location)?.file !== old.plan.file) this.ctx.chunkCache.forgetFile(old.plan.file);
      },
    };
  }
}
