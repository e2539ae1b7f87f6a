/**
 * Python's `float(str)`: surrounding whitespace, optional sign, digits with single underscores,
 * optional fraction and exponent, or inf/infinity/nan (any case). Returns null when Python would
 * raise ValueError. (The HTTP layer has the same rule; raster code must not import from http/.)
 */
const DECIMAL = /^[+-]?((\d(_?\d)*)(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?$/;
const SPECIAL = /^[+-]?(inf|infinity|nan)$/i;

export function pyFloat(text: string): number | null {
  const s = text.trim();
  if (SPECIAL.test(s)) {
    if (/nan/i.test(s)) return NaN;
    return s.startsWith('-') ? -Infinity : Infinity;
  }
  if (!DECIMAL.test(s)) return null;
  return Number(s.replace(/_/g, ''));
}
