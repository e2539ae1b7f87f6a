/** Local heaps ("HEAP") and symbol table nodes ("SNOD"): the link names of old-style groups. */
import { Errors } from '../../errors.ts';
import { decodeText } from './bytes.ts';
import { groupBTreeLeaves } from './btree-v1.ts';
import type { FileContext } from './file-context.ts';
import type { Link } from './messages/links.ts';

async function localHeapData(ctx: FileContext, address: number, signal?: AbortSignal): Promise<Uint8Array> {
  return ctx.once(`lheap:${address}`, async () => {
    const what = `local heap at ${address}`;
    const l = ctx.sizeOfLengths;
    const c = await ctx.cursor(address, 8 + 2 * l + ctx.sizeOfOffsets, what, signal);
    c.signature('HEAP');
    c.skip(4);
    const size = c.uint(l, 'data segment size');
    c.uint(l, 'free list offset', true);
    const data = c.uint(ctx.sizeOfOffsets, 'data segment address');
    return ctx.read(data, size, what, signal);
  });
}

/** The hard links of a group stored as a symbol table (B-tree + local heap), in name order. */
export async function symbolTableLinks(ctx: FileContext, btree: number, heap: number, signal?: AbortSignal): Promise<Link[]> {
  const [names, leaves] = await Promise.all([localHeapData(ctx, heap, signal), groupBTreeLeaves(ctx, btree, signal)]);
  const o = ctx.sizeOfOffsets;
  const entrySize = 2 * o + 24;
  const nodes = await Promise.all(
    leaves.map(async (address) => {
      const what = `symbol table node at ${address}`;
      const head = await ctx.cursor(address, 8, what, signal);
      head.signature('SNOD');
      head.skip(2);
      const n = head.u16('symbol count');
      const c = await ctx.cursor(address + 8, n * entrySize, what, signal);
      const links: Link[] = [];
      for (let i = 0; i < n; i++) {
        const start = c.pos;
        const nameOffset = c.uint(o, 'link name offset');
        const header = c.uint(o, 'object header address');
        c.pos = start + entrySize;
        if (nameOffset >= names.length) throw Errors.invalidFormat(`HDF5 ${what}: name offset ${nameOffset} outside its local heap`);
        links.push({ name: decodeText(names.subarray(nameOffset)), address: header, creationOrder: null });
      }
      return links;
    }),
  );
  return nodes.flat();
}
