/**
 * Turns a block's {@link Expr} tree into the JS source of one per-pixel expression, following
 * numexpr 2.8's typing and evaluation rules (what rio-tiler runs):
 * - every operation runs in the common kind of its operands (see kinds.ts); int32 arithmetic
 *   wraps, float32 arithmetic is rounded to float32 after every operation (Math.fround);
 * - constant sub-expressions are folded with Python semantics first (Python ints and floats:
 *   `2**40` is an int64 constant, `1/2` a float64 one), like numexpr does;
 * - `x ** c` with a constant, half-integral c (|c| <= 50) is expanded into multiplications and a
 *   square root (numexpr's default 'aggressive' optimisation; `b1**2` on int32 stays int32),
 *   `x / c` on float64 becomes `x * (1/c)`;
 * - integer `%` and `//` by zero give 0; float `%` is Python's (sign of the divisor).
 * Extensions where numexpr 2.8 raises an error: `//`, `^`, `and`/`or`/`not`, bitwise `& | ~`
 * on integers, arithmetic on booleans (as int), element-wise min/max, non-boolean where()
 * conditions (non-zero is true).
 *
 * Only fixed code fragments, numeric literals and names we generate (b<k>, t<n>, H.*, M.*, F)
 * ever reach the generated source.
 */
import type { BinaryOp, Expr } from './ast.ts';
import { FUNCTIONS } from './functions.ts';
import { commonKind, rank, type Kind } from './kinds.ts';
import { constVal, cpow, fail, foldBinary, foldMath, isIntish, lit, type PyType, type Val } from './constant-fold.ts';

/** Nesting depth after which a sub-expression is moved into a temporary. */
const MAX_DEPTH = 40;

const INT_MIN = -2147483648;
const LONG_MIN = -9223372036854775808;

/** Runtime helpers, available as `H` in generated code. */
export const HELPERS = {
  imod: (a: number, b: number): number => (b === 0 ? 0 : (a % b) | 0),
  lmod: (a: number, b: number): number => (b === 0 ? 0 : (a % b) + 0),
  fmodPy32: (a: number, b: number): number => Math.fround(a - Math.fround(Math.floor(Math.fround(a / b)) * b)),
  modPy: (a: number, b: number): number => a - Math.floor(a / b) * b,
  ifloordiv: (a: number, b: number): number => (b === 0 ? 0 : Math.floor(a / b) | 0),
  lfloordiv: (a: number, b: number): number => (b === 0 ? 0 : Math.floor(a / b) + 0),
  pow: cpow,
  /** C `(int)pow(a, b)`: out of range or NaN gives INT_MIN (x86). */
  ipow: (a: number, b: number): number => {
    const r = cpow(a, b);
    return r > -2147483649 && r < 2147483648 ? Math.trunc(r) | 0 : INT_MIN;
  },
  lpow: (a: number, b: number): number => {
    const r = cpow(a, b);
    return r >= -9223372036854775808 && r < 9223372036854775808 ? Math.trunc(r) + 0 : LONG_MIN;
  },
  lshl: (a: number, b: number): number => Math.trunc(a * 2 ** b) + 0,
  lshr: (a: number, b: number): number => Math.floor(a / 2 ** b) + 0,
};

const JS_COMPARE: Partial<Record<BinaryOp, string>> = { '==': '===', '!=': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

export class BlockCodegen {
  /** `const tN = …;` statements, in evaluation order. */
  readonly temps: string[] = [];

  constructor(private readonly bandKind: (index: number) => Kind) {}

  gen(e: Expr): Val {
    switch (e.type) {
      case 'num':
        return constVal(e.value, e.isInt ? 'int' : 'float');
      case 'band':
        return { code: `b${e.index}`, kind: this.bandKind(e.index) };
      case 'unary': {
        const a = this.gen(e.arg);
        return this.nest(this.unary(e.op, a), [a]);
      }
      case 'binary': {
        const l = this.gen(e.left);
        const r = this.gen(e.right);
        return this.nest(this.binary(e.op, l, r), [l, r]);
      }
      case 'call': {
        const args = e.args.map((a) => this.gen(a));
        return this.nest(this.call(e.fn, args), args);
      }
    }
  }

  /** Track nesting depth; hoist into a temporary when the source gets too deep. */
  private nest(v: Val, children: Val[]): Val {
    if (v.c) return v;
    let d = 0;
    for (const c of children) d = Math.max(d, c.depth ?? 0);
    d += 1;
    if (d <= MAX_DEPTH) return { ...v, depth: d };
    return { ...this.hoist(v), depth: 0 };
  }

  /** Source of `v` converted to kind `k` (only widening conversions happen). */
  private as(v: Val, k: Kind): string {
    if (k === 'float' && v.kind !== 'float') return v.c ? lit(Math.fround(v.c.v)) : `F(${v.code})`;
    return v.code;
  }

  private hoist(v: Val): Val {
    if (v.c || /^[bt][0-9]+$/.test(v.code)) return v;
    const name = `t${this.temps.length}`;
    this.temps.push(`const ${name} = ${v.code};`);
    return { code: name, kind: v.kind };
  }

  private unary(op: string, a: Val): Val {
    if (a.c) {
      const { v, py } = a.c;
      switch (op) {
        case '-':
          return constVal(-v + 0, py === 'bool' ? 'int' : py);
        case '+':
          return constVal(v, py === 'bool' ? 'int' : py);
        case '~':
          if (!isIntish(py)) fail("bad operand type for unary ~: 'float'");
          return constVal(-(v + 1), 'int');
        default:
          return constVal(v !== 0 ? 0 : 1, 'bool');
      }
    }
    switch (op) {
      case '-':
        if (a.kind === 'bool' || a.kind === 'int') return { code: `((-${a.code}) | 0)`, kind: 'int' };
        if (a.kind === 'long') return { code: `(0 - ${a.code})`, kind: 'long' };
        return { code: `(-${a.code})`, kind: a.kind };
      case '+':
        return a;
      case '~':
        if (a.kind === 'bool') return { code: `(${a.code} ^ 1)`, kind: 'bool' };
        if (a.kind === 'int') return { code: `(~${a.code})`, kind: 'int' };
        return fail(`operator '~' needs boolean or int32 operands, got ${kindName(a.kind)}`);
      default:
        return { code: `(${a.code} !== 0 ? 0 : 1)`, kind: 'bool' };
    }
  }

  private binary(op: BinaryOp, a: Val, b: Val): Val {
    if (op === 'and' || op === 'or') {
      if (a.c && b.c) {
        const t = op === 'and' ? a.c.v !== 0 && b.c.v !== 0 : a.c.v !== 0 || b.c.v !== 0;
        return constVal(t ? 1 : 0, 'bool');
      }
      const js = op === 'and' ? '&&' : '||';
      return { code: `(${a.code} !== 0 ${js} ${b.code} !== 0 ? 1 : 0)`, kind: 'bool' };
    }
    if (a.c && b.c) return foldBinary(op, a.c, b.c);
    const cmp = JS_COMPARE[op];
    if (cmp) {
      const k = commonKind(a.kind, b.kind);
      return { code: `(${this.as(a, k)} ${cmp} ${this.as(b, k)} ? 1 : 0)`, kind: 'bool' };
    }
    switch (op) {
      case '+':
      case '-':
      case '*':
        return this.arith(op, a, b);
      case '/':
        return this.truediv(a, b);
      case '%':
      case '//':
        return this.modDiv(op, a, b);
      case '**':
        return this.pow(a, b);
      case '&':
      case '|':
      case '^': {
        const k = commonKind(a.kind, b.kind);
        if (k !== 'bool' && k !== 'int') fail(`operator '${op}' needs boolean or int32 operands, got ${kindName(k)}`);
        return { code: `(${a.code} ${op} ${b.code})`, kind: k };
      }
      case '<<':
      case '>>': {
        let k = commonKind(a.kind, b.kind);
        if (k === 'bool') k = 'int';
        if (k === 'int') return { code: `(${a.code} ${op} ${b.code})`, kind: 'int' };
        if (k === 'long') return { code: `H.${op === '<<' ? 'lshl' : 'lshr'}(${a.code}, ${b.code})`, kind: 'long' };
        return fail(`operator '${op}' needs integer operands, got ${kindName(k)}`);
      }
      default:
        return fail(`operator '${op}' is not supported`);
    }
  }

  private arith(op: '+' | '-' | '*', a: Val, b: Val): Val {
    let k = commonKind(a.kind, b.kind);
    if (k === 'bool') k = 'int';
    const x = this.as(a, k);
    const y = this.as(b, k);
    switch (k) {
      case 'int':
        return { code: op === '*' ? `M.imul(${x}, ${y})` : `((${x} ${op} ${y}) | 0)`, kind: k };
      case 'long':
        return { code: `(${x} ${op} ${y} + 0)`, kind: k };
      case 'float':
        return { code: `F(${x} ${op} ${y})`, kind: k };
      default:
        return { code: `(${x} ${op} ${y})`, kind: k };
    }
  }

  private truediv(a: Val, b: Val): Val {
    let k = commonKind(a.kind, b.kind);
    if (rank(k) <= rank('long')) k = 'double';
    if (a.kind === 'double' && b.c && b.kind === 'double') {
      return { code: `(${a.code} * ${lit(1 / b.c.v)})`, kind: 'double' };
    }
    if (a.c && b.c) return foldBinary('/', a.c, b.c);
    const x = this.as(a, k);
    const y = this.as(b, k);
    return k === 'float' ? { code: `F(${x} / ${y})`, kind: k } : { code: `(${x} / ${y})`, kind: k };
  }

  private modDiv(op: '%' | '//', a: Val, b: Val): Val {
    let k = commonKind(a.kind, b.kind);
    if (k === 'bool') k = 'int';
    const x = this.as(a, k);
    const y = this.as(b, k);
    if (op === '%') {
      const fn = k === 'int' ? 'imod' : k === 'long' ? 'lmod' : k === 'float' ? 'fmodPy32' : 'modPy';
      return { code: `H.${fn}(${x}, ${y})`, kind: k };
    }
    if (k === 'int') return { code: `H.ifloordiv(${x}, ${y})`, kind: k };
    if (k === 'long') return { code: `H.lfloordiv(${x}, ${y})`, kind: k };
    if (k === 'float') return { code: `F(M.floor(F(${x} / ${y})))`, kind: k };
    return { code: `M.floor(${x} / ${y})`, kind: k };
  }

  private pow(a: Val, b: Val): Val {
    if (b.c) {
      const x = b.c.v;
      const intKind = (k: Kind): boolean => k === 'int' || k === 'long';
      if (intKind(a.kind) && intKind(b.kind) && x < 0) fail('Integers to negative integer powers are not allowed.');
      if (Number.isInteger(2 * x) && Math.abs(x) <= 50) {
        // numexpr 'aggressive': square-and-multiply, plus sqrt for half powers
        const base = this.hoist(a);
        const n = Math.trunc(Math.abs(x));
        const half = Math.trunc(Math.abs(2 * x)) % 2 === 1;
        let r: Val | undefined;
        let p = base;
        for (let mask = 1; ;) {
          if (n & mask) r = r ? this.arith('*', r, p) : p;
          mask <<= 1;
          if (mask > n) break;
          p = this.hoist(this.arith('*', p, p));
        }
        if (half) {
          const sk: Kind = intKind(a.kind) ? 'double' : a.kind === 'bool' ? 'float' : a.kind;
          const s = this.mathCall('sqrt', [base], sk);
          r = r ? this.arith('*', r, s) : s;
        }
        if (!r) r = { code: '1', kind: a.kind };
        if (x < 0) r = this.truediv(constVal(1, 'int'), r);
        return r;
      }
    }
    let k = commonKind(a.kind, b.kind);
    if (k === 'bool') k = 'int';
    const x = this.as(a, k);
    const y = this.as(b, k);
    if (k === 'int') return { code: `H.ipow(${x}, ${y})`, kind: k };
    if (k === 'long') return { code: `H.lpow(${x}, ${y})`, kind: k };
    if (k === 'float') return { code: `F(H.pow(${x}, ${y}))`, kind: k };
    return { code: `H.pow(${x}, ${y})`, kind: k };
  }

  /** Element-wise math function evaluated in kind `k` (float or double). */
  private mathCall(fn: string, args: Val[], k: Kind): Val {
    const xs = args.map((v) => this.as(v, k));
    const inner = fn === 'fmod' ? `(${xs[0]} % ${xs[1]})` : `M.${fn}(${xs.join(', ')})`;
    return k === 'float' ? { code: `F(${inner})`, kind: k } : { code: inner, kind: k };
  }

  private call(fn: string, args: Val[]): Val {
    const spec = FUNCTIONS.get(fn);
    if (!spec) return fail(`disallowed function: '${fn}'`);
    const allConst = args.every((a) => a.c);
    switch (spec.cls) {
      case 'math': {
        const mathFn = spec.math as string;
        if (allConst) return foldMath(mathFn, args);
        let k = commonKind(...args.map((a) => a.kind));
        if (k === 'int' || k === 'long') k = 'double';
        else if (k === 'bool') k = 'float';
        return this.mathCall(mathFn, args, k);
      }
      case 'where': {
        const [c, a, b] = args;
        if (c.c) return c.c.v !== 0 ? a : b;
        const k = commonKind(a.kind, b.kind);
        return { code: `(${c.code} !== 0 ? ${this.as(a, k)} : ${this.as(b, k)})`, kind: k };
      }
      case 'copy':
      case 'ones_like': {
        const a = args[0];
        const k: Kind = a.kind === 'int' || a.kind === 'long' ? 'double' : a.kind;
        if (spec.cls === 'ones_like') return a.c ? constVal(1, a.c.py) : { code: '1', kind: k };
        return a.c ? a : { code: a.code, kind: k };
      }
      case 'real':
        return args[0].c ? constVal(args[0].c.v, 'float') : { code: args[0].code, kind: 'double' };
      case 'imag':
        return constVal(0, 'float');
      case 'minmax': {
        const mathFn = spec.math as string;
        if (allConst) {
          const vs = args.map((a) => (a.c as { v: number }).v);
          const py: PyType = args.some((a) => a.c?.py === 'float') ? 'float' : 'int';
          return constVal(mathFn === 'min' ? Math.min(...vs) : Math.max(...vs), py);
        }
        const k = commonKind(...args.map((a) => a.kind));
        return { code: `M.${mathFn}(${args.map((a) => this.as(a, k)).join(', ')})`, kind: k };
      }
    }
  }
}

const kindName = (k: Kind): string => ({ bool: 'bool', int: 'int32', long: 'int64', float: 'float32', double: 'float64' })[k];
