/**
 * Zarr store keys as dataset locations: a key ('/sst/.zarray', '/sst/c/0/1') resolved against the
 * store's base location (a local path, file://, http(s)://, s3://, /vsicurl/, /vsis3/), so every
 * object of the store is read through the ordinary source opener (local roots, network policy,
 * Earthdata auth, caches).
 */

const REMOTE = /^(https?:\/\/|s3:\/\/|file:\/\/|\/vsicurl\/|\/vsis3\/)/i;
/** Locations whose `?…` is a query string (elsewhere `?` is part of a file or key name). */
const WITH_QUERY = /^(https?:\/\/|\/vsicurl\/)/i;

/** `location` split into its path part and its query (`?…`; http(s) and /vsicurl/ only, '' otherwise). */
function splitQuery(location: string): { path: string; query: string } {
  const q = WITH_QUERY.test(location) ? location.indexOf('?') : -1;
  return q < 0 ? { path: location, query: '' } : { path: location.slice(0, q), query: location.slice(q) };
}

/** The location of store key `key` (absolute, '/'-separated) under the store at `base`. */
export function resolveStoreKey(base: string, key: string): string {
  const rel = key.replace(/^\/+/, '');
  if (rel === '') return base;
  if (WITH_QUERY.test(base)) {
    // Keep a query string (signed URLs) after the path; encode each key segment.
    const { path, query } = splitQuery(base);
    return `${path.replace(/\/+$/, '')}/${rel.split('/').map(encodeURIComponent).join('/')}${query}`;
  }
  if (/^file:\/\//i.test(base)) return `${base.replace(/\/+$/, '')}/${rel.split('/').map(encodeURIComponent).join('/')}`;
  // Local paths and S3 keys take the key literally.
  return `${base.replace(/\/+$/, '')}/${rel}`;
}

/** True when the location looks like a Zarr store by its name (`….zarr`, `….zarr/`, `….zr3`). */
export function isZarrLocation(location: string): boolean {
  const pathPart = REMOTE.test(location) && /^https?:/i.test(location) ? location.split(/[?#]/)[0]! : location;
  return /\.(zarr|zr3)\/*$/i.test(pathPart);
}

/**
 * The store a location names by its path (`….zarr`, `….zarr/`, or one of the store's root
 * metadata documents `…/zarr.json`, `.zmetadata`, `.zgroup`, `.zarray`), without a trailing slash
 * and with its query string kept (a presigned URL: `https://h/s.zarr/.zmetadata?sig` → `https://h/s.zarr?sig`);
 * null when the path does not say Zarr.
 */
export function zarrStoreRoot(location: string): string | null {
  const { path, query } = splitQuery(location);
  if (/\.zarr\/?$/i.test(path)) return `${path.replace(/\/$/, '')}${query}`;
  const doc = /\/(zarr\.json|\.zmetadata|\.zgroup|\.zarray)$/.exec(path);
  return doc === null ? null : `${path.slice(0, doc.index)}${query}`;
}

/** The store's location for messages: an http(s) URL without its query (a presigned URL's signature, a token). */
export function storeDisplay(location: string): string {
  return splitQuery(location).path;
}

/** `location` without one trailing slash of its path (the query, if any, kept). */
export function trimStoreSlash(location: string): string {
  const { path, query } = splitQuery(location);
  return `${path.replace(/\/$/, '')}${query}`;
}
