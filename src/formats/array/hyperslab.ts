/**
 * Reads a hyperslab (start/count per axis) of an array variable into one row-major typed array,
 * assembled from the decoded chunks it touches (through the shared ChunkCache); chunks that are
 * not stored read as the variable's fill value (0 when it has none). The output is charged to
 * the request's memory budget before it is allocated.
 */
import type { DType, TypedArray } from '../../dtype.ts';
import { allocate, bytesPerSample } from '../../dtype.ts';
import { Errors } from '../../errors.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';
import { chargeRequest } from '../../util/request-budget.ts';
import type { ArrayDType, ArrayFile, ArrayVariable } from './array-model.ts';
import type { ChunkCache } from './chunk-cache.ts';

/** The numeric type a variable's chunks are read as (64-bit integers as float64); null for strings and others. */
export function readDType(dtype: ArrayDType): DType | null {
  if (dtype === 'int64' || dtype === 'uint64') return 'float64';
  if (dtype === 'string' || dtype === 'other') return null;
  return dtype;
}

export interface Hyperslab {
  start: readonly number[];
  count: readonly number[];
}

/**
 * Reads `slab` of `v` (inside its shape) as a row-major array of shape `slab.count`. `pooled`: the
 * array is lent by BUFFER_POOL (the caller gives it back once done, see util/buffer-pool.ts).
 */
export async function readHyperslab(
  file: ArrayFile,
  v: ArrayVariable,
  slab: Hyperslab,
  cache: ChunkCache,
  signal?: AbortSignal,
  pooled = false,
): Promise<TypedArray> {
  const dtype = readDType(v.dtype);
  if (dtype === null)
    throw Errors.badRequest(`Variable '${v.path}' holds ${v.dtype === 'string' ? 'strings' : 'non-numeric values'}: it cannot be read as a grid`);
  const n = v.shape.length;
  const { start, count } = slab;
  if (start.length !== n || count.length !== n) throw Errors.internal(`hyperslab of rank ${start.length} for '${v.path}' of rank ${n}`);
  let total = 1;
  for (let a = 0; a < n; a++) {
    if (start[a] < 0 || count[a] < 0 || start[a] + count[a] > v.shape[a]) {
      throw Errors.internal(`hyperslab [${start.join(',')}]+[${count.join(',')}] outside '${v.path}' of shape [${v.shape.join(',')}]`);
    }
    total *= count[a];
  }
  chargeRequest(total * bytesPerSample(dtype), `a read of variable '${v.path}'`);
  // Every element is written below (the chunks, or the fill value, tile the hyperslab): a pooled
  // buffer's stale contents never show.
  const out = pooled && total > 0 ? BUFFER_POOL.array(dtype, total) : allocate(dtype, total);
  if (total === 0) return out;
  // Scalars have no chunk grid: one chunk at [].
  const first: number[] = [];
  const last: number[] = [];
  for (let a = 0; a < n; a++) {
    first.push(Math.floor(start[a] / v.chunkShape[a]));
    last.push(Math.floor((start[a] + count[a] - 1) / v.chunkShape[a]));
  }
  const coordsList: number[][] = [];
  const c = first.slice();
  for (;;) {
    coordsList.push(c.slice());
    let a = n - 1;
    while (a >= 0 && c[a] === last[a]) {
      c[a] = first[a];
      a--;
    }
    if (a < 0) break;
    c[a]++;
  }
  const chunks = await Promise.all(coordsList.map((coords) => cache.get(file, v, coords, signal)));
  const fill = v.fillValue ?? 0;
  for (let i = 0; i < coordsList.length; i++) copyChunk(out, chunks[i], fill, coordsList[i], v.chunkShape, start, count);
  return out;
}

/** Copies the part of one chunk (or the fill value) that lies inside the hyperslab into `out`. */
function copyChunk(
  out: TypedArray,
  chunk: TypedArray | null,
  fill: number,
  coords: readonly number[],
  chunkShape: readonly number[],
  start: readonly number[],
  count: readonly number[],
): void {
  const n = coords.length;
  if (n === 0) {
    out[0] = chunk === null ? fill : chunk[0];
    return;
  }
  // Intersection in array coordinates, per axis.
  const lo: number[] = [];
  const hi: number[] = [];
  for (let a = 0; a < n; a++) {
    const c0 = coords[a] * chunkShape[a];
    lo.push(Math.max(c0, start[a]));
    hi.push(Math.min(c0 + chunkShape[a], start[a] + count[a]));
  }
  const outStride = new Array<number>(n);
  const chunkStride = new Array<number>(n);
  outStride[n - 1] = 1;
  chunkStride[n - 1] = 1;
  for (let a = n - 2; a >= 0; a--) {
    outStride[a] = outStride[a + 1] * count[a + 1];
    chunkStride[a] = chunkStride[a + 1] * chunkShape[a + 1];
  }
  const runLength = hi[n - 1] - lo[n - 1];
  const idx = lo.slice();
  for (;;) {
    let o = 0;
    let s = 0;
    for (let a = 0; a < n; a++) {
      o += (idx[a] - start[a]) * outStride[a];
      s += (idx[a] - coords[a] * chunkShape[a]) * chunkStride[a];
    }
    if (chunk === null) out.fill(fill, o, o + runLength);
    else out.set(chunk.subarray(s, s + runLength), o);
    let a = n - 2;
    while (a >= 0 && idx[a] + 1 >= hi[a]) {
      idx[a] = lo[a];
      a--;
    }
    if (a < 0) break;
    idx[a]++;
  }
}
