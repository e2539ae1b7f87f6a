/** The chunk indexes without index structures: v1 B-tree lookup, single chunk, implicit. */
import { UNDEF } from '../bytes.ts';
import { findChunkV1 } from '../btree-v1.ts';
import type { ChunkIndex, IndexContext, StoredChunk } from './types.ts';
import { linearIndex, maxChunkCounts } from './types.ts';

export function btreeV1Index(ic: IndexContext): ChunkIndex {
  return {
    async find(coords, signal) {
      if (ic.address === UNDEF) return null;
      const offsets = coords.map((c, i) => c * ic.chunk[i]);
      return findChunkV1(ic.ctx, ic.address, offsets, signal);
    },
  };
}

export function singleChunkIndex(ic: IndexContext, single: { size: number; mask: number } | null): ChunkIndex {
  const stored: StoredChunk | null = ic.address === UNDEF ? null : { address: ic.address, size: single?.size ?? ic.chunkBytes, mask: single?.mask ?? 0 };
  return { find: (coords) => Promise.resolve(coords.every((c) => c === 0) ? stored : null) };
}

export function implicitIndex(ic: IndexContext): ChunkIndex {
  const counts = maxChunkCounts(ic);
  return {
    find(coords) {
      if (ic.address === UNDEF) return Promise.resolve(null);
      return Promise.resolve({ address: ic.address + linearIndex(coords, counts) * ic.chunkBytes, size: ic.chunkBytes, mask: 0 });
    },
  };
}
