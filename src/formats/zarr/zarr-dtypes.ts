/**
 * Zarr data types zarrita cannot hand us as numbers on Node 20:
 * - float16 (v2 `<f2`/`>f2`, v3 "float16"): zarrita needs a Float16Array, which Node 20 lacks.
 *   The array is opened as uint16 of the same byte order (its metadata rewritten for zarrita,
 *   the fill value as its half-precision bits) and the bits are turned into float32 after
 *   decoding (formats/array/float16.ts), as numpy's `astype('f4')` does.
 * - complex (v2 `<c8`/`<c16`, v3 "complex64"/"complex128") and structured v2 dtypes: listed,
 *   with a clear 400 when read (a pixel needs one real value).
 */
import { floatToHalfBits, halfToFloat } from '../array/float16.ts';

export type StoredType = { kind: 'plain' } | { kind: 'float16'; fillValue: number | null } | { kind: 'unreadable'; name: string };

/** A metadata fill value as a number ("NaN", "Infinity", "-Infinity", v3 hex bits of a float16), or null. */
function fillNumber(v: unknown, half: boolean): number | null {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (half && typeof v === 'string' && /^0x[0-9a-f]{1,4}$/i.test(v)) return Number.parseInt(v.slice(2), 16);
  return null;
}

/** What the array's metadata document (v2 .zarray or v3 zarr.json) stores. */
export function storedTypeOf(meta: Record<string, unknown>): StoredType {
  const v2 = meta['dtype'];
  const v3 = meta['data_type'];
  if (Array.isArray(v2)) return { kind: 'unreadable', name: 'structured' };
  const name = typeof v2 === 'string' ? v2.replace(/^[<>|=]/, '') : typeof v3 === 'string' ? v3 : '';
  const complex = /^c(8|16)$/.exec(name);
  if (complex !== null) return { kind: 'unreadable', name: `complex${Number(complex[1]) * 8}` };
  if (/^complex(64|128)$/.test(name)) return { kind: 'unreadable', name };
  if (name === 'f2' || name === 'float16') {
    const raw = meta['fill_value'];
    // v3 may spell the fill value as its bits ("0x7e00").
    const hex = typeof raw === 'string' && raw.startsWith('0x');
    const f = fillNumber(raw, true);
    return { kind: 'float16', fillValue: f === null ? null : hex ? halfToFloat(f) : f };
  }
  return { kind: 'plain' };
}

/** The metadata of a float16 array as zarrita should open it: uint16 of the same byte order, the fill value as bits. */
export function asUint16Doc(meta: Record<string, unknown>): Record<string, unknown> {
  const out = { ...meta };
  const raw = meta['fill_value'];
  const bits = typeof raw === 'string' && raw.startsWith('0x') ? Number.parseInt(raw.slice(2), 16) : fillNumber(raw, false);
  out['fill_value'] = bits === null ? null : typeof raw === 'string' && raw.startsWith('0x') ? bits : floatToHalfBits(bits);
  if (typeof meta['dtype'] === 'string') out['dtype'] = meta['dtype'].replace(/f2$/, 'u2');
  else out['data_type'] = 'uint16';
  return out;
}
