/**
 * Walks the group tree from the root: links (symbol tables, link messages, dense links in a
 * fractal heap), attributes (compact and dense), datasets as variables. Objects reached twice
 * (hard-link cycles) are visited once.
 */
import { Errors, isRastileError } from '../../errors.ts';
import type { ArrayGroup, AttrValue } from '../array/array-model.ts';
import { decodeAttribute } from './attr-values.ts';
import { datasetInfo, isDataset } from './dataset-info.ts';
import { denseAttributes, denseLinks, sortLinks } from './dense-storage.ts';
import type { FileContext } from './file-context.ts';
import { symbolTableLinks } from './local-heap.ts';
import { parseAttribute, type RawAttribute } from './messages/attribute.ts';
import { parseAttributeInfo, parseLink, parseLinkInfo, parseSymbolTable, type Link } from './messages/links.ts';
import { MSG, readObjectHeader, type ObjectHeader } from './object-header.ts';
import { Hdf5Variable } from './variable.ts';

const MAX_OBJECTS = 100_000;

export interface WalkedGroup extends ArrayGroup {
  readonly variables: Map<string, Hdf5Variable>;
  readonly groups: Map<string, WalkedGroup>;
  attrs: Record<string, AttrValue>;
  readonly rawAttrs: RawAttribute[];
}

export interface Walk {
  ctx: FileContext;
  visited: Set<number>;
  /** Every variable with its raw attributes (dimension lists are resolved after the walk). */
  variables: Array<{ variable: Hdf5Variable; raw: RawAttribute[] }>;
  signal?: AbortSignal;
}

export async function walkGroup(w: Walk, address: number, name: string, path: string, rootTable: { btree: number; heap: number } | null): Promise<WalkedGroup> {
  const what = `group ${path}`;
  const oh = await readObjectHeader(w.ctx, address, w.signal);
  const [links, rawAttrs] = await Promise.all([groupLinks(w, oh, what, rootTable), readAttributes(w.ctx, oh, what, w.signal)]);
  const group: WalkedGroup = { name, path, attrs: await decodeAll(w.ctx, rawAttrs, w.signal), rawAttrs, variables: new Map(), groups: new Map() };
  const children = await Promise.all(
    links.map(async (link) => {
      if (link.address === null || w.visited.has(link.address)) return null;
      w.visited.add(link.address);
      if (w.visited.size > MAX_OBJECTS) throw Errors.invalidFormat(`HDF5 file has more than ${MAX_OBJECTS} objects`);
      const childPath = path === '/' ? `/${link.name}` : `${path}/${link.name}`;
      const child = await readObjectHeader(w.ctx, link.address, w.signal);
      if (isDataset(child)) {
        const dsWhat = `dataset ${childPath}`;
        // a dataset using something we do not read (a virtual layout, VAX floats…) is left out, the file still opens
        const info = await datasetInfo(w.ctx, child, dsWhat, w.signal).catch(skipUnsupported);
        if (info === null) return null;
        const raw = await readAttributes(w.ctx, child, dsWhat, w.signal);
        const variable = new Hdf5Variable(w.ctx, link.name, childPath, link.address, await decodeAll(w.ctx, raw, w.signal), info);
        w.variables.push({ variable, raw });
        return { link, variable };
      }
      if (isGroup(child)) return { link, group: await walkGroup(w, link.address, link.name, childPath, null) };
      return null; // committed datatypes and the like
    }),
  );
  for (const c of children) {
    if (c?.variable) group.variables.set(c.link.name, c.variable);
    else if (c?.group) group.groups.set(c.link.name, c.group);
  }
  return group;
}

const isGroup = (oh: ObjectHeader): boolean =>
  oh.messages.some((m) => m.type === MSG.SYMBOL_TABLE || m.type === MSG.LINK_INFO || m.type === MSG.LINK || m.type === MSG.GROUP_INFO);

async function groupLinks(w: Walk, oh: ObjectHeader, what: string, rootTable: { btree: number; heap: number } | null): Promise<Link[]> {
  const o = w.ctx.sizeOfOffsets;
  const st = oh.messages.find((m) => m.type === MSG.SYMBOL_TABLE);
  const table = st ? parseSymbolTable(st.data, o, what) : rootTable;
  if (table !== null) return symbolTableLinks(w.ctx, table.btree, table.heap, w.signal);
  const links = oh.messages.filter((m) => m.type === MSG.LINK).map((m) => parseLink(m.data, o, what));
  const info = oh.messages.find((m) => m.type === MSG.LINK_INFO);
  if (info !== undefined) {
    const dense = parseLinkInfo(info.data, o, what);
    if (dense.heap >= 0) links.push(...(await denseLinks(w.ctx, dense, what, w.signal)));
  }
  return sortLinks(links);
}

const skipUnsupported = (err: unknown): null => {
  if (isRastileError(err, 'UnsupportedFeature')) return null;
  throw err;
};

/** Compact and dense attributes; one we cannot parse (shared dataspace…) is left out. */
export async function readAttributes(ctx: FileContext, oh: ObjectHeader, what: string, signal?: AbortSignal): Promise<RawAttribute[]> {
  const sizes = { o: ctx.sizeOfOffsets, l: ctx.sizeOfLengths };
  const out: RawAttribute[] = [];
  for (const m of oh.messages) {
    if (m.type !== MSG.ATTRIBUTE) continue;
    try {
      out.push(parseAttribute(m.data, sizes, what));
    } catch (err) {
      skipUnsupported(err);
    }
  }
  const info = oh.messages.find((m) => m.type === MSG.ATTRIBUTE_INFO);
  if (info !== undefined) out.push(...(await denseAttributes(ctx, parseAttributeInfo(info.data, sizes.o, what), what, signal)));
  return out;
}

/** Attributes that are references (dimension-scale bookkeeping) are left out of the listing. */
const REFERENCE_ATTRS = new Set(['DIMENSION_LIST', 'REFERENCE_LIST']);

async function decodeAll(ctx: FileContext, raw: RawAttribute[], signal?: AbortSignal): Promise<Record<string, AttrValue>> {
  const kept = raw.filter((a) => !REFERENCE_ATTRS.has(a.name));
  // Most attributes decode synchronously (decodeAttribute): promises only for the others.
  let pending = false;
  const decoded = kept.map((a): AttrValue | Promise<AttrValue | null> => {
    try {
      const v = decodeAttribute(ctx, a, signal);
      if (!(v instanceof Promise)) return v;
      pending = true;
      return v.catch(skipUnsupported);
    } catch (err) {
      return skipUnsupported(err);
    }
  });
  const values = pending ? await Promise.all(decoded.map((v) => (v instanceof Promise ? v : Promise.resolve(v)))) : (decoded as AttrValue[]);
  const out: Record<string, AttrValue> = {};
  // defineProperty: an attribute named __proto__ stays an attribute
  kept.forEach((a, i) => Object.defineProperty(out, a.name, { value: values[i], enumerable: true, writable: true, configurable: true }));
  return out;
}
