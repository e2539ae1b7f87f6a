/**
 * Global heap collections ("GCOL"): the bytes of variable-length strings and sequences (and of
 * the DIMENSION_LIST references). A collection is read whole once and cached per file.
 */
import { Errors } from '../../errors.ts';
import type { FileContext } from './file-context.ts';

type Collection = Map<number, Uint8Array>;

function readCollection(ctx: FileContext, address: number, signal?: AbortSignal): Promise<Collection> {
  return ctx.once(`gcol:${address}`, async () => {
    const what = `global heap at ${address}`;
    const l = ctx.sizeOfLengths;
    const head = await ctx.cursor(address, 8 + l, what, signal);
    head.signature('GCOL');
    head.skip(4);
    const size = head.uint(l, 'collection size');
    const c = await ctx.cursor(address, size, what, signal);
    c.pos = 8 + l;
    const objects: Collection = new Map();
    while (c.remaining >= 8 + l) {
      const index = c.u16('object index');
      if (index === 0) break; // free space: the rest of the collection
      c.skip(6);
      const n = c.uint(l, 'object size');
      objects.set(index, c.bytesAt(n, 'object data'));
      c.align(8);
    }
    return objects;
  });
}

/** The object `index` of the collection at `address`. */
export async function globalHeapObject(ctx: FileContext, address: number, index: number, signal?: AbortSignal): Promise<Uint8Array> {
  const objects = await readCollection(ctx, address, signal);
  const obj = objects.get(index);
  if (obj === undefined) throw Errors.invalidFormat(`HDF5 global heap at ${address}: no object ${index}`);
  return obj;
}
