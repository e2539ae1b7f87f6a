/**
 * Data layout message (versions 1–4): compact (bytes in the header), contiguous (one address),
 * chunked with its chunk index (v1 B-tree up to version 3; single chunk, implicit, fixed array,
 * extensible array or v2 B-tree in version 4). Virtual datasets are refused.
 */
import { Errors } from '../../../errors.ts';
import { Cursor, UNDEF } from '../bytes.ts';

export type ChunkIndexKind = 'btree-v1' | 'single' | 'implicit' | 'fixed-array' | 'extensible-array' | 'btree-v2';

export type Layout =
  | { kind: 'compact'; data: Uint8Array }
  | { kind: 'contiguous'; address: number; size: number }
  | {
      kind: 'chunked';
      index: ChunkIndexKind;
      /** Index (or single chunk, or implicit chunk array) address; UNDEF when nothing is stored. */
      address: number;
      /** Chunk dimensions (without the element-size dimension). */
      chunk: number[];
      /** Version 4 flag: partial edge chunks are stored unfiltered. */
      edgeUnfiltered: boolean;
      /** Single chunk with filters: its stored size and filter mask. */
      single: { size: number; mask: number } | null;
      /** Fixed/extensible array and v2 B-tree creation parameters (page bits, node size…). */
      params: number[];
    };

export function parseLayout(data: Uint8Array, sizes: { o: number; l: number }, what: string): Layout {
  const c = new Cursor(data, `${what} layout`);
  const version = c.u8('layout version');
  if (version === 1 || version === 2) return parseOld(c, sizes, what);
  if (version !== 3 && version !== 4) throw Errors.invalidFormat(`HDF5 ${what}: unknown data layout version ${version}`);
  const cls = c.u8('layout class');
  if (cls === 0) {
    const size = c.u16('compact data size');
    return { kind: 'compact', data: c.bytesAt(size, 'compact data') };
  }
  if (cls === 1) return { kind: 'contiguous', address: c.uint(sizes.o, 'contiguous data address', true), size: c.uint(sizes.l, 'contiguous data size') };
  if (cls === 3) throw Errors.unsupported(`HDF5 ${what}: virtual datasets (VDS) are not supported`);
  if (cls !== 2) throw Errors.invalidFormat(`HDF5 ${what}: unknown layout class ${cls}`);
  if (version === 3) {
    const rank = c.u8('chunk rank');
    const address = c.uint(sizes.o, 'chunk index address', true);
    const chunk = readDims(c, rank, 4, what);
    return { kind: 'chunked', index: 'btree-v1', address, chunk, edgeUnfiltered: false, single: null, params: [] };
  }
  const flags = c.u8('chunk flags');
  const rank = c.u8('chunk rank');
  const dimBytes = c.u8('chunk dimension size');
  const chunk = readDims(c, rank, dimBytes, what);
  const type = c.u8('chunk index type');
  let index: ChunkIndexKind;
  let single: { size: number; mask: number } | null = null;
  const params: number[] = [];
  switch (type) {
    case 1:
      index = 'single';
      if (flags & 2) single = { size: c.uint(sizes.l, 'filtered chunk size'), mask: c.u32('filter mask') };
      break;
    case 2:
      index = 'implicit';
      break;
    case 3:
      index = 'fixed-array';
      params.push(c.u8('page bits'));
      break;
    case 4:
      index = 'extensible-array';
      for (const f of ['max bits', 'index elements', 'min pointers', 'min elements', 'page bits']) params.push(c.u8(f));
      break;
    case 5:
      index = 'btree-v2';
      params.push(c.u32('node size'), c.u8('split percent'), c.u8('merge percent'));
      break;
    default:
      throw Errors.invalidFormat(`HDF5 ${what}: unknown chunk index type ${type}`);
  }
  const address = c.uint(sizes.o, 'chunk index address', true);
  return { kind: 'chunked', index, address, chunk, edgeUnfiltered: (flags & 1) !== 0, single, params };
}

/** Chunk dims as stored: rank + 1 values, the last the element size (dropped). */
function readDims(c: Cursor, rank: number, bytes: number, what: string): number[] {
  if (rank < 2 || rank > 33) throw Errors.invalidFormat(`HDF5 ${what}: chunk rank ${rank - 1} is out of range`);
  const dims: number[] = [];
  for (let i = 0; i < rank; i++) dims.push(c.uint(bytes, 'chunk dimension'));
  dims.pop();
  if (dims.some((d) => d < 1)) throw Errors.invalidFormat(`HDF5 ${what}: a chunk dimension is 0`);
  return dims;
}

function parseOld(c: Cursor, sizes: { o: number; l: number }, what: string): Layout {
  const rank = c.u8('layout rank');
  const cls = c.u8('layout class');
  c.skip(5);
  const address = cls === 0 ? UNDEF : c.uint(sizes.o, 'data address', true);
  if (cls === 2) {
    const chunk = readDims(c, rank, 4, what);
    return { kind: 'chunked', index: 'btree-v1', address, chunk, edgeUnfiltered: false, single: null, params: [] };
  }
  const dims: number[] = [];
  for (let i = 0; i < rank; i++) dims.push(c.u32('layout dimension'));
  if (cls === 0) {
    const size = c.u32('compact data size');
    return { kind: 'compact', data: c.bytesAt(size, 'compact data') };
  }
  if (cls === 1) return { kind: 'contiguous', address, size: NaN };
  throw Errors.invalidFormat(`HDF5 ${what}: unknown layout class ${cls}`);
}
