/** Dense links and attributes: a fractal heap of messages indexed by a v2 B-tree of names. */
import { isRastileError } from '../../errors.ts';
import { Cursor } from './bytes.ts';
import { allRecords, readBTreeV2 } from './btree-v2.ts';
import type { FileContext } from './file-context.ts';
import { heapObject, readFractalHeap } from './fractal-heap.ts';
import { parseAttribute, type RawAttribute } from './messages/attribute.ts';
import { parseLink, type DenseInfo, type Link } from './messages/links.ts';

const sizesOf = (ctx: FileContext) => ({ o: ctx.sizeOfOffsets, l: ctx.sizeOfLengths });

/** The attributes in dense storage, in creation order. */
export async function denseAttributes(ctx: FileContext, info: DenseInfo, what: string, signal?: AbortSignal): Promise<RawAttribute[]> {
  if (info.heap < 0 || info.nameIndex < 0) return [];
  const [heap, tree] = await Promise.all([readFractalHeap(ctx, info.heap, signal), readBTreeV2(ctx, info.nameIndex, signal)]);
  const records = await allRecords(ctx, tree, signal);
  const found = await Promise.all(
    records.map(async (r) => {
      const c = new Cursor(r, `${what} attribute name index record`);
      const id = c.bytesAt(8, 'heap ID');
      c.u8('message flags');
      const order = c.u32('creation order');
      try {
        const bytes = await heapObject(ctx, heap, id, signal);
        return { order, attr: parseAttribute(bytes, sizesOf(ctx), what) };
      } catch (err) {
        if (isRastileError(err, 'UnsupportedFeature')) return null; // left out, the file still opens
        throw err;
      }
    }),
  );
  const kept = found.filter((f) => f !== null);
  kept.sort((a, b) => a.order - b.order);
  return kept.map((f) => f.attr);
}

/** The links in dense storage (creation order when tracked, else name order). */
export async function denseLinks(ctx: FileContext, info: DenseInfo, what: string, signal?: AbortSignal): Promise<Link[]> {
  if (info.heap < 0 || info.nameIndex < 0) return [];
  const [heap, tree] = await Promise.all([readFractalHeap(ctx, info.heap, signal), readBTreeV2(ctx, info.nameIndex, signal)]);
  const records = await allRecords(ctx, tree, signal);
  const links = await Promise.all(
    records.map(async (r) => {
      const id = r.subarray(4, 4 + heap.idLength);
      return parseLink(await heapObject(ctx, heap, id, signal), ctx.sizeOfOffsets, what);
    }),
  );
  return sortLinks(links);
}

export function sortLinks(links: Link[]): Link[] {
  if (links.every((l) => l.creationOrder !== null)) return links.sort((a, b) => a.creationOrder! - b.creationOrder!);
  return links.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
