/**
 * Finds the arrays and groups of a Zarr store from its metadata documents, and puts every
 * document into the store's `known` map so zarrita opens nodes without another request:
 * - v3: the root zarr.json; its `consolidated_metadata` when present;
 * - v2: `.zmetadata` (consolidated) when present, else `.zgroup`/`.zattrs`/`.zarray`;
 * - without consolidated metadata the children of a group are found with `list` (a directory
 *   listing, e.g. for local stores); a store that cannot be listed (HTTP, S3) is probed for the
 *   variables a request names (`hints`, zarr-probe.ts); with no names it answers a clear 400
 *   saying what to pass.
 * The store's version is the version of the document that describes it (zarr.json or .zmetadata,
 * else .zgroup/.zarray): a changed document is a new version.
 */
import { createHash } from 'node:crypto';
import { Errors } from '../../errors.ts';
import { parseLooseJson, strictJson } from './loose-json.ts';
import { probeZarrNodes } from './zarr-probe.ts';
import { readWhole, type SourceStore } from './source-store.ts';
import { storeDisplay } from './store-keys.ts';

export interface ZarrNode {
  /** '' for the root, else 'a/b' (no leading slash). */
  readonly path: string;
  readonly kind: 'array' | 'group';
}

export interface ZarrTree {
  readonly format: 2 | 3;
  readonly nodes: readonly ZarrNode[];
  readonly version: string;
  readonly consolidated: boolean;
  /** Set when the store could not be listed: the names it was probed for (the tree holds only what they found). */
  readonly probed?: readonly string[];
  /** Every metadata document by store key ('/sst/.zarray', '/sst/zarr.json'), NaN/Infinity as numbers. */
  readonly docs: ReadonlyMap<string, Record<string, unknown>>;
}

/** Lists the names of the entries directly under a location (a directory), or null when it cannot. */
export type ListChildren = (location: string, signal?: AbortSignal) => Promise<readonly string[] | null>;

/** Consolidated metadata of a huge store is refused beyond this size. */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;
const MAX_NODES = 100_000;
const encoder = new TextEncoder();

interface Doc {
  bytes: Uint8Array;
  json: Record<string, unknown>;
  version: string;
}

/** The message of a store that has no consolidated metadata and cannot be listed, when no variable is named. */
export function unlistableMessage(base: string, format?: 2 | 3): string {
  const where = format === 2 ? '.zmetadata' : format === 3 ? 'consolidated_metadata in zarr.json' : '.zmetadata or consolidated_metadata in zarr.json';
  return (
    `The Zarr store at ${storeDisplay(base)} has no consolidated metadata (${where}) and cannot be listed over the network: ` +
    'name the variables to read (variable=… on /zarr, variables=… on /array; their coordinates are found from their dimensions), ' +
    'or consolidate the store (zarr.consolidate_metadata)'
  );
}

export async function discoverZarr(store: SourceStore, list: ListChildren | undefined, signal?: AbortSignal, hints: readonly string[] = []): Promise<ZarrTree> {
  const fail = (msg: string): never => {
    throw Errors.invalidFormat(`Invalid Zarr store: ${msg}`, { context: { url: store.base } });
  };
  const docs = new Map<string, Record<string, unknown>>();
  const keep = (key: string, doc: unknown): void => {
    docs.set(key, doc as Record<string, unknown>);
    store.known.set(key, encoder.encode(strictJson(doc)));
  };
  const read = async (key: string): Promise<Doc | null> => {
    const src = await store.source(key, signal);
    if (src === null) return null;
    if ((src.size ?? 0) > MAX_METADATA_BYTES) fail(`${key.slice(1)} is larger than ${MAX_METADATA_BYTES} bytes`);
    const bytes = await readWhole(src, signal);
    let json: unknown;
    try {
      json = parseLooseJson(new TextDecoder().decode(bytes));
    } catch (err) {
      return fail(`${key.slice(1)} is not valid JSON (${(err as Error).message})`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail(`${key.slice(1)} is not a JSON object`);
    keep(key, json);
    return { bytes, json: json as Record<string, unknown>, version: src.version ?? `sha1:${createHash('sha1').update(bytes).digest('hex')}` };
  };
  const remember = (key: string, doc: unknown): void => {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail(`the consolidated entry ${key.slice(1)} is not a JSON object`);
    keep(key, doc);
  };
  const done = (tree: Omit<ZarrTree, 'docs'>): ZarrTree => {
    store.metadataComplete = true;
    return { ...tree, docs };
  };

  const v3 = await read('/zarr.json');
  if (v3 !== null) {
    if (v3.json['zarr_format'] !== 3) fail(`zarr.json has zarr_format ${JSON.stringify(v3.json['zarr_format'])}, expected 3`);
    const type = v3.json['node_type'];
    if (type === 'array') return done({ format: 3, nodes: [{ path: '', kind: 'array' }], version: v3.version, consolidated: false });
    if (type !== 'group') fail(`zarr.json has node_type ${JSON.stringify(type)}`);
    const cm = v3.json['consolidated_metadata'] as { metadata?: unknown } | null | undefined;
    if (typeof cm === 'object' && cm !== null && typeof cm.metadata === 'object' && cm.metadata !== null) {
      const nodes: ZarrNode[] = [{ path: '', kind: 'group' }];
      for (const [k, doc] of Object.entries(cm.metadata as Record<string, unknown>)) {
        const path = k.replace(/^\/+|\/+$/g, '');
        const kind = (doc as { node_type?: unknown } | null)?.node_type;
        if (kind !== 'array' && kind !== 'group') fail(`the consolidated entry ${path} has node_type ${JSON.stringify(kind)}`);
        remember(`/${path}/zarr.json`, doc);
        nodes.push({ path, kind: kind as 'array' | 'group' });
      }
      return done({ format: 3, nodes, version: v3.version, consolidated: true });
    }
    const found = await walk(store, list, 3, read, fail, hints, signal);
    return done({ format: 3, ...found, version: v3.version, consolidated: false });
  }

  const zmeta = await read('/.zmetadata');
  if (zmeta !== null) {
    const meta = zmeta.json['metadata'];
    if (zmeta.json['zarr_consolidated_format'] !== 1 || typeof meta !== 'object' || meta === null) {
      fail('.zmetadata is not consolidated metadata (zarr_consolidated_format 1)');
    }
    const nodes: ZarrNode[] = [];
    for (const [k, doc] of Object.entries(meta as Record<string, unknown>)) {
      remember(`/${k}`, doc);
      const m = /^(?:(.*)\/)?\.(zarray|zgroup)$/.exec(k);
      if (m !== null) nodes.push({ path: m[1] ?? '', kind: m[2] === 'zarray' ? 'array' : 'group' });
    }
    if (!nodes.some((n) => n.path === '')) fail('.zmetadata describes no root .zgroup or .zarray');
    return done({ format: 2, nodes, version: zmeta.version, consolidated: true });
  }

  const zarray = await read('/.zarray');
  const zgroup = zarray === null ? await read('/.zgroup') : null;
  const rootDoc = zarray ?? zgroup;
  if (rootDoc === null) {
    throw Errors.sourceNotFound(`No Zarr store at ${storeDisplay(store.base)}: none of zarr.json, .zmetadata, .zgroup or .zarray exists there`, {
      context: { url: store.base },
    });
  }
  await read('/.zattrs');
  if (zarray !== null) return done({ format: 2, nodes: [{ path: '', kind: 'array' }], version: zarray.version, consolidated: false });
  const found = await walk(store, list, 2, read, fail, hints, signal);
  return done({ format: 2, ...found, version: rootDoc.version, consolidated: false });
}

/**
 * The nodes under the root group of an unconsolidated store, found by listing directories; a
 * store that cannot be listed is probed for `hints` instead (then `probed` is set).
 */
async function walk(
  store: SourceStore,
  list: ListChildren | undefined,
  format: 2 | 3,
  read: (key: string) => Promise<Doc | null>,
  fail: (msg: string) => never,
  hints: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ nodes: ZarrNode[]; probed?: readonly string[] }> {
  const nodes: ZarrNode[] = [{ path: '', kind: 'group' }];
  const rootNames = list === undefined ? null : await list(store.base, signal);
  if (rootNames === null) {
    if (hints.length === 0) throw Errors.badRequest(unlistableMessage(store.base, format), { context: { url: store.base } });
    return { nodes: await probeZarrNodes(format, hints, read), probed: [...hints] };
  }
  const noList = (): never => {
    throw Errors.badRequest(unlistableMessage(store.base, format), { context: { url: store.base } });
  };
  const groups = [''];
  while (groups.length > 0) {
    const group = groups.shift()!;
    const names = group === '' ? rootNames : ((await list!(`${store.base.replace(/\/+$/, '')}/${group}`, signal)) ?? noList());
    for (const name of [...names].sort()) {
      if (name.startsWith('.') || name === 'zarr.json') continue;
      const path = group === '' ? name : `${group}/${name}`;
      let kind: 'array' | 'group' | undefined;
      if (format === 3) {
        const doc = await read(`/${path}/zarr.json`);
        const t = doc?.json['node_type'];
        if (doc !== null && t !== 'array' && t !== 'group') fail(`${path}/zarr.json has node_type ${JSON.stringify(t)}`);
        kind = t as 'array' | 'group' | undefined;
      } else {
        kind = (await read(`/${path}/.zarray`)) !== null ? 'array' : (await read(`/${path}/.zgroup`)) !== null ? 'group' : undefined;
        if (kind !== undefined) await read(`/${path}/.zattrs`);
      }
      if (kind === undefined) continue;
      nodes.push({ path, kind });
      if (nodes.length > MAX_NODES) fail(`more than ${MAX_NODES} arrays and groups`);
      if (kind === 'group') groups.push(path);
    }
  }
  return { nodes };
}
