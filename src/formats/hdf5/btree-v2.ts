/**
 * Version 2 B-trees ("BTHD"/"BTIN"/"BTLF"): records as raw bytes, either all of them in order
 * (dense links and attributes) or one found by a comparison (chunk index). Nodes are read on
 * demand and cached per file.
 */
import { Errors } from '../../errors.ts';
import { Cursor, limitEncSize } from './bytes.ts';
import type { FileContext } from './file-context.ts';

export interface BTreeV2 {
  address: number;
  type: number;
  nodeSize: number;
  recordSize: number;
  depth: number;
  root: number;
  rootRecords: number;
  /** Per level (0 = leaves): max records in a node, and bytes of the total-records field of children. */
  maxRecords: number[];
  cumulativeSize: number[];
  recordCountSize: number;
}

interface Node {
  records: Uint8Array[];
  children: Array<{ address: number; records: number }>;
}

export function readBTreeV2(ctx: FileContext, address: number, signal?: AbortSignal): Promise<BTreeV2> {
  return ctx.once(`bt2:${address}`, async () => {
    const what = `v2 B-tree header at ${address}`;
    const o = ctx.sizeOfOffsets;
    const c = await ctx.cursor(address, 16 + o + 2 + ctx.sizeOfLengths + 4, what, signal);
    c.signature('BTHD');
    c.u8('version');
    const type = c.u8('type');
    const nodeSize = c.u32('node size');
    const recordSize = c.u16('record size');
    const depth = c.u16('depth');
    c.skip(2, 'split/merge percent');
    const root = c.uint(o, 'root node address', true);
    const rootRecords = c.u16('root record count');
    if (nodeSize < 16 || nodeSize > 1 << 24 || recordSize < 1 || recordSize > nodeSize || depth > 32) {
      throw Errors.invalidFormat(`HDF5 ${what}: node size ${nodeSize}, record size ${recordSize}, depth ${depth} are inconsistent`);
    }
    const maxRecords = [Math.floor((nodeSize - 10) / recordSize)];
    const cumulative = [maxRecords[0]];
    const cumulativeSize = [0];
    const recordCountSize = limitEncSize(maxRecords[0]);
    for (let d = 1; d <= depth; d++) {
      const pointer = o + recordCountSize + (d > 1 ? cumulativeSize[d - 1] : 0);
      const m = Math.floor((nodeSize - 10 - pointer) / (recordSize + pointer));
      if (m < 1) throw Errors.invalidFormat(`HDF5 ${what}: node size ${nodeSize} too small for depth ${depth}`);
      maxRecords.push(m);
      cumulative.push((m + 1) * cumulative[d - 1] + m);
      cumulativeSize.push(limitEncSize(cumulative[d]));
    }
    return { address, type, nodeSize, recordSize, depth, root, rootRecords, maxRecords, cumulativeSize, recordCountSize };
  });
}

function readNode(ctx: FileContext, tree: BTreeV2, address: number, level: number, count: number, signal?: AbortSignal): Promise<Node> {
  return ctx.once(`bt2n:${address}`, async () => {
    const what = `v2 B-tree node at ${address}`;
    if (count > tree.maxRecords[level]) throw Errors.invalidFormat(`HDF5 ${what}: ${count} records, more than fit in a node`);
    const c = new Cursor(await ctx.read(address, tree.nodeSize, what, signal), what);
    c.signature(level === 0 ? 'BTLF' : 'BTIN');
    c.skip(2, 'version and type');
    const records: Uint8Array[] = [];
    for (let i = 0; i < count; i++) records.push(c.bytesAt(tree.recordSize, 'record'));
    const children: Node['children'] = [];
    if (level > 0) {
      for (let i = 0; i <= count; i++) {
        const child = c.uint(ctx.sizeOfOffsets, 'child address');
        const n = c.uint(tree.recordCountSize, 'child record count');
        if (level > 1) c.uint(tree.cumulativeSize[level - 1], 'child total records');
        children.push({ address: child, records: n });
      }
    }
    return { records, children };
  });
}

/** Every record of the tree, in key order. */
export async function allRecords(ctx: FileContext, tree: BTreeV2, signal?: AbortSignal): Promise<Uint8Array[]> {
  if (tree.rootRecords === 0 || tree.root < 0) return [];
  const seen = new Set<number>();
  const walk = async (address: number, level: number, count: number): Promise<Uint8Array[]> => {
    if (seen.has(address)) throw Errors.invalidFormat(`HDF5 v2 B-tree at ${tree.address}: a node is reached twice (a cycle?)`);
    seen.add(address);
    const node = await readNode(ctx, tree, address, level, count, signal);
    if (level === 0) return node.records;
    const below = await Promise.all(node.children.map((ch) => walk(ch.address, level - 1, ch.records)));
    const out: Uint8Array[] = [];
    for (let i = 0; i < below.length; i++) {
      out.push(...below[i]);
      if (i < node.records.length) out.push(node.records[i]);
    }
    return out;
  };
  return walk(tree.root, tree.depth, tree.rootRecords);
}

/** The record for which `compare(record)` is 0 (negative: record < target), or null. */
export async function findRecord(ctx: FileContext, tree: BTreeV2, compare: (record: Uint8Array) => number, signal?: AbortSignal): Promise<Uint8Array | null> {
  if (tree.rootRecords === 0 || tree.root < 0) return null;
  let address = tree.root;
  let count = tree.rootRecords;
  for (let level = tree.depth; level >= 0; level--) {
    const node = await readNode(ctx, tree, address, level, count, signal);
    let i = 0;
    for (; i < node.records.length; i++) {
      const cmp = compare(node.records[i]);
      if (cmp === 0) return node.records[i];
      if (cmp > 0) break;
    }
    if (level === 0) return null;
    address = node.children[i].address;
    count = node.children[i].records;
  }
  return null;
}
