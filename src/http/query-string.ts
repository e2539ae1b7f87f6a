/**
 * The request's own query string, minus some keys (case-insensitive), order and repeats kept:
 * what TiTiler copies into links (tile URLs, self links, map pages).
 */
export function queryPairs(url: string, drop: readonly string[]): Array<[string, string]> {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const lower = new Set(drop.map((d) => d.toLowerCase()));
  return [...new URLSearchParams(url.slice(q + 1))].filter(([k]) => !lower.has(k.toLowerCase()));
}

/** `?a=1&b=2` (or '' when empty), form-encoded like Python's urlencode. */
export function encodePairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return '';
  return `?${new URLSearchParams(pairs as Array<[string, string]>).toString()}`;
}

export function queryString(url: string, drop: readonly string[]): string {
  return encodePairs(queryPairs(url, drop));
}
