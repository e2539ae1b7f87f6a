/**
 * The nodes of a Zarr store that cannot be listed (no consolidated metadata, and HTTP/S3 have
 * no directory listing), found from the names a request gives: each named variable's own
 * metadata document (v2 `.zarray` + `.zattrs`, v3 `zarr.json`), then the arrays it points at —
 * its dimensions (`_ARRAY_DIMENSIONS`/`dimension_names`, for coordinate variables), its CF
 * `coordinates` and its `grid_mapping` — looked up from its group outwards (NetCDF scoping).
 * Names that exist nowhere are simply absent from the result; the caller says so.
 */
/** A node found ('' for the root, else 'a/b'), the same shape as zarr-hierarchy's ZarrNode. */
interface ZarrNode {
  readonly path: string;
  readonly kind: 'array' | 'group';
}

interface ProbeDoc {
  json: Record<string, unknown>;
}

/** Reads a metadata document of the store ('/sst/.zarray'), or null when it does not exist. */
export type ReadDoc = (key: string) => Promise<ProbeDoc | null>;

const MAX_PROBED = 256;

/** Names a variable's attributes point at (CF `coordinates`, `grid_mapping` in either form). */
function referencedNames(attrs: unknown): string[] {
  if (typeof attrs !== 'object' || attrs === null) return [];
  const out: string[] = [];
  for (const key of ['coordinates', 'grid_mapping']) {
    const a = (attrs as Record<string, unknown>)[key];
    if (typeof a === 'string') for (const n of a.split(/[\s:]+/)) if (n !== '') out.push(n);
  }
  return out;
}

const parentOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (group: string, name: string): string => (group === '' ? name : `${group}/${name}`);

/**
 * The nodes (root group first) found for `names` (store paths without a leading slash, e.g.
 * 'sst' or 'grp/sst'): each name that is an array or a group, the groups above them, and the
 * arrays the named arrays refer to.
 */
export async function probeZarrNodes(format: 2 | 3, names: readonly string[], readDoc: ReadDoc): Promise<ZarrNode[]> {
  const docs = new Map<string, Promise<ProbeDoc | null>>();
  const read = (key: string): Promise<ProbeDoc | null> => {
    let d = docs.get(key);
    if (d === undefined) docs.set(key, (d = readDoc(key)));
    return d;
  };
  const nodes = new Map<string, ZarrNode>([['', { path: '', kind: 'group' }]]);
  const tried = new Map<string, 'array' | 'group' | null>();
  /** What lives at `p` (reading its documents once). */
  const kindAt = async (p: string): Promise<'array' | 'group' | null> => {
    const known = tried.get(p);
    if (known !== undefined) return known;
    let kind: 'array' | 'group' | null = null;
    if (tried.size < MAX_PROBED) {
      if (format === 3) {
        const t = (await read(`/${p}/zarr.json`))?.json['node_type'];
        kind = t === 'array' || t === 'group' ? t : null;
      } else {
        kind = (await read(`/${p}/.zarray`)) !== null ? 'array' : (await read(`/${p}/.zgroup`)) !== null ? 'group' : null;
        if (kind !== null) await read(`/${p}/.zattrs`);
      }
    }
    tried.set(p, kind);
    return kind;
  };
  const add = async (p: string, kind: 'array' | 'group'): Promise<void> => {
    for (let g = parentOf(p); g !== '' && !nodes.has(g); g = parentOf(g)) if ((await kindAt(g)) === 'group') nodes.set(g, { path: g, kind: 'group' });
    nodes.set(p, { path: p, kind });
  };
  /** The array `name` as seen from `group`: that group's, else the nearest ancestor's. */
  const findFrom = async (group: string, name: string): Promise<void> => {
    for (let g = group; ; g = parentOf(g)) {
      const p = join(g, name);
      if (nodes.has(p) || (await kindAt(p)) === 'array') {
        if (!nodes.has(p)) await add(p, 'array');
        return;
      }
      if (g === '') return;
    }
  };
  for (const raw of names) {
    const p = raw.replace(/^\/+|\/+$/g, '');
    if (p === '' || nodes.has(p)) continue;
    const kind = await kindAt(p);
    if (kind === null) continue;
    await add(p, kind);
    if (kind === 'group') continue;
    const meta = format === 3 ? (await read(`/${p}/zarr.json`))?.json : (await read(`/${p}/.zattrs`))?.json;
    const dims = format === 3 ? meta?.['dimension_names'] : meta?.['_ARRAY_DIMENSIONS'];
    const attrs = format === 3 ? meta?.['attributes'] : meta;
    const refs = [...(Array.isArray(dims) ? dims.filter((d): d is string => typeof d === 'string' && d !== '') : []), ...referencedNames(attrs)];
    for (const r of new Set(refs)) await findFrom(parentOf(p), r);
  }
  return [...nodes.values()];
}
