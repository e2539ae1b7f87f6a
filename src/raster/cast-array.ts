/**
 * A band converted to another dtype by value (TypedArray.set: the target type's conversion, as
 * numpy's `astype` does for the promotions promoteDtypes gives). Kept next to promoteDtypes, the
 * only source of the target dtypes; both belong in src/raster once that layer takes them.
 */
import { allocate, dtypeOf, type DType, type TypedArray } from '../dtype.ts';

/**
 * `src` as `dtype`: `src` itself when it already has that dtype, else a new array. With
 * `copy: true` always a new array (callers that write into the result and must not touch inputs).
 */
export function castArray(src: TypedArray, dtype: DType, options: { copy?: boolean } = {}): TypedArray {
  if (options.copy !== true && dtypeOf(src) === dtype) return src;
  const out = allocate(dtype, src.length);
  out.set(src);
  return out;
}
