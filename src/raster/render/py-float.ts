/**
 * Python's `float(str)` (CPython 3.11), the one implementation for raster parameters (rescale,
 * color formula, algorithm parameters):
 * - non-ASCII whitespace counts as a space and non-ASCII decimal digits (Unicode Nd: '١٢.٥',
 *   '𝟏𝟐') as their ASCII digits, as CPython's _PyUnicode_TransformDecimalAndSpaceToASCII does;
 * - then surrounding ASCII whitespace (space, \t \n \v \f \r) is stripped;
 * - then: optional sign, and digits with single underscores between digits, an optional
 *   fraction and exponent (`1_000.5e1_0`, `.5`, `5.`), or inf / infinity / nan in any case.
 * Returns null where Python raises ValueError. Overflow gives ±Infinity, like Python.
 * Hand-written: no library parses Python's float syntax.
 */
const DECIMAL = /^[+-]?((\d(_?\d)*)(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?$/;
const SPECIAL = /^[+-]?(inf|infinity|nan)$/i;
const ASCII_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;
const NON_ASCII = /[\u007f-\uffff]/; // any UTF-16 unit above U+007E
/** Python's str.isspace() above U+007E (CPython 3.11, Unicode 14). */
const WIDE_SPACE = /^[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;
const UNICODE_DIGIT = /^\p{Nd}$/u;

export function pyFloat(text: string): number | null {
  let s = text;
  if (NON_ASCII.test(s)) {
    const ascii = asciiDigitsAndSpaces(s);
    if (ascii === null) return null;
    s = ascii;
  }
  s = s.replace(ASCII_SPACE, '');
  if (SPECIAL.test(s)) {
    if (/nan/i.test(s)) return NaN;
    return s.startsWith('-') ? -Infinity : Infinity;
  }
  if (!DECIMAL.test(s)) return null;
  return Number(s.replace(/_/g, ''));
}

/** Non-ASCII spaces → ' ', decimal digits → '0'..'9'; null for any other non-ASCII character. */
function asciiDigitsAndSpaces(text: string): string | null {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x7f) out += ch;
    else if (WIDE_SPACE.test(ch)) out += ' ';
    else if (UNICODE_DIGIT.test(ch)) out += String(digitValue(cp));
    else return null;
  }
  return out;
}

/**
 * Unicode encodes every set of decimal digits as a contiguous run 0..9 (a stability policy), and
 * adjacent sets are whole runs, so a digit's value is its offset in its run of Nd code points mod 10.
 */
function digitValue(cp: number): number {
  let k = 0;
  while (UNICODE_DIGIT.test(String.fromCodePoint(cp - k - 1))) k++;
  return k % 10;
}
