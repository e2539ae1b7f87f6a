/**
 * NetCDF-3 external types (classic, 64-bit offset and CDF-5): codes, sizes, the ArrayDType each
 * is read as, the default fill values of the NetCDF rules, and big-endian decoding into typed
 * arrays.
 */
import type { TypedArray } from '../../dtype.ts';
import type { ArrayDType } from '../array/array-model.ts';

export interface Nc3Type {
  readonly code: number;
  readonly name: string;
  readonly size: number;
  readonly dtype: ArrayDType;
  /** The NetCDF default fill value (netcdf.h NC_FILL_*); null for char. */
  readonly defaultFill: number | null;
}

const T = (code: number, name: string, size: number, dtype: ArrayDType, defaultFill: number | null): Nc3Type => ({ code, name, size, dtype, defaultFill });

/** Codes 1–6 are classic; 7–11 exist only in CDF-5. NC_FILL_INT64/UINT64 are rounded by the double. */
const TYPES: readonly Nc3Type[] = [
  T(1, 'byte', 1, 'int8', -127),
  T(2, 'char', 1, 'string', null),
  T(3, 'short', 2, 'int16', -32767),
  T(4, 'int', 4, 'int32', -2147483647),
  T(5, 'float', 4, 'float32', Math.fround(9.969209968386869e36)),
  T(6, 'double', 8, 'float64', 9.969209968386869e36),
  T(7, 'ubyte', 1, 'uint8', 255),
  T(8, 'ushort', 2, 'uint16', 65535),
  T(9, 'uint', 4, 'uint32', 4294967295),
  T(10, 'int64', 8, 'int64', Number(-9223372036854775806n)),
  T(11, 'uint64', 8, 'uint64', Number(18446744073709551614n)),
];

/** The type of `code`, or undefined when the format version does not define it. */
export function nc3Type(code: number, cdf5: boolean): Nc3Type | undefined {
  if (code < 1 || code > (cdf5 ? 11 : 6)) return undefined;
  return TYPES[code - 1];
}

/**
 * Decodes `count` big-endian values of `type` from `bytes` into `out` (a typed array of the
 * matching ArrayDType, 64-bit integers into a Float64Array). `bytes` must hold them all.
 */
export function decodeBigEndian(type: Nc3Type, bytes: Uint8Array, count: number, out: TypedArray): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (type.code) {
    case 1:
    case 7:
      new Uint8Array(out.buffer, out.byteOffset, count).set(bytes.subarray(0, count));
      return;
    case 3:
      for (let i = 0; i < count; i++) out[i] = view.getInt16(2 * i);
      return;
    case 8:
      for (let i = 0; i < count; i++) out[i] = view.getUint16(2 * i);
      return;
    case 4:
      for (let i = 0; i < count; i++) out[i] = view.getInt32(4 * i);
      return;
    case 9:
      for (let i = 0; i < count; i++) out[i] = view.getUint32(4 * i);
      return;
    case 5:
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i);
      return;
    case 6:
      for (let i = 0; i < count; i++) out[i] = view.getFloat64(8 * i);
      return;
    case 10:
      for (let i = 0; i < count; i++) out[i] = Number(view.getBigInt64(8 * i));
      return;
    case 11:
      for (let i = 0; i < count; i++) out[i] = Number(view.getBigUint64(8 * i));
      return;
    default:
      throw new TypeError(`NetCDF-3 type ${type.name} has no numeric decoding`);
  }
}
