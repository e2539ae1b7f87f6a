/**
 * Values of the generated code and constant folding: a sub-expression whose operands are all
 * constants is evaluated at compile time with Python/numpy semantics, as numexpr does.
 */
import { Errors } from '../../errors.ts';
import type { BinaryOp } from './ast.ts';
import type { Kind } from './kinds.ts';

export type PyType = 'int' | 'float' | 'bool';

/** A generated value: JS source of a primary expression, its kind, and its value when constant. */
export interface Val {
  code: string;
  kind: Kind;
  c?: { v: number; py: PyType };
  /** Operator nesting depth of `code` (V8's parser rejects sources nested about 1000 deep). */
  depth?: number;
}

/** C99 pow: pow(1, y) = 1 and pow(-1, ±inf) = 1 even where Math.pow gives NaN. */
export function cpow(a: number, b: number): number {
  if (a === 1 || (a === -1 && (b === Infinity || b === -Infinity))) return 1;
  return Math.pow(a, b);
}

/** JS source for a number literal (round-trips exactly). */
export function lit(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '(-Infinity)';
  if (Object.is(v, -0)) return '(-0)';
  const s = String(v);
  return v < 0 ? `(${s})` : s;
}

export const isIntish = (py: PyType): boolean => py !== 'float';

export function constVal(v: number, py: PyType, kind?: Kind): Val {
  const k: Kind = kind ?? (py === 'bool' ? 'bool' : py === 'float' ? 'double' : v >= -2147483648 && v <= 2147483647 ? 'int' : 'long');
  return { code: lit(v), kind: k, c: { v, py } };
}

export const fail = (msg: string): never => {
  throw Errors.invalidExpression(msg);
};

/** Python semantics for an operation on two constants (what numexpr folds before compiling). */
export function foldBinary(op: BinaryOp, a: { v: number; py: PyType }, b: { v: number; py: PyType }): Val {
  const x = a.v;
  const y = b.v;
  const ints = isIntish(a.py) && isIntish(b.py);
  const numPy: PyType = ints ? 'int' : 'float';
  const zeroDiv = (): never => fail('division by zero in a constant sub-expression');
  switch (op) {
    case '+':
      return constVal(x + y, numPy);
    case '-':
      return constVal(x - y + 0, numPy);
    case '*':
      return constVal(x * y + 0, numPy);
    case '/':
      if (y === 0) zeroDiv();
      return constVal(x / y, 'float');
    case '//':
      if (y === 0) zeroDiv();
      return constVal(Math.floor(x / y) + 0, numPy);
    case '%':
      if (y === 0) zeroDiv();
      return constVal(ints ? ((x % y) + y) % y : x - Math.floor(x / y) * y, numPy);
    case '**': {
      if (x === 0 && y < 0) zeroDiv();
      const r = cpow(x, y);
      if (Number.isNaN(r) && !Number.isNaN(x) && !Number.isNaN(y)) fail('complex numbers are not supported');
      return constVal(r, ints && y >= 0 ? 'int' : 'float');
    }
    case '==':
      return constVal(x === y ? 1 : 0, 'bool');
    case '!=':
      return constVal(x !== y ? 1 : 0, 'bool');
    case '<':
      return constVal(x < y ? 1 : 0, 'bool');
    case '<=':
      return constVal(x <= y ? 1 : 0, 'bool');
    case '>':
      return constVal(x > y ? 1 : 0, 'bool');
    case '>=':
      return constVal(x >= y ? 1 : 0, 'bool');
    case '&':
    case '|':
    case '^':
    case '<<':
    case '>>': {
      if (!ints) fail(`unsupported operand type(s) for ${op}: 'float'`);
      const bx = BigInt(x);
      const by = BigInt(y);
      if ((op === '<<' || op === '>>') && by < 0n) fail('negative shift count');
      const r = op === '&' ? bx & by : op === '|' ? bx | by : op === '^' ? bx ^ by : op === '<<' ? bx << by : bx >> by;
      const py: PyType = a.py === 'bool' && b.py === 'bool' && op !== '<<' && op !== '>>' ? 'bool' : 'int';
      return constVal(Number(r), py);
    }
    default:
      return fail(`operator '${op}' is not supported`);
  }
}

/** numpy's result for a math function of constants: float64, except abs/fmod of ints (int64). */
export function foldMath(fn: string, args: Val[]): Val {
  const vs = args.map((a) => (a.c as { v: number }).v);
  const ints = args.every((a) => isIntish((a.c as { py: PyType }).py));
  if (fn === 'fmod') {
    if (ints && vs[1] === 0) return constVal(0, 'int', 'long');
    return ints ? constVal((vs[0] % vs[1]) + 0, 'int', 'long') : constVal(vs[0] % vs[1], 'float');
  }
  if (fn === 'abs' && ints) return constVal(Math.abs(vs[0]), 'int', 'long');
  const f = (Math as unknown as Record<string, (...v: number[]) => number>)[fn];
  return constVal(f(...vs), 'float');
}
