/** Fill value messages (the old type 4 and type 5, versions 1–3): the raw fill bytes, if any. */
import { Errors } from '../../../errors.ts';
import { Cursor } from '../bytes.ts';

export interface FillValue {
  /** The fill bytes when defined; null when the library default (zeros) applies. */
  bytes: Uint8Array | null;
  /** True when the file says chunks are left unfilled ("undefined" fill value). */
  undefined: boolean;
}

export function parseFillValue(data: Uint8Array, what: string): FillValue {
  const c = new Cursor(data, `${what} fill value`);
  const version = c.u8('fill value version');
  if (version === 1 || version === 2) {
    c.skip(2, 'allocation and write times');
    const defined = c.u8('fill value defined');
    if (version === 2 && defined === 0) return { bytes: null, undefined: false };
    const size = c.u32('fill value size');
    return { bytes: size > 0 ? c.bytesAt(size, 'fill value') : null, undefined: false };
  }
  if (version === 3) {
    const flags = c.u8('fill value flags');
    if (flags & 0x10) return { bytes: null, undefined: true };
    if (flags & 0x20) {
      const size = c.u32('fill value size');
      return { bytes: c.bytesAt(size, 'fill value'), undefined: false };
    }
    return { bytes: null, undefined: false };
  }
  throw Errors.invalidFormat(`HDF5 ${what}: unknown fill value message version ${version}`);
}

export function parseOldFillValue(data: Uint8Array, what: string): FillValue {
  const c = new Cursor(data, `${what} fill value`);
  const size = c.u32('fill value size');
  return { bytes: size > 0 ? c.bytesAt(size, 'fill value') : null, undefined: false };
}
