/**
 * Zarr store keys as dataset locations: a key ('/sst/.zarray', '/sst/c/0/1') resolved against the
 * store's base location (a local path, file://, http(s)://, s3://, /vsicurl/, /vsis3/), so every
 * object of the store is read through the ordinary source opener (local roots, network policy,
 * Earthdata auth, caches).
 */

const REMOTE = /^(https?:\/\/|s3:\/\/|file:\/\/|\/vsicurl\/|\/vsis3\/)/i;

/** The location of store key `key` (absolute, '/'-separated) under the store at `base`. */
export function resolveStoreKey(base: string, key: string): string {
  const rel = key.replace(/^\/+/, '');
  if (rel === '') return base;
  const http = /^(https?:\/\/|\/vsicurl\/)/i.test(base);
  if (http) {
    // Keep a query string (signed URLs) after the path; encode each key segment.
    const q = base.indexOf('?');
    const pathPart = q < 0 ? base : base.slice(0, q);
    const query = q < 0 ? '' : base.slice(q);
    return `${pathPart.replace(/\/+$/, '')}/${rel.split('/').map(encodeURIComponent).join('/')}${query}`;
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
