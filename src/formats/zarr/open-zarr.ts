/**
 * Opens a Zarr v2 or v3 store as an ArrayFile. Every object is read through `openSource` (the
 * application's source opener: local roots, http(s) with Earthdata rules, s3, byte cache); the
 * metadata once (consolidated when present), then only the chunks a read asks for, decoded by
 * zarrita (zlib/gzip on node:zlib, blosc/zstd/lz4 from numcodecs' wasm, bytes/endianness,
 * transpose, shuffle/delta, sharding). No decoded chunk is cached here.
 */
import * as zarr from 'zarrita';
import { Errors, isRastileError } from '../../errors.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable, AttrValue } from '../array/array-model.ts';
import { registerNodeZlibCodecs } from './node-zlib-codecs.ts';
import { SourceStore, type OpenSource } from './source-store.ts';
import { discoverZarr, type ListChildren, type ZarrNode, type ZarrTree } from './zarr-hierarchy.ts';
import { strictJson } from './loose-json.ts';
import { asUint16Doc, storedTypeOf } from './zarr-dtypes.ts';
import { zarrVariable } from './zarr-variable.ts';

export type { ListChildren } from './zarr-hierarchy.ts';
export type { OpenSource } from './source-store.ts';

export interface OpenZarrOptions {
  /** Lists a directory of an unconsolidated store (local stores); without it such stores answer 400. */
  list?: ListChildren;
  /**
   * Variable paths ('sst', 'grp/sst') to look for when the store cannot be listed (no consolidated
   * metadata, no listing): the file then holds those, the arrays they refer to, and `probed`.
   */
  hints?: readonly string[];
}

interface MutableGroup extends ArrayGroup {
  readonly variables: Map<string, ArrayVariable>;
  readonly groups: Map<string, MutableGroup>;
}

export async function openZarr(location: string, openSource: OpenSource, signal?: AbortSignal, options: OpenZarrOptions = {}): Promise<ArrayFile> {
  registerNodeZlibCodecs();
  const store = new SourceStore(location, openSource);
  const tree = await discoverZarr(store, options.list, signal, options.hints);
  const phony = new Map<number, string>();
  const root = group('', '/', groupAttrs(tree, ''));
  const groups = new Map<string, MutableGroup>([['', root]]);
  const groupOf = (path: string): MutableGroup => {
    const hit = groups.get(path);
    if (hit !== undefined) return hit;
    const slash = path.lastIndexOf('/');
    const parent = groupOf(slash < 0 ? '' : path.slice(0, slash));
    const g = group(path.slice(slash + 1), `/${path}`, groupAttrs(tree, path));
    parent.groups.set(g.name, g);
    groups.set(path, g);
    return g;
  };
  for (const node of tree.nodes) {
    if (node.kind === 'group') {
      groupOf(node.path);
      continue;
    }
    const slash = node.path.lastIndexOf('/');
    const parent = groupOf(slash < 0 ? '' : node.path.slice(0, slash));
    const name = node.path === '' ? storeName(location) : node.path.slice(slash + 1);
    parent.variables.set(name, await openVariable(store, tree, node, name, phony, signal));
  }
  return { location, version: tree.version, driver: 'Zarr', root, ...(tree.probed !== undefined ? { probed: tree.probed } : {}) };
}

/** Which Zarr version lives at `location` (by its metadata documents), or null when none does. */
export async function probeZarr(location: string, openSource: OpenSource, signal?: AbortSignal): Promise<2 | 3 | null> {
  const store = new SourceStore(location, openSource);
  if ((await store.source('/zarr.json', signal)) !== null) return 3;
  for (const key of ['/.zmetadata', '/.zgroup', '/.zarray']) if ((await store.source(key, signal)) !== null) return 2;
  return null;
}

function group(name: string, path: string, attrs: Record<string, AttrValue>): MutableGroup {
  return { name, path, attrs, variables: new Map(), groups: new Map() };
}

const metaKey = (path: string, file: string): string => (path === '' ? `/${file}` : `/${path}/${file}`);

function groupAttrs(tree: ZarrTree, path: string): Record<string, AttrValue> {
  const doc = tree.format === 3 ? tree.docs.get(metaKey(path, 'zarr.json'))?.['attributes'] : tree.docs.get(metaKey(path, '.zattrs'));
  return toAttrs(doc);
}

/** A store's name as a variable name when the store itself is one array ('sst.zarr' → 'sst'). */
function storeName(location: string): string {
  const last = location.split(/[?#]/)[0]!.replace(/\/+$/, '').split('/').pop() ?? '';
  return last.replace(/\.(zarr|zr3)$/i, '') || 'data';
}

async function openVariable(
  store: SourceStore,
  tree: ZarrTree,
  node: ZarrNode,
  name: string,
  phony: Map<number, string>,
  signal?: AbortSignal,
): Promise<ArrayVariable> {
  const path = `/${node.path === '' ? name : node.path}`;
  const where = { context: { url: store.base, variable: path } };
  const metaDocKey = metaKey(node.path, tree.format === 3 ? 'zarr.json' : '.zarray');
  const stored = storedTypeOf(tree.docs.get(metaDocKey) ?? {});
  if (stored.kind === 'unreadable') return unreadableVariable(tree, node, name, path, stored.name, phony, store.base);
  if (stored.kind === 'float16') store.known.set(metaDocKey, new TextEncoder().encode(strictJson(asUint16Doc(tree.docs.get(metaDocKey)!))));
  const loc = new zarr.Location(store, node.path === '' ? '/' : `/${node.path}`);
  let arr: zarr.Array<zarr.DataType, SourceStore>;
  try {
    arr =
      tree.format === 3
        ? await zarr.open.v3(loc, { kind: 'array', ...(signal ? { signal } : {}) })
        : await zarr.open.v2(loc, { kind: 'array', ...(signal ? { signal } : {}) });
  } catch (err) {
    if (isRastileError(err)) throw err;
    throw Errors.invalidFormat(`Zarr array "${path}" has metadata this server cannot read: ${(err as Error).message}`, { ...where, cause: err });
  }
  const { shape, chunks } = arr;
  const bad = (xs: unknown, min: number): boolean => !Array.isArray(xs) || xs.some((x) => !Number.isSafeInteger(x) || (x as number) < min);
  if (bad(shape, 0) || bad(chunks, 1) || chunks.length !== shape.length || chunks.reduce((a, b) => a * b, 1) > 2 ** 32) {
    throw Errors.invalidFormat(`Zarr array "${path}" has an invalid shape ${JSON.stringify(shape)} or chunk shape ${JSON.stringify(chunks)}`, where);
  }
  const meta = tree.docs.get(metaDocKey) ?? {};
  const { attrs, dims } = attrsAndDims(tree, node, shape, phony);
  const unknownCodec = codecLookups(tree.format, meta).find((c) => !zarr.registry.has(c));
  return zarrVariable(arr, {
    name,
    path,
    dims,
    attrs,
    filters: filterNames(tree.format, meta),
    location: store.base,
    ...(unknownCodec !== undefined ? { unknownCodec: unknownCodec.replace(/^numcodecs\./, '') } : {}),
    ...(stored.kind === 'float16' ? { float16: { fillValue: stored.fillValue } } : {}),
  });
}

/** A variable's attributes (without `_ARRAY_DIMENSIONS`) and dimension names. */
function attrsAndDims(
  tree: ZarrTree,
  node: ZarrNode,
  shape: readonly number[],
  phony: Map<number, string>,
): { attrs: Record<string, AttrValue>; dims: string[] } {
  const meta = tree.docs.get(metaKey(node.path, tree.format === 3 ? 'zarr.json' : '.zarray')) ?? {};
  const attrs = tree.format === 3 ? toAttrs(meta['attributes']) : toAttrs(tree.docs.get(metaKey(node.path, '.zattrs')));
  const named = tree.format === 3 ? meta['dimension_names'] : attrs['_ARRAY_DIMENSIONS'];
  delete attrs['_ARRAY_DIMENSIONS'];
  const dims = shape.map((len, k) => {
    const n = Array.isArray(named) && named.length === shape.length ? (named as unknown[])[k] : undefined;
    if (typeof n === 'string' && n !== '') return n;
    // netCDF-C's rule for unnamed HDF5 axes: one phony_dim_<i> per distinct length.
    if (!phony.has(len)) phony.set(len, `phony_dim_${phony.size}`);
    return phony.get(len)!;
  });
  return { attrs, dims };
}

/** A variable whose values cannot be read as numbers (complex): listed, and a clear 400 when read. */
function unreadableVariable(
  tree: ZarrTree,
  node: ZarrNode,
  name: string,
  path: string,
  storedType: string,
  phony: Map<number, string>,
  location: string,
): ArrayVariable {
  const meta = tree.docs.get(metaKey(node.path, tree.format === 3 ? 'zarr.json' : '.zarray')) ?? {};
  const ints = (xs: unknown): number[] | null =>
    Array.isArray(xs) && xs.every((x) => Number.isSafeInteger(x) && (x as number) >= 0) ? (xs as number[]) : null;
  const shape = ints(meta['shape']);
  const grid = meta['chunk_grid'] as { configuration?: { chunk_shape?: unknown } } | undefined;
  const chunks = ints(tree.format === 3 ? grid?.configuration?.chunk_shape : meta['chunks']);
  if (shape === null || chunks === null || chunks.length !== shape.length) {
    throw Errors.invalidFormat(`Zarr array "${path}" has an invalid shape or chunk shape`, { context: { url: location, variable: path } });
  }
  const { attrs, dims } = attrsAndDims(tree, node, shape, phony);
  return {
    name,
    path,
    dims,
    shape,
    chunkShape: chunks.map((c) => Math.max(1, c)),
    dtype: 'other',
    storedType,
    attrs,
    fillValue: null,
    filters: filterNames(tree.format, meta),
    readChunk: () =>
      Promise.reject(
        Errors.badRequest(`Zarr variable "${path}" has data type ${storedType}, which cannot be read as numbers`, {
          context: { url: location, variable: path },
        }),
      ),
  };
}

/**
 * The registry names zarrita will look up for an array's codecs. Checked before any read: zarrita
 * loads codecs in parallel and awaits them in order, so a second unknown codec would reject
 * unobserved (an unhandled rejection that can end the process) while the first is awaited.
 */
function codecLookups(format: 2 | 3, meta: Record<string, unknown>): string[] {
  const out: string[] = [];
  const idOf = (c: unknown, key: 'id' | 'name'): string => String(typeof c === 'object' && c !== null ? (c as Record<string, unknown>)[key] : undefined);
  if (format === 2) {
    const filters = meta['filters'] ?? [];
    // zarrita iterates whatever `filters` is (a string's characters too): only lists are read.
    if (!Array.isArray(filters)) return ['invalid filters'];
    for (const f of filters as unknown[]) {
      const id = idOf(f, 'id');
      out.push(id === 'fixedscaleoffset' || id === 'numcodecs.fixedscaleoffset' ? 'scale_offset' : `numcodecs.${id}`);
    }
    if (meta['compressor'] !== null && meta['compressor'] !== undefined) out.push(`numcodecs.${idOf(meta['compressor'], 'id')}`);
    return out;
  }
  const walk = (codecs: unknown): void => {
    if (!Array.isArray(codecs)) {
      if (codecs !== undefined) out.push('invalid codecs');
      return;
    }
    for (const c of codecs) {
      const name = idOf(c, 'name');
      if (name === 'sharding_indexed') {
        const cfg = (c as { configuration?: { codecs?: unknown; index_codecs?: unknown } }).configuration;
        walk(cfg?.codecs);
        walk(cfg?.index_codecs);
      } else out.push(name);
    }
  };
  walk(meta['codecs']);
  return out;
}

/** Codec names for listings: v2 filters then compressor; v3 codecs (inner codecs of a shard too). */
function filterNames(format: 2 | 3, meta: Record<string, unknown>): string[] {
  const idOf = (c: unknown): string | undefined =>
    typeof c === 'object' && c !== null ? ((c as { id?: unknown; name?: unknown })[format === 2 ? 'id' : 'name'] as string | undefined) : undefined;
  if (format === 2) {
    const filters = Array.isArray(meta['filters']) ? (meta['filters'] as unknown[]) : [];
    return [...filters, meta['compressor']].map(idOf).filter((x): x is string => typeof x === 'string');
  }
  const out: string[] = [];
  const walk = (codecs: unknown): void => {
    if (!Array.isArray(codecs)) return;
    for (const c of codecs) {
      const name = idOf(c);
      if (name === undefined || name === 'bytes') continue;
      out.push(name);
      if (name === 'sharding_indexed') walk((c as { configuration?: { codecs?: unknown } }).configuration?.codecs);
    }
  };
  walk(meta['codecs']);
  return out;
}

/** Attributes as AttrValues: scalars, lists of numbers or strings; anything else as JSON text. */
function toAttrs(doc: unknown): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return out;
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number')) out[k] = v as number[];
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v as string[];
    else out[k] = JSON.stringify(v);
  }
  return out;
}
