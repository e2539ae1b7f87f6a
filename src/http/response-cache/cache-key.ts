/**
 * Keys of the response cache, in two steps:
 * - the request key: method, route template, the normalised parameters (parsed values, so
 *   defaults, aliases and number spellings give one key and unknown parameters none; or the exact
 *   query string for routes whose answer echoes it), the headers the route varies on, the POST
 *   body and the rastile version;
 * - the response key: the request key plus the version of every input the response read
 *   (src/util/read-set.ts) and the request inputs it used (the base URL of links). The ETag is
 *   the response key, so a changed file gives another ETag.
 */
import { createHash } from 'node:crypto';
import { RASTILE_VERSION } from '../../version.ts';
import type { ReadDep } from '../../util/read-set.ts';

/**
 * A canonical text of a parsed parameter value: keys sorted, Maps and typed arrays spelled out.
 * Returns undefined for values it cannot spell faithfully (functions, class instances): the
 * caller then keys on the exact query string instead.
 */
export function canonical(value: unknown): string | undefined {
  if (value === undefined) return 'u';
  if (value === null) return 'n';
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? 'd-0' : `d${value}`;
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'bigint':
      return `i${value}`;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (Array.isArray(value)) return list(value, '[', ']');
  if (ArrayBuffer.isView(value)) {
    return value instanceof DataView ? undefined : list(Array.from(value as unknown as ArrayLike<number | bigint>), `${value.constructor.name}(`, ')');
  }
  if (value instanceof Map) return list([...value.entries()], 'M(', ')');
  if (value instanceof Set) return list([...value.values()], 'S(', ')');
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const v = canonical((value as Record<string, unknown>)[key]);
    if (v === undefined) return undefined;
    parts.push(`${JSON.stringify(key)}:${v}`);
  }
  return `{${parts.join(',')}}`;
}

function list(values: readonly unknown[], open: string, close: string): string | undefined {
  const parts: string[] = [];
  for (const v of values) {
    const c = canonical(v);
    if (c === undefined) return undefined;
    parts.push(c);
  }
  return `${open}${parts.join(',')}${close}`;
}

export interface RequestKeyParts {
  method: string;
  /** The route's path template. */
  route: string;
  /** Canonical parsed parameters, or the exact path and query string. */
  params: string;
  /** Values of the headers the route varies on, in its order. */
  vary: readonly string[];
  /** Canonical POST body ('' for GET). */
  body: string;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 32);

/** The request key (a 32-character digest). */
export function requestKey(p: RequestKeyParts): string {
  return digest([RASTILE_VERSION, p.method, p.route, p.params, ...p.vary, p.body].join('\u0000'));
}

/** The response key from the request key, the versions of what was read, and the base URL when links use it. */
export function responseKey(reqKey: string, deps: readonly ReadDep[], baseUrl: string | undefined): string {
  const parts = [reqKey, baseUrl ?? ''];
  for (const d of deps) parts.push(d.kind, d.location, d.version);
  return digest(parts.join('\u0000'));
}

/** The strong ETag of a response key. */
export const etagOf = (respKey: string): string => `"${respKey}"`;

/** Whether an If-None-Match header names `etag` (or is `*`); weak validators compare weakly, as RFC 9110 wants for it. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}
