/** One NetCDF-3 variable as an ArrayVariable: shape, virtual chunks, and chunk reads by byte range. */
import { allocate, type TypedArray } from '../../dtype.ts';
import { Errors } from '../../errors.ts';
import type { Source } from '../../sources/source.ts';
import type { ArrayVariable, AttrValue } from '../array/array-model.ts';
import type { Nc3Var } from './netcdf3-header.ts';
import { decodeBigEndian } from './netcdf3-types.ts';
import { virtualChunkShape } from './virtual-chunks.ts';

/** Where a variable's bytes are: offset of its first element (record 0), and the record stride. */
export interface Nc3Layout {
  readonly shape: readonly number[];
  readonly dims: readonly string[];
  readonly isRecord: boolean;
  /** Bytes between two records of every record variable (0 for fixed-size variables). */
  readonly recordStride: number;
}

export function nc3Variable(source: Source, v: Nc3Var, layout: Nc3Layout, chunkBytes: number): ArrayVariable {
  const { shape, isRecord, recordStride } = layout;
  const size = v.type.size;
  const chunkShape = virtualChunkShape(shape, size, isRecord ? 1 : 0, chunkBytes);
  const fill = v.attrs['_FillValue'];
  const fillValue = typeof fill === 'number' ? fill : Array.isArray(fill) && typeof fill[0] === 'number' ? fill[0] : v.type.defaultFill;
  // Row-major strides in elements over the axes inside one record (all axes for fixed-size variables).
  const strides: number[] = shape.map(() => 0);
  let acc = 1;
  for (let k = shape.length - 1; k >= (isRecord ? 1 : 0); k--) {
    strides[k] = acc;
    acc *= shape[k]!;
  }
  const chunkElements = chunkShape.reduce((a, b) => a * b, 1);
  const path = `/${v.name}`;
  const where = { context: { url: source.url, variable: path } };

  async function readChunk(coords: readonly number[], signal?: AbortSignal): Promise<TypedArray | null> {
    signal?.throwIfAborted();
    if (v.type.dtype === 'string' || v.type.dtype === 'other') {
      throw Errors.badRequest(`Variable "${v.name}" is a NetCDF char array (text): it cannot be read as numbers`, where);
    }
    if (coords.length !== shape.length || coords.some((c, k) => !Number.isInteger(c) || c < 0 || c * chunkShape[k]! >= shape[k]!)) {
      throw Errors.badRequest(`Chunk [${coords.join(', ')}] is outside variable "${v.name}" (shape [${shape.join(', ')}])`, where);
    }
    let offset = v.begin;
    let count = 1;
    for (let k = 0; k < shape.length; k++) {
      const start = coords[k]! * chunkShape[k]!;
      count *= Math.min(chunkShape[k]!, shape[k]! - start);
      offset += isRecord && k === 0 ? start * recordStride : start * strides[k]! * size;
    }
    const want = count * size;
    const bytes = want === 0 ? new Uint8Array(0) : await source.fetch(offset, want, signal);
    if (bytes.length < want) {
      throw Errors.invalidFormat(`NetCDF-3 variable "${v.name}" is truncated: ${want} bytes wanted at offset ${offset}, ${bytes.length} found`, where);
    }
    const out = allocate(v.type.dtype === 'int64' || v.type.dtype === 'uint64' ? 'float64' : v.type.dtype, chunkElements);
    decodeBigEndian(v.type, bytes, count, out);
    return out;
  }

  const attrs: Record<string, AttrValue> = v.attrs;
  return { name: v.name, path, dims: layout.dims, shape, chunkShape, dtype: v.type.dtype, attrs, fillValue, filters: [], readChunk };
}
