/** Fixed array chunk index ("FAHD"/"FADB", optionally paged): one element per chunk, row-major. */
import { Errors } from '../../../errors.ts';
import { UNDEF } from '../bytes.ts';
import type { ChunkIndex, IndexContext } from './types.ts';
import { elementSize, linearIndex, maxChunkCounts, readElement } from './types.ts';

interface Header {
  entrySize: number;
  pageBits: number;
  count: number;
  dataBlock: number;
}

export function fixedArrayIndex(ic: IndexContext): ChunkIndex {
  const { ctx } = ic;
  const counts = maxChunkCounts(ic);
  const header = (signal?: AbortSignal): Promise<Header> =>
    ctx.once(`fahd:${ic.address}`, async () => {
      const what = `${ic.what} fixed array header at ${ic.address}`;
      const c = await ctx.cursor(ic.address, 8 + ctx.sizeOfLengths + ctx.sizeOfOffsets + 4, what, signal);
      c.signature('FAHD');
      c.skip(2, 'version and client');
      const entrySize = c.u8('entry size');
      const pageBits = c.u8('page bits');
      const count = c.uint(ctx.sizeOfLengths, 'max entries');
      const dataBlock = c.uint(ctx.sizeOfOffsets, 'data block address', true);
      if (entrySize !== elementSize(ic)) throw Errors.invalidFormat(`HDF5 ${what}: entry size ${entrySize}, expected ${elementSize(ic)}`);
      if (count !== counts.reduce((a, b) => a * b, 1) || pageBits > 32)
        throw Errors.invalidFormat(`HDF5 ${what}: ${count} entries for ${counts.join('×')} chunks`);
      return { entrySize, pageBits, count, dataBlock };
    });
  return {
    async find(coords, signal) {
      if (ic.address === UNDEF) return null;
      const h = await header(signal);
      if (h.dataBlock === UNDEF) return null;
      const idx = linearIndex(coords, counts);
      if (idx >= h.count) return null;
      const what = `${ic.what} fixed array data block at ${h.dataBlock}`;
      const prefix = 4 + 2 + ctx.sizeOfOffsets;
      const pageSize = 2 ** h.pageBits;
      let at: number;
      if (h.count <= pageSize) at = h.dataBlock + prefix + idx * h.entrySize;
      else {
        const pages = Math.ceil(h.count / pageSize);
        const bitmap = Math.ceil(pages / 8);
        const page = Math.floor(idx / pageSize);
        const bits = await ctx.read(h.dataBlock + prefix, bitmap, what, signal);
        if ((bits[page >> 3] & (0x80 >> (page & 7))) === 0) return null;
        const pagesStart = h.dataBlock + prefix + bitmap + 4;
        at = pagesStart + page * (pageSize * h.entrySize + 4) + (idx % pageSize) * h.entrySize;
      }
      const c = await ctx.cursor(at, h.entrySize, what, signal);
      return readElement(c, ic);
    },
  };
}
