/**
 * One Zarr array as an ArrayVariable: zarrita decodes a chunk (codecs, endianness, sharding);
 * here it becomes a row-major typed array of our dtypes, a missing chunk becomes null, and
 * zarrita's errors become RastileErrors naming the variable and the chunk.
 */
import * as zarr from 'zarrita';
import type { TypedArray } from '../../dtype.ts';
import { Errors, isRastileError } from '../../errors.ts';
import type { ArrayDType, ArrayVariable, AttrValue } from '../array/array-model.ts';
import { halfsToFloat32 } from '../array/float16.ts';
import type { SourceStore, TrackedGetOptions } from './source-store.ts';

export interface ZarrVariableInfo {
  readonly name: string;
  readonly path: string;
  readonly dims: readonly string[];
  readonly attrs: Readonly<Record<string, AttrValue>>;
  readonly filters: readonly string[];
  /** Store location, for error context. */
  readonly location: string;
  /** A codec of the array that zarrita has no decoder for: reads fail with UnsupportedFeature naming it. */
  readonly unknownCodec?: string;
  /** A float16 array opened as uint16 (zarr-dtypes.ts): its bits become float32 values; its fill value as a number. */
  readonly float16?: { readonly fillValue: number | null };
}

const NUMERIC = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']);

/** Our dtype of a zarrita data type ('bool' reads as uint8; float16 is opened as uint16, see zarr-dtypes.ts). */
export function zarrDType(dataType: string): ArrayDType {
  if (NUMERIC.has(dataType)) return dataType as ArrayDType;
  if (dataType === 'bool') return 'uint8';
  if (dataType === 'string' || /^v2:[US]\d+$/.test(dataType) || dataType === 'v2:object') return 'string';
  return 'other';
}

export function zarrVariable(arr: zarr.Array<zarr.DataType, SourceStore>, info: ZarrVariableInfo): ArrayVariable {
  const dtype = info.float16 !== undefined ? 'float32' : zarrDType(arr.dtype);
  const shape = arr.shape;
  const chunkShape = arr.chunks;
  const where = { context: { url: info.location, variable: info.path } };
  const fv: unknown = arr.fillValue;
  const fillValue =
    info.float16 !== undefined
      ? info.float16.fillValue
      : typeof fv === 'number'
        ? fv
        : typeof fv === 'bigint'
          ? Number(fv)
          : typeof fv === 'boolean'
            ? Number(fv)
            : null;
  const chunkElements = chunkShape.reduce((a, b) => a * b, 1);

  async function readChunk(coords: readonly number[], signal?: AbortSignal): Promise<TypedArray | null> {
    signal?.throwIfAborted();
    if (dtype === 'string' || dtype === 'other') {
      throw Errors.badRequest(`Zarr variable "${info.path}" has data type ${arr.dtype}, which cannot be read as numbers`, where);
    }
    if (coords.length !== shape.length || coords.some((c, k) => !Number.isInteger(c) || c < 0 || c * chunkShape[k]! >= shape[k]!)) {
      throw Errors.badRequest(`Chunk [${coords.join(', ')}] is outside Zarr variable "${info.path}" (shape [${shape.join(', ')}])`, where);
    }
    if (info.unknownCodec !== undefined) {
      throw Errors.unsupported(`Zarr variable "${info.path}" uses the codec "${info.unknownCodec}", which this server cannot decode`, where);
    }
    const opts: TrackedGetOptions = signal === undefined ? {} : { signal };
    let chunk: zarr.Chunk<zarr.DataType>;
    try {
      chunk = await arr.getChunk([...coords], opts);
    } catch (err) {
      throw zarrError(err, info, coords);
    }
    if (opts.missing === true) return null;
    const data = chunk.data as unknown as { length: number };
    if (data.length !== chunkElements) {
      throw Errors.invalidFormat(
        `Chunk [${coords.join(', ')}] of Zarr variable "${info.path}" failed to decode: ${data.length} values instead of ${chunkElements}`,
        where,
      );
    }
    const values = rowMajor(toNumbers(chunk.data), chunk.shape, chunk.stride);
    return info.float16 !== undefined ? halfsToFloat32(values as Uint16Array) : values;
  }

  const storedType = info.float16 !== undefined ? { storedType: 'float16' } : {};
  return {
    name: info.name,
    path: info.path,
    dims: info.dims,
    shape,
    chunkShape,
    dtype,
    ...storedType,
    attrs: info.attrs,
    fillValue,
    filters: info.filters,
    readChunk,
  };
}

/** zarrita's data as one of our typed arrays (64-bit integers as float64, booleans as uint8). */
function toNumbers(data: unknown): TypedArray {
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    const out = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = Number(data[i]!);
    return out;
  }
  if (data instanceof zarr.BoolArray) return new Uint8Array(data.buffer, data.byteOffset, data.length);
  return data as TypedArray;
}

/** The chunk in C order (a transpose codec or v2 order "F" leaves other strides). */
function rowMajor(data: TypedArray, shape: readonly number[], stride: readonly number[]): TypedArray {
  const n = shape.length;
  let c = 1;
  let isC = true;
  for (let k = n - 1; k >= 0; k--) {
    if (shape[k]! > 1 && stride[k] !== c) isC = false;
    c *= shape[k]!;
  }
  if (isC) return data;
  const out = new (data.constructor as new (n: number) => TypedArray)(data.length);
  const idx = new Array<number>(n).fill(0);
  let src = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = data[src]!;
    for (let k = n - 1; k >= 0; k--) {
      idx[k]!++;
      src += stride[k]!;
      if (idx[k]! < shape[k]!) break;
      src -= stride[k]! * shape[k]!;
      idx[k] = 0;
    }
  }
  return out;
}

/** A RastileError for a failed chunk read (source failures and aborts pass through). */
function zarrError(err: unknown, info: ZarrVariableInfo, coords: readonly number[]): unknown {
  if (isRastileError(err) || (err instanceof Error && err.name === 'AbortError')) return err;
  const where = { cause: err, context: { url: info.location, variable: info.path } };
  if (zarr.isZarritaError(err, 'UnknownCodecError')) {
    return Errors.unsupported(`Zarr variable "${info.path}" uses the codec "${err.codec.replace(/^numcodecs\./, '')}", which this server cannot decode`, where);
  }
  if (zarr.isZarritaError(err, 'CodecPipelineError')) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return Errors.invalidFormat(`Chunk [${coords.join(', ')}] of Zarr variable "${info.path}" failed to decode (codec ${err.codec ?? '?'})${cause}`, where);
  }
  const message = err instanceof Error ? err.message : String(err);
  return Errors.invalidFormat(`Chunk [${coords.join(', ')}] of Zarr variable "${info.path}" cannot be read: ${message}`, where);
}
