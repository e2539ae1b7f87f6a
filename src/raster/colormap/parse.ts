/**
 * The `colormap` query parameter (TiTiler ColorMapParams + rio-tiler parse_color):
 * a JSON dict `{"<int>": colour}` or an interval list `[[[min, max], colour], …]`.
 * Colours: [r,g,b], [r,g,b,a], "#RGB", "#RGBA", "#RRGGBB", "#RRGGBBAA".
 *
 * Deviations (TiTiler answers 500): a non-integer dict key, a malformed interval entry and a
 * JSON value that is neither an object nor an array are 400 BadRequest here; colour components
 * must be integers 0..255 (TiTiler lets other numbers overflow in numpy).
 */
import { Errors, type RastileError } from '../../errors.ts';
import type { Rgba } from '../image-data.ts';
import { colormapFromEntries } from './from-entries.ts';
import type { ColorMap } from './types.ts';

const NOT_PARSED = 'Could not parse the colormap value.';
/** Python int(): surrounding whitespace, optional sign, digits with single underscores. */
const PY_INT = /^\s*[+-]?\d+(_\d+)*\s*$/;
const HEX_SHORT = /^#([0-9a-f])([0-9a-f])([0-9a-f])([0-9a-f])?$/i;
const HEX_LONG = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i;

const badRequest = (msg: string): RastileError => Errors.badRequest(msg, { context: { parameter: 'colormap' } });

/** Python-like repr of a JSON value, for error messages. */
function repr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'string' ? `'${x}'` : repr(x))).join(', ')}]`;
  return JSON.stringify(v) ?? String(v);
}

export function invalidColor(v: unknown): RastileError {
  return Errors.invalidColorFormat(`Invalid color format: ${repr(v)}`);
}

/** One colour in any accepted notation → RGBA (alpha 255 when omitted). */
export function parseColor(v: unknown): Rgba {
  if (typeof v === 'string') {
    const m = HEX_SHORT.exec(v) ?? HEX_LONG.exec(v);
    if (!m) throw invalidColor(v);
    const short = m[1].length === 1;
    const hex = (s: string | undefined) => (s === undefined ? 255 : parseInt(short ? s + s : s, 16));
    return [hex(m[1]), hex(m[2]), hex(m[3]), hex(m[4])];
  }
  if (!Array.isArray(v) || v.length < 3 || v.length > 4) throw invalidColor(v);
  if (!v.every((c) => Number.isInteger(c) && c >= 0 && c <= 255)) throw invalidColor(v);
  return [v[0], v[1], v[2], v.length === 4 ? v[3] : 255];
}

function parseKey(k: string): number {
  if (!PY_INT.test(k)) throw badRequest(`Invalid colormap key '${k}': keys must be integers.`);
  return Number(k.replace(/_/g, '').trim());
}

function parseDict(obj: Record<string, unknown>): ColorMap | null {
  const entries = new Map<number, Rgba>();
  for (const [k, v] of Object.entries(obj)) entries.set(parseKey(k), parseColor(v));
  if (entries.size === 0) return null;
  return colormapFromEntries(entries);
}

function parseIntervals(list: unknown[]): ColorMap | null {
  if (list.length === 0) return null;
  const entries: Array<[[number, number], Rgba]> = list.map((item) => {
    if (!Array.isArray(item) || item.length !== 2) {
      throw badRequest(`Invalid colormap interval entry ${JSON.stringify(item)}: expected [[min, max], color].`);
    }
    const [range, colour] = item as [unknown, unknown];
    if (!Array.isArray(range) || range.length !== 2 || !range.every((x) => typeof x === 'number')) {
      throw badRequest(`Invalid colormap interval ${JSON.stringify(range)}: expected [min, max] numbers.`);
    }
    return [[range[0] as number, range[1] as number], parseColor(colour)];
  });
  return { kind: 'intervals', entries };
}

/**
 * Parses the `colormap` JSON text. Returns null for an empty dict or list (TiTiler then applies
 * no user colormap: an empty colormap is falsy in Python).
 */
export function parseColormapParam(json: string): ColorMap | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw badRequest(NOT_PARSED);
  }
  if (Array.isArray(value)) return parseIntervals(value);
  if (value !== null && typeof value === 'object') return parseDict(value as Record<string, unknown>);
  throw badRequest(NOT_PARSED);
}
