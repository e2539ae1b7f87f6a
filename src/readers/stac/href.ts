/**
 * Asset hrefs relative to the item (pystac's `get_absolute_href`): a relative href resolves
 * against the item's own location, whether that is a local path, a file:// URL, http(s):// or
 * s3://. Absolute URLs and absolute local paths are kept (for a remote item an absolute path
 * is a path on the item's server). The result goes through the same source policy as any `url`.
 */
import path from 'node:path';

/** A URL scheme of two letters or more (so a Windows drive letter is not one), like src/sources/location.ts. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

export function resolveHref(href: string, itemLocation: string): string {
  if (SCHEME.test(href) || href.startsWith('/vsicurl/') || href.startsWith('/vsis3/')) return href;
  let base = itemLocation;
  if (base.startsWith('/vsicurl/')) base = base.slice('/vsicurl/'.length);
  else if (base.startsWith('/vsis3/')) base = `s3://${base.slice('/vsis3/'.length)}`;
  if (SCHEME.test(base)) return new URL(href, base).href;
  if (path.isAbsolute(href)) return href;
  return path.resolve(path.dirname(path.resolve(base)), href);
}
