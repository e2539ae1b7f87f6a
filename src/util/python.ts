/**
 * Python emulation: the one home for what must print, parse or round exactly like CPython 3.11
 * (TiTiler's responses and pydantic's messages are compared as text by clients and by our tests).
 * - `pyRepr`/`pyTypeName`: `repr()` and type names of JSON values (pydantic `input_value=…,
 *   input_type=…`). JSON cannot tell 45 from 45.0, so integral numbers below 1e16 are shown as
 *   Python ints and every other number as a Python float.
 * - `pyFloatRepr`: `repr(float)` (also Content-Bbox and legacy redirect paths), `-0` → `'-0.0'`.
 * - `pyFloat`: `float(str)`; `pyRound`: `round(x[, ndigits])`.
 * Hand-written: no library emulates these.
 */

export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isPyInt(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return isPyInt(v) ? v.toFixed(0) : pyFloatRepr(v);
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

const isPyInt = (v: number): boolean => Number.isInteger(v) && Math.abs(v) < 1e16;

/** Python's float repr: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [mant, expText] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const sign = exp < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  let text: string;
  if (exp >= 0) {
    const intLen = exp + 1;
    text = digits.length <= intLen ? `${digits.padEnd(intLen, '0')}.0` : `${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  } else {
    text = `0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return neg ? `-${text}` : text;
}

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return quote + out + quote;
}

/** How pydantic-core (Rust `Display` of f64) prints a constraint: never in exponent form. */
export function constraintText(v: number): string {
  if (Number.isInteger(v)) return v.toFixed(0);
  const s = String(v);
  if (!s.includes('e')) return s;
  return v.toFixed(20).replace(/0+$/, '');
}

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

/**
 * Python's round(x, ndigits) (round(x) when ndigits is 0), ndigits ≥ 0: ties to even, decided on
 * the exact binary value, the result being the double nearest to the rounded decimal (as CPython
 * does). ndigits 0 takes the cheap path (x % 1 is exact); otherwise the digits are rounded as text,
 * because Number.toFixed rounds ties away from zero and adding 10^-n in doubles is inexact.
 */
export function pyRound(x: number, ndigits = 0): number {
  if (ndigits === 0) {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  if (!Number.isFinite(x)) return x;
  const exact = Math.abs(x).toFixed(100); // every double below 1e21 has a finite decimal expansion
  const cut = exact.indexOf('.') + 1 + ndigits;
  const head = exact.slice(0, cut);
  const rest = exact.slice(cut);
  let up = rest[0] > '5';
  if (rest[0] === '5') up = /[1-9]/.test(rest.slice(1)) || Number(head[head.length - 1]) % 2 === 1;
  const r = Number(up ? incrementDecimal(head) : head);
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** Adds one unit in the last place to a non-negative decimal text ('9.99' → '10.00'). */
function incrementDecimal(text: string): string {
  const d = text.split('');
  for (let i = d.length - 1; i >= 0; i--) {
    if (d[i] === '.') continue;
    if (d[i] !== '9') {
      d[i] = String(Number(d[i]) + 1);
      return d.join('');
    }
    d[i] = '0';
  }
  return `1${d.join('')}`;
}
