/**
 * FastAPI/pydantic-shaped validation errors: every failure becomes a 422 with
 * `{"detail":[{"type","loc","msg","input","ctx"?}]}`.
 */
export interface ValidationIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'RequestValidationError';
  }
}

/** An issue without its location: parsers return it, the caller adds `loc`. */
export type Problem = Omit<ValidationIssue, 'loc' | 'input'> & { input?: unknown; subLoc?: Array<string | number> };

const quoteList = (values: readonly (string | number)[]): string => {
  const q = values.map((v) => `'${v}'`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
};

export const Problems = {
  missing: (): Problem => ({ type: 'missing', msg: 'Field required' }),
  int: (): Problem => ({ type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' }),
  float: (): Problem => ({ type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' }),
  intRange: (): Problem => ({
    type: 'int_parsing',
    msg: `Input should be a valid integer, within ±${Number.MAX_SAFE_INTEGER} (2^53 - 1)`,
    ctx: { ge: -Number.MAX_SAFE_INTEGER, le: Number.MAX_SAFE_INTEGER },
  }),
  finite: (): Problem => ({ type: 'finite_number', msg: 'Input should be a finite number' }),
  tooLongList: (max: number, actual: number): Problem => ({
    type: 'too_long',
    msg: `List should have at most ${max} item${max === 1 ? '' : 's'} after validation, not ${actual}`,
    ctx: { field_type: 'List', max_length: max, actual_length: actual },
  }),
  tooLongString: (max: number): Problem => ({
    type: 'string_too_long',
    msg: `String should have at most ${max} character${max === 1 ? '' : 's'}`,
    ctx: { max_length: max },
  }),
  /** Two parameters (or two halves of one) that must be ordered. */
  order: (what: string): Problem => ({ type: 'value_error', msg: `Value error, ${what}`, ctx: { error: {} } }),
  bool: (): Problem => ({ type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' }),
  literal: (values: readonly (string | number)[]): Problem => ({
    type: 'literal_error',
    msg: `Input should be ${quoteList(values)}`,
    ctx: { expected: quoteList(values) },
  }),
  enumeration: (values: readonly (string | number)[]): Problem => ({
    type: 'enum',
    msg: `Input should be ${quoteList(values)}`,
    ctx: { expected: quoteList(values) },
  }),
  gt: (limit: number): Problem => ({ type: 'greater_than', msg: `Input should be greater than ${limit}`, ctx: { gt: limit } }),
  ge: (limit: number): Problem => ({
    type: 'greater_than_equal',
    msg: `Input should be greater than or equal to ${limit}`,
    ctx: { ge: limit },
  }),
  lt: (limit: number): Problem => ({ type: 'less_than', msg: `Input should be less than ${limit}`, ctx: { lt: limit } }),
  le: (limit: number): Problem => ({
    type: 'less_than_equal',
    msg: `Input should be less than or equal to ${limit}`,
    ctx: { le: limit },
  }),
  pattern: (pattern: string): Problem => ({
    type: 'string_pattern_mismatch',
    msg: `String should match pattern '${pattern}'`,
    ctx: { pattern },
  }),
  value: (message: string): Problem => ({ type: 'value_error', msg: `Value error, ${message}`, ctx: { error: {} } }),
} as const;

export const isProblem = (v: unknown): v is ProblemBox => v instanceof ProblemBox;

/** Parsers signal failure by returning a ProblemBox (cheap, no exceptions on the hot path). */
export class ProblemBox {
  constructor(readonly problem: Problem) {}
}

export const fail = (problem: Problem): ProblemBox => new ProblemBox(problem);
