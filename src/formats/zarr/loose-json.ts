/**
 * JSON as Python writes it: zarr-python and xarray put bare NaN, Infinity and -Infinity into
 * .zattrs/.zmetadata (json.dumps allow_nan). They are read as numbers here, and written back for
 * zarrita (whose JSON.parse refuses them) as the strings "NaN"/"Infinity"/"-Infinity", which is
 * how Zarr spells a non-finite fill_value.
 */
const SENTINEL = '\u0000nonfinite:';

/** Parses `text`, accepting bare NaN/Infinity/-Infinity outside strings. Throws SyntaxError. */
export function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
  }
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const word = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9))?.[0];
    if (word !== undefined) {
      out += JSON.stringify(SENTINEL + word);
      i += word.length - 1;
      continue;
    }
    out += ch;
  }
  return JSON.parse(out, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(SENTINEL) ? Number(value.slice(SENTINEL.length)) : value));
}

/** JSON text for zarrita: non-finite numbers as their names in strings. */
export function strictJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
}
