/**
 * The request's own query string, minus some keys (case-insensitive), order and repeats kept:
 * what TiTiler copies into links (tile URLs, self links, map pages), re-encoded like Python's
 * `urlencode` (Starlette/TiTiler build these links with it).
 */
export function queryPairs(url: string, drop: readonly string[]): Array<[string, string]> {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const lower = new Set(drop.map((d) => d.toLowerCase()));
  return [...new URLSearchParams(url.slice(q + 1))].filter(([k]) => !lower.has(k.toLowerCase()));
}

/**
 * Python's `urllib.parse.quote_plus` (safe: letters, digits, `_.-~`; space → `+`). Hand-written:
 * URLSearchParams (the WHATWG form encoder) differs on `*` (kept raw) and `~` (escaped).
 */
function quotePlus(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const safe =
      (byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      byte === 0x5f ||
      byte === 0x2e ||
      byte === 0x2d ||
      byte === 0x7e;
    if (safe) out += String.fromCharCode(byte);
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Python's `urlencode(pairs)` (no leading `?`). */
export function pyUrlencode(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join('&');
}

/** `?a=1&b=2` (or '' when empty), encoded like Python's urlencode. */
export function encodePairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.length === 0 ? '' : `?${pyUrlencode(pairs)}`;
}

export function queryString(url: string, drop: readonly string[]): string {
  return encodePairs(queryPairs(url, drop));
}
