/**
 * The `rescale` query parameter (§2.2): each value loses its `[`, `]` and `|` characters, is split
 * on `,` and must give exactly two Python floats (`0,1000`, `[0, 1000]`, `-3.4e38,inf`).
 */
import { pyFloat } from '../../util/python.ts';

/** A validation failure the HTTP layer reports as a 422 `value_error` with this text. */
export interface ProblemText {
  readonly problem: string;
}

export const isProblemText = (v: unknown): v is ProblemText => typeof v === 'object' && v !== null && typeof (v as { problem?: unknown }).problem === 'string';

const INVALID: ProblemText = Object.freeze({ problem: 'invalid rescale format' });

export function parseRescale(values: readonly string[]): Array<[number, number]> | ProblemText {
  const out: Array<[number, number]> = [];
  for (const value of values) {
    const parts = value.replace(/[[\]|]/g, '').split(',');
    if (parts.length !== 2) return INVALID;
    const lo = pyFloat(parts[0]);
    const hi = pyFloat(parts[1]);
    if (lo === null || hi === null) return INVALID;
    out.push([lo, hi]);
  }
  return out;
}
