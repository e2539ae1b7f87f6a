/** What every chunk index answers: where the chunk at given chunk-grid coordinates is stored. */
import { Cursor } from '../bytes.ts';
import type { FileContext } from '../file-context.ts';

export interface StoredChunk {
  address: number;
  /** Stored (filtered) size in bytes. */
  size: number;
  /** Bit i set: filter i of the pipeline was skipped for this chunk. */
  mask: number;
}

export interface ChunkIndex {
  /** null when the chunk was never written. */
  find(coords: readonly number[], signal?: AbortSignal): Promise<StoredChunk | null>;
}

export interface IndexContext {
  ctx: FileContext;
  /** Index address from the layout message. */
  address: number;
  shape: readonly number[];
  /** Maximum shape (Infinity for unlimited). */
  maxShape: readonly number[];
  chunk: readonly number[];
  /** Bytes of one unfiltered chunk. */
  chunkBytes: number;
  filtered: boolean;
  /** Layout creation parameters (page bits…). */
  params: readonly number[];
  what: string;
}

/** Row-major linear index of `coords` in a grid of `counts` chunks per axis. */
export function linearIndex(coords: readonly number[], counts: readonly number[]): number {
  let idx = 0;
  for (let i = 0; i < coords.length; i++) idx = idx * counts[i] + coords[i];
  return idx;
}

/** Chunks per axis over the maximum shape (the current shape where the maximum is unlimited). */
export function maxChunkCounts(ic: IndexContext): number[] {
  return ic.chunk.map((c, i) => Math.ceil((Number.isFinite(ic.maxShape[i]) ? ic.maxShape[i] : ic.shape[i]) / c));
}

/** Bytes of the chunk-size field of a filtered chunk entry (fixed/extensible array, v2 B-tree). */
export function chunkSizeLength(chunkBytes: number): number {
  return Math.min(8, 1 + Math.floor((Math.floor(Math.log2(Math.max(1, chunkBytes))) + 8) / 8));
}

/** One array element: an address, plus size and filter mask when filtered. */
export function readElement(c: Cursor, ic: IndexContext): StoredChunk | null {
  const address = c.uint(ic.ctx.sizeOfOffsets, 'chunk address', true);
  let size = ic.chunkBytes;
  let mask = 0;
  if (ic.filtered) {
    size = c.uint(chunkSizeLength(ic.chunkBytes), 'chunk size');
    mask = c.u32('filter mask');
  }
  return address < 0 ? null : { address, size, mask };
}

export const elementSize = (ic: IndexContext): number => ic.ctx.sizeOfOffsets + (ic.filtered ? chunkSizeLength(ic.chunkBytes) + 4 : 0);
