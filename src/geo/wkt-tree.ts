/**
 * A minimal WKT (1 and 2) tokenizer into a keyword tree: `KEYWORD["text", 1.5, CHILD[...], ENUM]`.
 * Used to read authority codes and names out of WKT; the projection maths itself is proj4js's.
 * (wkt-parser inside proj4js flattens the tree into proj parameters and drops what we need here.)
 */
export interface WktNode {
  keyword: string;
  /** Children in order: quoted strings, numbers, bare words (enums like EAST) and nested nodes. */
  items: Array<string | number | WktNode>;
}

/** Parse one WKT object; returns null for text that is not WKT. */
export function parseWkt(text: string): WktNode | null {
  let pos = 0;
  const s = text.trim();

  const skipSpace = (): void => {
    while (pos < s.length && /\s/.test(s[pos]!)) pos++;
  };

  const parseNode = (): WktNode | null => {
    skipSpace();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(pos));
    if (!m) return null;
    const keyword = m[0];
    pos += keyword.length;
    skipSpace();
    const open = s[pos];
    if (open !== '[' && open !== '(') return { keyword, items: [] };
    const close = open === '[' ? ']' : ')';
    pos++;
    const items: WktNode['items'] = [];
    for (;;) {
      skipSpace();
      const c = s[pos];
      if (c === undefined) return null;
      if (c === close) {
        pos++;
        break;
      }
      if (c === ',') {
        pos++;
        continue;
      }
      if (c === '"') {
        // WKT escapes a quote by doubling it.
        let out = '';
        pos++;
        for (;;) {
          const q = s.indexOf('"', pos);
          if (q < 0) return null;
          out += s.slice(pos, q);
          pos = q + 1;
          if (s[pos] === '"') {
            out += '"';
            pos++;
          } else break;
        }
        items.push(out);
        continue;
      }
      const num = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(s.slice(pos));
      if (num) {
        items.push(Number(num[0]));
        pos += num[0].length;
        continue;
      }
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(pos));
      if (!word) return null;
      const after = s.slice(pos + word[0].length).trimStart()[0];
      if (after === '[' || after === '(') {
        const child = parseNode();
        if (!child) return null;
        items.push(child);
      } else {
        items.push(word[0]); // a bare enum word such as EAST
        pos += word[0].length;
      }
    }
    return { keyword, items };
  };

  const node = parseNode();
  skipSpace();
  return node && pos === s.length ? node : null;
}

/** First direct child node with one of `keywords` (case-insensitive). */
export function wktChild(node: WktNode, ...keywords: string[]): WktNode | undefined {
  const wanted = keywords.map((k) => k.toUpperCase());
  for (const item of node.items) {
    if (typeof item === 'object' && wanted.includes(item.keyword.toUpperCase())) return item;
  }
  return undefined;
}

/** The node's own authority (`AUTHORITY["EPSG","4326"]` or WKT2 `ID["EPSG",4326]`), if any. */
export function wktAuthority(node: WktNode): { name: string; code: string } | null {
  const a = wktChild(node, 'AUTHORITY', 'ID');
  if (!a || a.items.length < 2) return null;
  const [name, code] = a.items;
  if (typeof name !== 'string' || (typeof code !== 'string' && typeof code !== 'number')) return null;
  return { name: name.toUpperCase(), code: String(code) };
}

export const WKT_ROOT_KEYWORDS = [
  'PROJCS',
  'GEOGCS',
  'GEOCCS',
  'COMPD_CS',
  'PROJCRS',
  'PROJECTEDCRS',
  'GEOGCRS',
  'GEOGRAPHICCRS',
  'GEODCRS',
  'GEODETICCRS',
  'BASEGEOGCRS',
  'COMPOUNDCRS',
  'BOUNDCRS',
];
