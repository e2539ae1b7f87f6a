/** numpy-style data type names, as reported by /info `dtype`. */
export type DType = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

export type TypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

type Ctor = { new (length: number): TypedArray; new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): TypedArray; BYTES_PER_ELEMENT: number };

const CTORS: Record<DType, Ctor> = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  float32: Float32Array,
  float64: Float64Array,
};

export const dtypeCtor = (dtype: DType): Ctor => CTORS[dtype];
export const allocate = (dtype: DType, length: number): TypedArray => new CTORS[dtype](length);
export const bytesPerSample = (dtype: DType): number => CTORS[dtype].BYTES_PER_ELEMENT;
export const isFloat = (dtype: DType): boolean => dtype === 'float32' || dtype === 'float64';

export function dtypeOf(arr: TypedArray): DType {
  if (arr instanceof Uint8Array) return 'uint8';
  if (arr instanceof Int8Array) return 'int8';
  if (arr instanceof Uint16Array) return 'uint16';
  if (arr instanceof Int16Array) return 'int16';
  if (arr instanceof Uint32Array) return 'uint32';
  if (arr instanceof Int32Array) return 'int32';
  if (arr instanceof Float32Array) return 'float32';
  return 'float64';
}

/** [min, max] representable by the dtype (numpy iinfo/finfo). */
export function dtypeRange(dtype: DType): [number, number] {
  switch (dtype) {
    case 'uint8':
      return [0, 255];
    case 'int8':
      return [-128, 127];
    case 'uint16':
      return [0, 65535];
    case 'int16':
      return [-32768, 32767];
    case 'uint32':
      return [0, 4294967295];
    case 'int32':
      return [-2147483648, 2147483647];
    case 'float32':
      return [-3.4028234663852886e38, 3.4028234663852886e38];
    case 'float64':
      return [-Number.MAX_VALUE, Number.MAX_VALUE];
  }
}

/**
 * A resampled value stored into an integer band: rounded to nearest (halves up, as GDAL's
 * kernels do) and clamped to the dtype range [lo, hi] (from dtypeRange). NaN stays NaN (the
 * typed array then stores 0).
 */
export function roundToRange(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(v)));
}

/**
 * GDAL ignores a nodata value an integer band cannot hold (e.g. -10000 on a Byte band), so the
 * dataset then has no nodata at all.
 */
export function representableNodata(nodata: number | null, dtype: DType): number | null {
  if (nodata === null || isFloat(dtype)) return nodata;
  const [lo, hi] = dtypeRange(dtype);
  return Number.isInteger(nodata) && nodata >= lo && nodata <= hi ? nodata : null;
}
