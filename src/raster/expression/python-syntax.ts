/**
 * Parses one band-math block written in Python / numexpr syntax with jsep, and converts jsep's
 * tree into our whitelisted {@link Expr} tree. Everything that is not a number, a band
 * reference, an allowed operator or a call of an allowed function name is rejected here.
 *
 * jsep is configured for Python once, globally (its operator tables are static): Python
 * operator precedence (comparisons below `|`, `^`, `&`), `//`, `and`, `or`, `not`, no JS-only
 * operators (`||`, `&&`, `===`, `!`, `>>>`, `??`) and no JS literals (`true`, `null`…).
 * Two hooks make the tree faithful to Python where precedence alone cannot:
 * - parenthesised groups are kept as a marker node, so that `-b1**2` can be regrouped as
 *   `-(b1**2)` (Python's unary minus binds looser than `**`) while `(-b1)**2` is left alone,
 *   and so that a chained comparison `a < b < c` (Python: `a < b and b < c`) can be told
 *   apart from `(a < b) < c`;
 * - `not` takes a whole comparison as its operand (`not b1 > 2` is `not (b1 > 2)`).
 */
import jsep from 'jsep';
import { Errors } from '../../errors.ts';
import { COMPARISON_OPS, type BinaryOp, type Expr, type UnaryOp } from './ast.ts';
import { FUNCTIONS, REFUSED_FUNCTIONS } from './functions.ts';

const PAREN = 'ParenthesizedExpression';

/** Python precedence, low to high (unary `not` sits between `and` and the comparisons). */
const PY_BINARY_OPS: ReadonlyArray<[string, number]> = [
  ['or', 1],
  ['and', 2],
  ['==', 4],
  ['!=', 4],
  ['<', 4],
  ['<=', 4],
  ['>', 4],
  ['>=', 4],
  ['|', 5],
  ['^', 6],
  ['&', 7],
  ['<<', 8],
  ['>>', 8],
  ['+', 9],
  ['-', 9],
  ['*', 10],
  ['/', 10],
  ['//', 10],
  ['%', 10],
];

let configured = false;
let notDepth = 0;

function configureJsep(): void {
  if (configured) return;
  configured = true;
  for (const op of ['||', '??', '&&', '===', '!==', '>>>']) jsep.removeBinaryOp(op);
  for (const [op, prec] of PY_BINARY_OPS) jsep.addBinaryOp(op, prec);
  jsep.addBinaryOp('**', 11, true);
  jsep.removeUnaryOp('!');
  jsep.removeAllLiterals();
  jsep.removeIdentifierChar('$');

  jsep.hooks.add('gobble-token', function pythonToken(env) {
    // `( expr )`: keep a marker node (jsep would return the inner node unmarked)
    if (this.code === 40 /* ( */) {
      this.index++;
      const nodes = this.gobbleExpressions(41 /* ) */);
      if ((this.code as number) !== 41) throw syntaxError('Unclosed (', this.index);
      this.index++;
      if (nodes.length !== 1) throw syntaxError('a parenthesised group must hold exactly one expression', this.index);
      env.node = { type: PAREN, expression: nodes[0] };
      return;
    }
    // `not <comparison>`
    if (this.expr.startsWith('not', this.index) && !isIdentifierPart(this.expr.charCodeAt(this.index + 3))) {
      this.index += 3;
      // the operand stops at `and` / `or`: hide them while it is parsed (nested `not`s share this)
      if (notDepth++ === 0) {
        jsep.removeBinaryOp('and');
        jsep.removeBinaryOp('or');
      }
      let argument: jsep.Expression | undefined;
      try {
        argument = this.gobbleBinaryExpression();
      } finally {
        if (--notDepth === 0) {
          jsep.addBinaryOp('or', 1);
          jsep.addBinaryOp('and', 2);
        }
      }
      if (!argument) throw syntaxError("missing operand after 'not'", this.index);
      env.node = { type: 'UnaryExpression', operator: 'not', argument, prefix: true };
    }
  });
}

const isIdentifierPart = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;

class SyntaxErr extends Error {
  constructor(
    readonly description: string,
    readonly index: number,
  ) {
    super(description);
  }
}

const syntaxError = (description: string, index: number): SyntaxErr => new SyntaxErr(description, index);

/** Parse one (already lower-cased) block into our tree; throws InvalidExpression. */
export function parseBlock(block: string): Expr {
  configureJsep();
  let tree: jsep.Expression;
  try {
    tree = jsep(block);
  } catch (err) {
    if (err instanceof RangeError) throw Errors.invalidExpression('expression is too deeply nested');
    const e = err as { description?: string; index?: number; message?: string };
    const what = e.description ?? e.message ?? 'parse error';
    const at = typeof e.index === 'number' ? ` at character ${e.index}` : '';
    throw Errors.invalidExpression(`Invalid expression syntax: ${what}${at} in '${block.trim()}'`);
  }
  if (!tree || (tree.type === 'Compound' && (tree.body as jsep.Expression[]).length === 0)) {
    throw Errors.invalidExpression(`Invalid expression syntax: empty expression in '${block.trim()}'`);
  }
  try {
    return convert(tree, block);
  } catch (err) {
    if (err instanceof RangeError) throw Errors.invalidExpression('expression is too deeply nested');
    throw err;
  }
}

const isComparison = (n: jsep.Expression): boolean => n.type === 'BinaryExpression' && COMPARISON_OPS.has((n as jsep.BinaryExpression).operator);

/** Chained comparison `a < b <= c …` (jsep nests it to the left): Python's `(a < b) and (b <= c) …`. */
function convertChain(node: jsep.BinaryExpression, block: string): Expr {
  const operands: jsep.Expression[] = [];
  const ops: BinaryOp[] = [];
  let cur: jsep.Expression = node;
  while (isComparison(cur)) {
    const b = cur as jsep.BinaryExpression;
    operands.unshift(b.right);
    ops.unshift(b.operator as BinaryOp);
    cur = b.left;
  }
  operands.unshift(cur);
  const converted = operands.map((o) => convert(o, block));
  let out: Expr | undefined;
  for (let i = 0; i < ops.length; i++) {
    const cmp: Expr = { type: 'binary', op: ops[i], left: converted[i], right: converted[i + 1] };
    out = out ? { type: 'binary', op: 'and', left: out, right: cmp } : cmp;
  }
  return out as Expr;
}

function disallowed(what: string): never {
  throw Errors.invalidExpression(`disallowed expression: ${what}`);
}

function convert(node: jsep.Expression, block: string): Expr {
  switch (node.type) {
    case PAREN:
      return convert(node.expression as jsep.Expression, block);
    case 'Literal': {
      const lit = node as jsep.Literal;
      if (typeof lit.value !== 'number') disallowed(`literal ${lit.raw} (only numbers are allowed)`);
      return { type: 'num', value: lit.value, isInt: /^[0-9]+$/.test(lit.raw) };
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      const m = /^b([0-9]+)$/.exec(name);
      if (!m || Number(m[1]) < 1 || !Number.isSafeInteger(Number(m[1]))) throw Errors.invalidExpression(`Invalid band/asset name '${name}'`);
      return { type: 'band', index: Number(m[1]) };
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      const op = u.operator as UnaryOp;
      if (op !== '-' && op !== '+' && op !== '~' && op !== 'not') disallowed(`operator '${u.operator}'`);
      return { type: 'unary', op, arg: convert(u.argument, block) };
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      const op = b.operator as BinaryOp;
      if (op === '**' && b.left.type === 'UnaryExpression' && (b.left as jsep.UnaryExpression).operator !== 'not') {
        // jsep parsed `-x ** y` as `(-x) ** y`: regroup to Python's `-(x ** y)`
        const u = b.left as jsep.UnaryExpression;
        const inner: jsep.BinaryExpression = { type: 'BinaryExpression', operator: '**', left: u.argument, right: b.right };
        return { type: 'unary', op: u.operator as UnaryOp, arg: convert(inner, block) };
      }
      if (COMPARISON_OPS.has(op) && isComparison(b.left)) return convertChain(b, block);
      return { type: 'binary', op, left: convert(b.left, block), right: convert(b.right, block) };
    }
    case 'CallExpression': {
      const c = node as jsep.CallExpression;
      if (c.callee.type !== 'Identifier') disallowed('only calls of function names are allowed');
      const fn = (c.callee as jsep.Identifier).name;
      const refused = REFUSED_FUNCTIONS.get(fn);
      if (refused) throw Errors.invalidExpression(`disallowed function: '${fn}' (${refused})`);
      const spec = FUNCTIONS.get(fn);
      if (!spec) throw Errors.invalidExpression(`disallowed function: '${fn}'`);
      const n = c.arguments.length;
      if (spec.variadic ? n < spec.arity : n !== spec.arity) {
        const count = spec.variadic ? `at least ${spec.arity}` : String(spec.arity);
        throw Errors.invalidExpression(`function '${fn}' takes ${count} argument${spec.arity === 1 ? '' : 's'}, got ${n}`);
      }
      return { type: 'call', fn, args: c.arguments.map((a) => convert(a, block)) };
    }
    case 'MemberExpression':
      return disallowed('attribute access and subscripts are not allowed');
    case 'ThisExpression':
      return disallowed("'this'");
    case 'ArrayExpression':
      return disallowed('lists are not allowed');
    case 'ConditionalExpression':
      return disallowed("'?:' (use where(condition, a, b))");
    case 'Compound':
    case 'SequenceExpression':
      // jsep accepts `a b` and `a, b` as a list of expressions; Python does not
      throw Errors.invalidExpression(`Invalid expression syntax: expected an operator between expressions in '${block.trim()}' (separate output bands with ;)`);
    default:
      return disallowed(`'${node.type}'`);
  }
}
