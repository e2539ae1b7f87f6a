/**
 * Fractal heaps ("FRHP"): where dense links and attributes keep their messages. Objects are
 * found from their heap IDs: managed objects through the doubling table of direct and indirect
 * blocks (read on demand), tiny objects inside the ID, huge objects by address (in the ID or
 * their v2 B-tree). Filtered heaps are refused.
 */
import { Errors } from '../../errors.ts';
import { Cursor, UNDEF } from './bytes.ts';
import { findRecord, readBTreeV2 } from './btree-v2.ts';
import type { FileContext } from './file-context.ts';

export interface FractalHeap {
  address: number;
  idLength: number;
  filtered: boolean;
  checksummed: boolean;
  tableWidth: number;
  startBlockSize: number;
  maxDirectBlockSize: number;
  /** Bytes of an offset in the heap's address space. */
  offsetSize: number;
  /** Bytes of an object length in a managed heap ID. */
  lengthSize: number;
  rootAddress: number;
  rootRows: number;
  maxDirectRows: number;
  /** v2 B-tree of "huge" objects (too big for a direct block), UNDEF when none. */
  hugeTree: number;
}

const log2 = (n: number): number => Math.round(Math.log2(n));

export function readFractalHeap(ctx: FileContext, address: number, signal?: AbortSignal): Promise<FractalHeap> {
  return ctx.once(`frhp:${address}`, async () => {
    const what = `fractal heap at ${address}`;
    const o = ctx.sizeOfOffsets;
    const l = ctx.sizeOfLengths;
    const c = await ctx.cursor(address, 22 + 3 * o + 12 * l, what, signal);
    c.signature('FRHP');
    c.u8('version');
    const idLength = c.u16('heap ID length');
    const filterLength = c.u16('I/O filters length');
    const flags = c.u8('flags');
    const maxManaged = c.u32('max managed object size');
    c.uint(l, 'next huge ID');
    const hugeTree = c.uint(o, 'huge object B-tree address', true);
    c.uint(l, 'free space');
    c.uint(o, 'free space manager address', true);
    c.skip(6 * l, 'managed and huge space statistics');
    c.skip(2 * l, 'tiny object statistics');
    const tableWidth = c.u16('table width');
    const startBlockSize = c.uint(l, 'starting block size');
    const maxDirectBlockSize = c.uint(l, 'max direct block size');
    const maxHeapBits = c.u16('max heap size');
    c.u16('starting rows');
    const rootAddress = c.uint(o, 'root block address', true);
    const rootRows = c.u16('root rows');
    const pow2 = (n: number): boolean => n > 0 && Number.isSafeInteger(n) && (n & (n - 1)) === 0;
    if (!pow2(tableWidth) || !pow2(startBlockSize) || !pow2(maxDirectBlockSize) || maxDirectBlockSize < startBlockSize || maxHeapBits > 64 || maxHeapBits < 1) {
      throw Errors.invalidFormat(
        `HDF5 ${what}: doubling table fields are inconsistent (width ${tableWidth}, block sizes ${startBlockSize}–${maxDirectBlockSize})`,
      );
    }
    const offsetSize = Math.ceil(maxHeapBits / 8);
    const lengthSize = Math.min(Math.ceil(log2(maxDirectBlockSize) / 8), Math.floor(Math.floor(Math.log2(Math.max(1, maxManaged))) / 8) + 1);
    const maxDirectRows = log2(maxDirectBlockSize) - log2(startBlockSize) + 2;
    return {
      address,
      idLength,
      filtered: filterLength > 0,
      checksummed: (flags & 2) !== 0,
      tableWidth,
      startBlockSize,
      maxDirectBlockSize,
      offsetSize,
      lengthSize,
      rootAddress,
      rootRows,
      maxDirectRows,
      hugeTree,
    };
  });
}

/** Block size of a row of the doubling table. */
const rowSize = (h: FractalHeap, row: number): number => (row === 0 ? h.startBlockSize : h.startBlockSize * 2 ** (row - 1));

/** The bytes of the object a heap ID names. */
export async function heapObject(ctx: FileContext, heap: FractalHeap, id: Uint8Array, signal?: AbortSignal): Promise<Uint8Array> {
  const what = `fractal heap at ${heap.address}`;
  const c = new Cursor(id, `${what} heap ID`);
  const first = c.u8('heap ID flags');
  const type = (first >> 4) & 3;
  if (type === 2) {
    // tiny: the object is in the ID
    const extended = heap.idLength > 18;
    const len = extended ? (((first & 0x0f) << 8) | c.u8('tiny length')) + 1 : (first & 0x0f) + 1;
    return c.bytesAt(len, 'tiny object');
  }
  if (type === 1) return hugeObject(ctx, heap, c, signal);
  if (type !== 0) throw Errors.invalidFormat(`HDF5 ${what}: unknown heap ID type ${type}`);
  if (heap.filtered) throw Errors.unsupported(`HDF5 ${what}: filtered fractal heaps are not supported`);
  const offset = c.uint(heap.offsetSize, 'heap offset');
  const length = c.uint(heap.lengthSize, 'object length');
  if (heap.rootAddress === UNDEF) throw Errors.invalidFormat(`HDF5 ${what}: empty heap`);
  let block = heap.rootAddress;
  let blockOffset = 0;
  let rows = heap.rootRows;
  for (let depth = 0; depth < 16; depth++) {
    if (rows === 0) {
      // a direct block: objects sit at their heap offset minus the block's
      const at = offset - blockOffset;
      return ctx.read(block + at, length, `${what} object at heap offset ${offset}`, signal);
    }
    const entry = await locate(ctx, heap, block, blockOffset, rows, offset, signal);
    block = entry.address;
    blockOffset = entry.offset;
    rows = entry.rows;
  }
  throw Errors.invalidFormat(`HDF5 ${what}: indirect blocks nested too deeply`);
}

/** The child of the indirect block at `address` that holds heap offset `target`. */
async function locate(
  ctx: FileContext,
  heap: FractalHeap,
  address: number,
  blockOffset: number,
  rows: number,
  target: number,
  signal?: AbortSignal,
): Promise<{ address: number; offset: number; rows: number }> {
  const what = `fractal heap indirect block at ${address}`;
  const o = ctx.sizeOfOffsets;
  const w = heap.tableWidth;
  const directRows = Math.min(rows, heap.maxDirectRows);
  const entries = directRows * w + (rows - directRows) * w;
  const prefix = 4 + 1 + o + heap.offsetSize;
  const c = await ctx.cursor(address, prefix + entries * o, what, signal);
  let rowStart = blockOffset;
  for (let row = 0; row < rows; row++) {
    const size = rowSize(heap, row);
    if (target < rowStart + w * size) {
      const col = Math.floor((target - rowStart) / size);
      c.pos = prefix + (row * w + col) * o;
      const child = c.uint(o, 'child block address', true);
      if (child === UNDEF) throw Errors.invalidFormat(`HDF5 ${what}: heap offset ${target} falls in an unallocated block`);
      const childRows = row < heap.maxDirectRows ? 0 : log2(size) - log2(heap.startBlockSize * w) + 1;
      return { address: child, offset: rowStart + col * size, rows: childRows };
    }
    rowStart += w * size;
  }
  throw Errors.invalidFormat(`HDF5 ${what}: heap offset ${target} is beyond the block`);
}

/** A "huge" object: its address and length in the ID itself, or found by ID in the heap's v2 B-tree. */
async function hugeObject(ctx: FileContext, heap: FractalHeap, c: Cursor, signal?: AbortSignal): Promise<Uint8Array> {
  const what = `fractal heap at ${heap.address} huge object`;
  if (heap.filtered) throw Errors.unsupported(`HDF5 ${what}: filtered huge objects are not supported`);
  const o = ctx.sizeOfOffsets;
  const l = ctx.sizeOfLengths;
  if (heap.idLength - 1 >= o + l) {
    const address = c.uint(o, 'huge object address');
    return ctx.read(address, c.uint(l, 'huge object length'), what, signal);
  }
  const id = c.uint(Math.min(heap.idLength - 1, 8), 'huge object ID');
  if (heap.hugeTree === UNDEF) throw Errors.invalidFormat(`HDF5 ${what}: no huge object index`);
  const tree = await readBTreeV2(ctx, heap.hugeTree, signal);
  if (tree.type !== 1) throw Errors.unsupported(`HDF5 ${what}: huge object index of type ${tree.type} is not supported`);
  const rec = await findRecord(
    ctx,
    tree,
    (r) => {
      const key = new Cursor(r, what, o + l).uint(l, 'huge object ID');
      return key === id ? 0 : key < id ? -1 : 1;
    },
    signal,
  );
  if (rec === null) throw Errors.invalidFormat(`HDF5 ${what}: ID ${id} not in its index`);
  const r = new Cursor(rec, what);
  const address = r.uint(o, 'huge object address');
  return ctx.read(address, r.uint(l, 'huge object length'), what, signal);
}
