/**
 * Version 1 B-tree nodes ("TREE"): group nodes (type 0, children are symbol table nodes) and raw
 * data chunk nodes (type 1, keys are chunk offsets). Nodes are read on demand and cached per file.
 */
import { Errors } from '../../errors.ts';
import { Cursor } from './bytes.ts';
import type { FileContext } from './file-context.ts';

export interface BTreeV1Node {
  type: number;
  level: number;
  /** entries + 1 keys, raw. */
  keys: Uint8Array[];
  /** Child addresses (nodes, symbol table nodes or chunks). */
  children: number[];
}

const MAX_ENTRIES = 65536;

export function readBTreeV1Node(ctx: FileContext, address: number, type: number, keySize: number, signal?: AbortSignal): Promise<BTreeV1Node> {
  return ctx.once(`bt1:${address}`, async () => {
    const what = `v1 B-tree node at ${address}`;
    const o = ctx.sizeOfOffsets;
    const head = await ctx.cursor(address, 8 + 2 * o, what, signal);
    head.signature('TREE');
    const nodeType = head.u8('node type');
    const level = head.u8('node level');
    const n = head.u16('entries used');
    if (nodeType !== type) throw Errors.invalidFormat(`HDF5 ${what}: node type ${nodeType}, expected ${type}`);
    if (n > MAX_ENTRIES) throw Errors.invalidFormat(`HDF5 ${what}: ${n} entries`);
    const body = await ctx.cursor(address + 8 + 2 * o, (n + 1) * keySize + n * o, what, signal);
    const keys: Uint8Array[] = [];
    const children: number[] = [];
    for (let i = 0; i < n; i++) {
      keys.push(body.bytesAt(keySize, 'key'));
      children.push(body.uint(o, 'child address'));
    }
    keys.push(body.bytesAt(keySize, 'key'));
    return { type: nodeType, level, keys, children };
  });
}

/** Every leaf child address of a group B-tree (symbol table node addresses), in order. */
export async function groupBTreeLeaves(ctx: FileContext, root: number, signal?: AbortSignal): Promise<number[]> {
  const seen = new Set<number>();
  const walk = async (address: number, depth: number): Promise<number[]> => {
    if (depth > 64 || seen.has(address)) throw Errors.invalidFormat(`HDF5 v1 B-tree at ${root}: a node is reached twice (a cycle?)`);
    seen.add(address);
    const node = await readBTreeV1Node(ctx, address, 0, ctx.sizeOfLengths, signal);
    if (node.level === 0) return node.children;
    const parts = await Promise.all(node.children.map((c) => walk(c, depth + 1)));
    return parts.flat();
  };
  return walk(root, 0);
}

export interface ChunkRecord {
  address: number;
  size: number;
  mask: number;
}

/** Look up the chunk whose element offsets are `offsets` (rank values) in a chunk B-tree. */
export async function findChunkV1(ctx: FileContext, root: number, offsets: readonly number[], signal?: AbortSignal): Promise<ChunkRecord | null> {
  const rank = offsets.length;
  const keySize = 8 + 8 * (rank + 1);
  let address = root;
  for (let depth = 0; depth < 64; depth++) {
    const node = await readBTreeV1Node(ctx, address, 1, keySize, signal);
    // last child whose left key ≤ target
    let pick = -1;
    for (let i = 0; i < node.children.length; i++) {
      if (compareKey(node.keys[i], offsets) <= 0) pick = i;
      else break;
    }
    if (pick < 0) return null;
    if (node.level === 0) {
      if (compareKey(node.keys[pick], offsets) !== 0) return null;
      const k = new Cursor(node.keys[pick], `v1 B-tree node at ${address} key`);
      const size = k.u32('chunk size');
      const mask = k.u32('filter mask');
      return { address: node.children[pick], size, mask };
    }
    address = node.children[pick];
  }
  throw Errors.invalidFormat(`HDF5 v1 B-tree at ${root}: too deep (a cycle?)`);
}

function compareKey(key: Uint8Array, offsets: readonly number[]): number {
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  for (let i = 0; i < offsets.length; i++) {
    const v = Number(view.getBigUint64(8 + 8 * i, true));
    if (v !== offsets[i]) return v < offsets[i] ? -1 : 1;
  }
  return 0;
}
