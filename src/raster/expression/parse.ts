/** rio-tiler band-math expressions: blocks, band references, validation, descriptions (spec §6.4). */
import { Errors } from '../../errors.ts';
import { collectBands } from './ast.ts';
import { parseBlock } from './python-syntax.ts';

export interface ParsedExpression {
  /** Lower-cased blocks (one output band each), empty blocks dropped. */
  blocks: string[];
  /** Sorted unique 1-based band indexes referenced (b<N>): the only bands to read. */
  bandIndexes: number[];
}

const BAND_REF = /\bb([0-9]+)\b/gi;

/**
 * Split on ';', drop empty blocks, lower-case, find the band references and validate every
 * block (syntax and whitelist). Errors are InvalidExpression with rio-tiler-like messages.
 */
export function parseExpression(expr: string): ParsedExpression {
  const blocks = expr
    .split(';')
    .filter((b) => b.trim() !== '')
    .map((b) => b.toLowerCase());
  // rio-tiler looks for band names with a regex before anything else
  if (![...expr.matchAll(BAND_REF)].some((m) => Number(m[1]) >= 1) || blocks.length === 0) {
    throw Errors.invalidExpression(`Could not find any valid bands in '${expr}' expression.`);
  }
  const bands = new Set<number>();
  for (const block of blocks) collectBands(parseBlock(block), bands);
  if (bands.size === 0) throw Errors.invalidExpression(`Could not find any valid bands in '${expr}' expression.`);
  return { blocks, bandIndexes: [...bands].sort((a, b) => a - b) };
}

/** The block with every bK replaced by the description of band K (descriptions[K-1]; bK when missing or empty). */
export function describeExpression(block: string, descriptions: readonly string[]): string {
  return block.replace(BAND_REF, (ref: string, k: string) => {
    const d = descriptions[Number(k) - 1];
    return d ? d : ref;
  });
}
