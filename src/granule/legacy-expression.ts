/**
 * titiler-cmr's translation of 0.x expressions that name assets (`(B05-B04)/(B05+B04)`) into
 * positional band math over b1..bN (titiler-cmr §3.3, pinned by its test_dependencies.py):
 *
 * - an identifier that is not `b<digits>` (lower-case b) and is not a function call (not followed
 *   by `(`) is an asset name; matching is whole-word and case-sensitive (`B4` vs `B4_mask`);
 * - with `assets` given, each such name is replaced by `b<i>`, i its 1-based position in
 *   `assets` (names not in `assets` are left alone, and then fail as unknown names);
 * - without `assets`, `assets` becomes those names in order of first appearance, b1, b2, ….
 *
 * New-style expressions (only b1..bN and functions) come back unchanged.
 */

export interface TranslatedExpression {
  expression: string;
  /** The asset names, when the expression chose them (no `assets` given and names found). */
  assets?: string[];
}

const IDENTIFIER = /(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)(?!\w)(?!\s*\()/g;
const BAND = /^b\d+$/;

export function translateLegacyExpression(expression: string, assets?: readonly string[]): TranslatedExpression {
  const names: string[] = [];
  for (const m of expression.matchAll(IDENTIFIER)) {
    const name = m[1];
    if (!BAND.test(name) && !names.includes(name)) names.push(name);
  }
  if (names.length === 0) return { expression };
  const order = assets && assets.length > 0 ? [...assets] : names;
  const out = expression.replace(IDENTIFIER, (whole, name: string) => {
    if (BAND.test(name)) return whole;
    const i = order.indexOf(name);
    return i < 0 ? whole : `b${i + 1}`;
  });
  return assets && assets.length > 0 ? { expression: out } : { expression: out, assets: names };
}
