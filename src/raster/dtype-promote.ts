/**
 * numpy's result type of concatenating arrays of several dtypes (`numpy.concatenate`), on our
 * dtypes: int64 results (uint32 with a signed type) become float64, which we use for 64-bit
 * integers elsewhere too (exact up to 2^53).
 */
import type { DType } from '../dtype.ts';

const BITS: Record<DType, number> = { uint8: 8, int8: 8, uint16: 16, int16: 16, uint32: 32, int32: 32, float32: 32, float64: 64 };

export function promoteDtypes(dtypes: readonly DType[]): DType {
  let maxU = 0;
  let maxI = 0;
  let maxF = 0;
  for (const d of dtypes) {
    if (d.startsWith('float')) maxF = Math.max(maxF, BITS[d]);
    else if (d.startsWith('uint')) maxU = Math.max(maxU, BITS[d]);
    else maxI = Math.max(maxI, BITS[d]);
  }
  // the integer type holding every integer input (bits; 64 = int64)
  let intBits = 0;
  let signed = false;
  if (maxI > 0) {
    signed = true;
    intBits = maxU >= maxI ? maxU * 2 : maxI;
  } else {
    intBits = maxU;
  }
  if (maxF > 0) {
    // float32 holds 8/16-bit integers exactly; wider integers need float64
    return maxF === 64 || intBits > 16 ? 'float64' : 'float32';
  }
  if (intBits > 32) return 'float64';
  if (signed) return intBits === 8 ? 'int8' : intBits === 16 ? 'int16' : 'int32';
  return intBits === 8 ? 'uint8' : intBits === 16 ? 'uint16' : 'uint32';
}
