/** rio-tiler band-math expressions: blocks, band references, validation, descriptions (spec §6.4). */
import { Errors } from '../../errors.ts';
import { LruCache } from '../../util/lru-cache.ts';
import { collectBands, type Expr } from './ast.ts';
import { parseBlock } from './python-syntax.ts';

/**
 * A validated expression. Results are memoised by text and shared between requests, so every
 * field is frozen: treat them as read-only.
 */
export interface ParsedExpression {
  /** Lower-cased blocks (one output band each), empty blocks dropped. */
  readonly blocks: string[];
  /** Sorted unique 1-based band indexes referenced (b<N>): the only bands to read. */
  readonly bandIndexes: number[];
  /** Syntax tree of each block (same order as `blocks`), so compiling does not parse again. */
  readonly trees: readonly Expr[];
}

const BAND_REF = /\bb([0-9]+)\b/gi;

/**
 * Parsed expressions by text. Charged by text length (the trees grow with it), plus a constant
 * for the object itself; 4 MB holds thousands of typical expressions.
 */
const PARSED = new LruCache<string, ParsedExpression>(4 * 1024 * 1024, (p) => 512 + 64 * p.blocks.reduce((s, b) => s + b.length, 0));

/**
 * Split on ';', drop empty blocks, lower-case, find the band references and validate every
 * block (syntax and whitelist). Errors are InvalidExpression with rio-tiler-like messages.
 * The same text returns the same (frozen) object while it stays in the cache.
 */
export function parseExpression(expr: string): ParsedExpression {
  const hit = PARSED.get(expr);
  if (hit !== undefined) return hit;
  const parsed = parseUncached(expr);
  PARSED.set(expr, parsed);
  return parsed;
}

function parseUncached(expr: string): ParsedExpression {
  const blocks = expr
    .split(';')
    .filter((b) => b.trim() !== '')
    .map((b) => b.toLowerCase());
  // rio-tiler looks for band names with a regex before anything else
  if (![...expr.matchAll(BAND_REF)].some((m) => Number(m[1]) >= 1) || blocks.length === 0) {
    throw Errors.invalidExpression(`Could not find any valid bands in '${expr}' expression.`);
  }
  const trees = blocks.map((block) => parseBlock(block));
  const bands = new Set<number>();
  for (const tree of trees) collectBands(tree, bands);
  if (bands.size === 0) throw Errors.invalidExpression(`Could not find any valid bands in '${expr}' expression.`);
  return Object.freeze({
    blocks: Object.freeze(blocks) as string[],
    bandIndexes: Object.freeze([...bands].sort((a, b) => a - b)) as number[],
    trees: Object.freeze(trees.map(deepFreeze)),
  });
}

function deepFreeze(e: Expr): Expr {
  if (e.type === 'unary') deepFreeze(e.arg);
  else if (e.type === 'binary') {
    deepFreeze(e.left);
    deepFreeze(e.right);
  } else if (e.type === 'call') {
    for (const a of e.args) deepFreeze(a);
    Object.freeze(e.args);
  }
  return Object.freeze(e);
}

/** The block with every bK replaced by the description of band K (descriptions[K-1]; bK when missing or empty). */
export function describeExpression(block: string, descriptions: readonly string[]): string {
  return block.replace(BAND_REF, (ref: string, k: string) => {
    const d = descriptions[Number(k) - 1];
    return d ? d : ref;
  });
}
