/** The small, whitelisted syntax tree of one band-math block (Python / numexpr syntax). */

export type UnaryOp = '-' | '+' | '~' | 'not';

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%' | '**' | '<<' | '>>' | '&' | '|' | '^' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export type Expr =
  /** Numeric literal; `isInt` when written without '.' or exponent (a Python int). */
  | { type: 'num'; value: number; isInt: boolean }
  /** Band reference b<index> (1-based). */
  | { type: 'band'; index: number }
  | { type: 'unary'; op: UnaryOp; arg: Expr }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | { type: 'call'; fn: string; args: Expr[] };

export const COMPARISON_OPS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Band indexes referenced anywhere in the tree. */
export function collectBands(e: Expr, into: Set<number>): Set<number> {
  switch (e.type) {
    case 'band':
      into.add(e.index);
      break;
    case 'unary':
      collectBands(e.arg, into);
      break;
    case 'binary':
      collectBands(e.left, into);
      collectBands(e.right, into);
      break;
    case 'call':
      for (const a of e.args) collectBands(a, into);
      break;
    case 'num':
      break;
  }
  return into;
}
