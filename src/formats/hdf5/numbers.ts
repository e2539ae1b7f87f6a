/**
 * Raw element bytes → typed arrays in the machine's (little-endian) order. 64-bit integers
 * become Float64Array (the model's rule: exact to 2^53).
 */
import { allocate, dtypeCtor, type DType, type TypedArray } from '../../dtype.ts';
import type { ArrayDType } from '../array/array-model.ts';
import { decodeHalfBytes, halfToFloat } from '../array/float16.ts';
import type { Datatype } from './datatype.ts';

/** The typed-array element type a numeric ArrayDType is delivered as. */
export function deliveredDType(d: ArrayDType): DType | null {
  if (d === 'int64' || d === 'uint64') return 'float64';
  if (d === 'string' || d === 'other') return null;
  return d;
}

/**
 * Decode `count` elements of `dt` from `raw` (at least count × size bytes). When the stored
 * order is little-endian and the dtype is not 64-bit integer, the result may share `raw`'s
 * buffer (copied only when misaligned).
 */
export function decodeNumbers(dt: Datatype, target: DType, raw: Uint8Array, count: number): TypedArray {
  const size = dt.size;
  if (dt.kind === 'float' && size === 2) return decodeHalfBytes(raw, count, dt.littleEndian);
  if (dt.kind === 'int' && size === 8) {
    const out = new Float64Array(count);
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const le = dt.littleEndian;
    for (let i = 0; i < count; i++) out[i] = Number(dt.signed ? view.getBigInt64(i * 8, le) : view.getBigUint64(i * 8, le));
    return out;
  }
  if ((dt.littleEndian || size === 1) && raw.byteOffset % size === 0 && raw.length >= count * size) {
    // the bytes are already in machine order: a view, no copy (raw is ours, fresh from a decoder or fetch)
    return new (dtypeCtor(target))(raw.buffer, raw.byteOffset, count);
  }
  const out = allocate(target, count);
  const bytes = new Uint8Array(out.buffer, out.byteOffset, count * size);
  if (dt.littleEndian || size === 1) bytes.set(raw.subarray(0, count * size));
  else {
    for (let i = 0; i < count * size; i += size) for (let k = 0; k < size; k++) bytes[i + k] = raw[i + size - 1 - k];
  }
  return out;
}

/** One element of a numeric type as a JavaScript number. */
export function decodeScalar(dt: Datatype, raw: Uint8Array, index = 0): number {
  const view = new DataView(raw.buffer, raw.byteOffset + index * dt.size, dt.size);
  const le = dt.littleEndian;
  if (dt.kind === 'float' && dt.size === 2) return halfToFloat(view.getUint16(0, le));
  if (dt.kind === 'float') return dt.size === 4 ? view.getFloat32(0, le) : dt.size === 8 ? view.getFloat64(0, le) : NaN;
  switch (dt.size) {
    case 1:
      return dt.signed ? view.getInt8(0) : view.getUint8(0);
    case 2:
      return dt.signed ? view.getInt16(0, le) : view.getUint16(0, le);
    case 4:
      return dt.signed ? view.getInt32(0, le) : view.getUint32(0, le);
    case 8:
      return Number(dt.signed ? view.getBigInt64(0, le) : view.getBigUint64(0, le));
    default:
      return NaN;
  }
}
