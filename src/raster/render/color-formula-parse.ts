/**
 * `color_formula` grammar (color-operations `parse_operations`): tokens separated by single
 * spaces (commas are dropped, each token is stripped), case-insensitive. A token naming an
 * operation starts a new operation:
 *   gamma <bands> <g>                    v → v^(1/g)
 *   sigmoidal <bands> <contrast> <bias>  sigmoidal contrast
 *   saturation <proportion>              chroma × proportion in LCH (bands 1–3)
 * `<bands>` is a string of r/g/b or 1/2/3 ("RGB", "rb", "12"). Arguments are Python floats;
 * extra arguments are ignored, as in color-operations.
 *
 * Stricter than TiTiler (which answers 500 later, when the formula is applied): missing
 * arguments, gamma ≤ 0 or NaN, and a sigmoidal bias outside 0..1 are rejected here.
 */
import { pyFloat } from '../../util/python.ts';

export type ColorOperation =
  | { readonly op: 'gamma'; readonly bands: readonly number[]; readonly g: number }
  | { readonly op: 'sigmoidal'; readonly bands: readonly number[]; readonly contrast: number; readonly bias: number }
  | { readonly op: 'saturation'; readonly proportion: number };

export interface ColorFormula {
  readonly text: string;
  readonly ops: readonly ColorOperation[];
}

/** Thrown for an unparsable formula; the HTTP layer reports a 422 "invalid color formula". */
export class InvalidColorFormula extends Error {
  readonly problem = 'invalid color formula';
  constructor(detail: string) {
    super(`invalid color formula: ${detail}`);
    this.name = 'InvalidColorFormula';
  }
}

/** float64 machine epsilon, color-operations' tolerance on the 0..1 checks. */
export const EPSILON = 2.220446049250313e-16;
const OPS = new Set(['gamma', 'sigmoidal', 'saturation']);
const ARITY = { gamma: 1, sigmoidal: 2, saturation: 1 } as const;
const BAND_LETTERS: Record<string, number> = { r: 1, g: 2, b: 3 };

export function parseColorFormula(text: string): ColorFormula {
  // Python str.split(' ') then str.strip(): empty tokens survive (and fail as arguments).
  const tokens = text
    .replace(/,/g, '')
    .split(' ')
    .map((t) => t.trim());
  const groups: string[][] = [];
  let current: string[] = [];
  for (const token of tokens) {
    const lower = token.toLowerCase();
    if (OPS.has(lower) && current.length > 0) {
      groups.push(current);
      current = [];
    }
    current.push(lower);
  }
  if (current.length > 0) groups.push(current);
  return { text, ops: groups.map(parseOperation) };
}

function parseOperation(parts: string[]): ColorOperation {
  const name = parts[0];
  if (!OPS.has(name)) throw new InvalidColorFormula(`'${name}' is not a valid operation`);
  const op = name as keyof typeof ARITY;
  const args = (op === 'saturation' ? parts.slice(1) : parts.slice(2)).map((a) => {
    const v = pyFloat(a);
    if (v === null) throw new InvalidColorFormula(`'${a}' is not a number`);
    return v;
  });
  if (args.length < ARITY[op]) throw new InvalidColorFormula(`${op} needs ${ARITY[op]} argument(s)`);
  if (op === 'saturation') return { op, proportion: args[0] };
  if (parts.length < 2) throw new InvalidColorFormula(`${op} needs bands`);
  const bands = parseBands(op, parts[1]);
  if (op === 'gamma') {
    if (!(args[0] > 0)) throw new InvalidColorFormula('gamma must be greater than 0');
    return { op, bands, g: args[0] };
  }
  const bias = args[1];
  if (!(bias <= 1 + EPSILON && bias >= -EPSILON)) throw new InvalidColorFormula('bias must be between 0 and 1');
  return { op, bands, contrast: args[0], bias };
}

function parseBands(op: string, text: string): number[] {
  const bands = new Set<number>();
  for (const ch of text) {
    const band = /\d/.test(ch) ? Number(ch) : BAND_LETTERS[ch];
    if (band === undefined) throw new InvalidColorFormula(`'${text}' is not a band list`);
    if (band < 1 || band > 3) throw new InvalidColorFormula(`${op} BAND must be between 1 and 3`);
    bands.add(band);
  }
  return [...bands];
}
