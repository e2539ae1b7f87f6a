/**
 * Where the response cache keeps its records: what a request read (per request key) and the
 * responses (per response key). The in-process store is a byte-capped LRU; the Redis store
 * (redis-store.ts) is shared by workers and replicas.
 */
import { LruCache } from '../../util/lru-cache.ts';

/** What a request read: the inputs whose current versions make its response key. */
export interface CacheMeta {
  /** [kind, location] of each versioned input, in the ReadSet's order. */
  deps: Array<[string, string]>;
  /** The response's links use the request's scheme and host. */
  base: boolean;
  /** The response is an image (tile, preview): its Cache-Control class, also for 304 answers. */
  image?: boolean;
}

export interface CachedResponse {
  contentType: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Serialised form (Redis): 4-byte header length, header JSON, body. */
export function encodeResponse(r: CachedResponse): Buffer {
  const head = Buffer.from(JSON.stringify({ t: r.contentType, h: r.headers }));
  const len = Buffer.allocUnsafe(4);
  len.writeUInt32BE(head.length, 0);
  return Buffer.concat([len, head, r.body]);
}

export function decodeResponse(buf: Buffer): CachedResponse | undefined {
  if (buf.length < 4) return undefined;
  const n = buf.readUInt32BE(0);
  if (4 + n > buf.length) return undefined;
  try {
    const head = JSON.parse(buf.subarray(4, 4 + n).toString()) as { t: string; h: Record<string, string> };
    return { contentType: head.t, headers: head.h, body: buf.subarray(4 + n) };
  } catch {
    return undefined;
  }
}

export function encodeMeta(m: CacheMeta): string {
  return JSON.stringify(m);
}

export function decodeMeta(text: string): CacheMeta | undefined {
  try {
    const m = JSON.parse(text) as CacheMeta;
    return Array.isArray(m.deps) && typeof m.base === 'boolean' ? m : undefined;
  } catch {
    return undefined;
  }
}

const META_OVERHEAD = 256;
const RESPONSE_OVERHEAD = 512;

type Record_ = { meta: CacheMeta; size: number } | { response: CachedResponse };

/** The in-process store: one LRU over records and responses, bounded in bytes. */
export class MemoryStore {
  private readonly lru: LruCache<string, Record_>;

  constructor(maxBytes: number) {
    this.lru = new LruCache<string, Record_>(maxBytes, (r) => ('meta' in r ? r.size : r.response.body.length + RESPONSE_OVERHEAD));
  }

  get bytes(): number {
    return this.lru.usedBytes;
  }

  get entries(): number {
    return this.lru.size;
  }

  getMeta(reqKey: string): CacheMeta | undefined {
    const r = this.lru.get(`m${reqKey}`);
    return r !== undefined && 'meta' in r ? r.meta : undefined;
  }

  getResponse(respKey: string): CachedResponse | undefined {
    const r = this.lru.get(`r${respKey}`);
    return r !== undefined && 'response' in r ? r.response : undefined;
  }

  putMeta(reqKey: string, meta: CacheMeta): void {
    let size = META_OVERHEAD;
    for (const [kind, location] of meta.deps) size += 2 * (kind.length + location.length) + 64;
    this.lru.set(`m${reqKey}`, { meta, size });
  }

  putResponse(respKey: string, response: CachedResponse): void {
    this.lru.set(`r${respKey}`, { response });
  }
}
