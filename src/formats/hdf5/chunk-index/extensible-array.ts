/**
 * Extensible array chunk index ("EAHD"/"EAIB"/"EASB"/"EADB"), used with one unlimited dimension.
 * Elements are numbered row-major with the unlimited dimension moved first (HDF5's swizzle);
 * the index block holds the first elements and data blocks, super blocks the later data blocks.
 */
import { Errors } from '../../../errors.ts';
import { UNDEF } from '../bytes.ts';
import type { ChunkIndex, IndexContext, StoredChunk } from './types.ts';
import { elementSize, linearIndex, readElement } from './types.ts';

interface Header {
  entrySize: number;
  maxBits: number;
  indexElements: number;
  minElements: number;
  minPointers: number;
  pageBits: number;
  indexBlock: number;
  /** Per super block: data blocks, elements per data block, first element and first data block. */
  sblocks: Array<{ ndblks: number; dblkElements: number; startIdx: number; startDblk: number }>;
}

const log2 = (n: number): number => Math.round(Math.log2(n));

export function extensibleArrayIndex(ic: IndexContext): ChunkIndex {
  const { ctx } = ic;
  const o = ctx.sizeOfOffsets;
  const unlim = ic.maxShape.findIndex((m) => !Number.isFinite(m));
  const order = ic.shape.map((_, i) => i);
  if (unlim > 0) order.splice(0, 0, ...order.splice(unlim, 1));
  const counts = order.map((i) => (Number.isFinite(ic.maxShape[i]) ? Math.ceil(ic.maxShape[i] / ic.chunk[i]) : Infinity));

  const header = (signal?: AbortSignal): Promise<Header> =>
    ctx.once(`eahd:${ic.address}`, async () => {
      const what = `${ic.what} extensible array header at ${ic.address}`;
      const c = await ctx.cursor(ic.address, 12 + 6 * ctx.sizeOfLengths + o + 4, what, signal);
      c.signature('EAHD');
      c.skip(2, 'version and client');
      const entrySize = c.u8('element size');
      const maxBits = c.u8('max elements bits');
      const indexElements = c.u8('index block elements');
      const minElements = c.u8('data block min elements');
      const minPointers = c.u8('super block min pointers');
      const pageBits = c.u8('data block page bits');
      c.skip(6 * ctx.sizeOfLengths, 'statistics');
      const indexBlock = c.uint(o, 'index block address', true);
      const pow2 = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;
      if (entrySize !== elementSize(ic) || maxBits > 64 || !pow2(minElements) || !pow2(minPointers) || log2(minElements) > maxBits) {
        throw Errors.invalidFormat(`HDF5 ${what}: creation parameters are inconsistent`);
      }
      const sblocks: Header['sblocks'] = [];
      const nsblks = 1 + maxBits - log2(minElements);
      let startIdx = 0;
      let startDblk = 0;
      for (let u = 0; u < nsblks; u++) {
        const ndblks = 2 ** Math.floor(u / 2);
        const dblkElements = 2 ** Math.floor((u + 1) / 2) * minElements;
        sblocks.push({ ndblks, dblkElements, startIdx, startDblk });
        startIdx += ndblks * dblkElements;
        startDblk += ndblks;
      }
      return { entrySize, maxBits, indexElements, minElements, minPointers, pageBits, indexBlock, sblocks };
    });

  return {
    async find(coords, signal) {
      if (ic.address === UNDEF) return null;
      const h = await header(signal);
      if (h.indexBlock === UNDEF) return null;
      const what = `${ic.what} extensible array`;
      const swizzled = order.map((i) => coords[i]);
      // the unlimited axis first: its count never matters
      const idx = linearIndex(
        swizzled,
        counts.map((n, k) => (k === 0 ? 1 : n)),
      );
      const ibPrefix = 4 + 2 + o;
      const arrOffsetSize = Math.ceil(h.maxBits / 8);
      if (idx < h.indexElements) {
        const c = await ctx.cursor(h.indexBlock + ibPrefix + idx * h.entrySize, h.entrySize, `${what} index block`, signal);
        return readElement(c, ic);
      }
      const rel = idx - h.indexElements;
      const s = Math.floor(Math.log2(Math.floor(rel / h.minElements) + 1));
      const sb = h.sblocks[s];
      if (sb === undefined) return null;
      const dblkInSb = Math.floor((rel - sb.startIdx) / sb.dblkElements);
      const elem = (rel - sb.startIdx) % sb.dblkElements;
      const ibSblocks = 2 * log2(h.minPointers);
      const ndblkAddrs = 2 * (h.minPointers - 1);
      const ibElements = ibPrefix + h.indexElements * h.entrySize;
      let dblock: number;
      if (s < ibSblocks) {
        const c = await ctx.cursor(h.indexBlock + ibElements + (sb.startDblk + dblkInSb) * o, o, `${what} index block`, signal);
        dblock = c.uint(o, 'data block address', true);
      } else {
        if (sb.startDblk + dblkInSb < ndblkAddrs) throw Errors.invalidFormat(`HDF5 ${what}: element ${idx} maps outside its super block`);
        const c = await ctx.cursor(h.indexBlock + ibElements + ndblkAddrs * o + (s - ibSblocks) * o, o, `${what} index block`, signal);
        const sblock = c.uint(o, 'super block address', true);
        if (sblock === UNDEF) return null;
        const pageElements = 2 ** h.pageBits;
        const paged = sb.dblkElements > pageElements;
        const bitmapBytes = paged ? sb.ndblks * Math.ceil(sb.dblkElements / pageElements / 8) : 0;
        const sc = await ctx.cursor(sblock + 4 + 2 + o + arrOffsetSize + bitmapBytes + dblkInSb * o, o, `${what} super block`, signal);
        dblock = sc.uint(o, 'data block address', true);
      }
      if (dblock === UNDEF) return null;
      return readDataBlockElement(dblock, sb.dblkElements, elem, h, arrOffsetSize, signal);
    },
  };

  async function readDataBlockElement(
    dblock: number,
    elements: number,
    elem: number,
    h: Header,
    arrOffsetSize: number,
    signal?: AbortSignal,
  ): Promise<StoredChunk | null> {
    const prefix = 4 + 2 + o + arrOffsetSize;
    const pageElements = 2 ** h.pageBits;
    let at: number;
    if (elements <= pageElements) at = dblock + prefix + elem * h.entrySize;
    else {
      const page = Math.floor(elem / pageElements);
      at = dblock + prefix + 4 + page * (pageElements * h.entrySize + 4) + (elem % pageElements) * h.entrySize;
    }
    const c = await ctx.cursor(at, h.entrySize, `${ic.what} extensible array data block at ${dblock}`, signal);
    return readElement(c, ic);
  }
}
