/**
 * Python `repr()` and type names of JSON values, for pydantic-style validation messages
 * (`input_value=…, input_type=…`). JSON cannot tell 45 from 45.0, so integral numbers below
 * 1e16 are shown as Python ints and every other number as a Python float.
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
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
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
