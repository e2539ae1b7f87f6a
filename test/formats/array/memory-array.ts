/** In-memory ArrayFiles for tests of the array layer (no format needed): plain specs, chunked like a real file. */
import { allocate, type DType, type TypedArray } from '../../../src/dtype.ts';
import type { ArrayFile, ArrayGroup, ArrayVariable, AttrValue } from '../../../src/formats/array/array-model.ts';
import { createBlockCache } from '../../../src/formats/tiff/block-cache.ts';
import { ChunkCache } from '../../../src/formats/array/chunk-cache.ts';

export interface VarSpec {
  name: string;
  dims: string[];
  shape: number[];
  chunks?: number[];
  dtype?: DType;
  /** Row-major values (default: 0..n-1). */
  data?: ArrayLike<number>;
  attrs?: Record<string, AttrValue>;
  fillValue?: number | null;
  /** Chunk coordinates (joined by ',') that are not stored. */
  missing?: string[];
}

export interface GroupSpec {
  variables: VarSpec[];
  attrs?: Record<string, AttrValue>;
  groups?: Record<string, GroupSpec>;
}

/** Counts chunk reads (to check caching). */
export const reads = { count: 0 };

function memoryVariable(spec: VarSpec, path: string): ArrayVariable {
  const shape = spec.shape;
  const chunkShape = spec.chunks ?? shape.map((s) => Math.max(1, s));
  const dtype = spec.dtype ?? 'float32';
  const n = shape.reduce((a, b) => a * b, 1);
  const data = spec.data ?? Array.from({ length: n }, (_, i) => i);
  const missing = new Set(spec.missing ?? []);
  return {
    name: spec.name,
    path,
    dims: spec.dims,
    shape,
    chunkShape,
    dtype,
    attrs: spec.attrs ?? {},
    fillValue: spec.fillValue ?? null,
    filters: [],
    readChunk(coords: readonly number[]): Promise<TypedArray | null> {
      reads.count++;
      if (missing.has(coords.join(','))) return Promise.resolve(null);
      const size = chunkShape.reduce((a, b) => a * b, 1);
      const out = allocate(dtype, size);
      const idx = new Array<number>(shape.length).fill(0);
      for (let k = 0; k < size; k++) {
        let rem = k;
        let src = 0;
        let inside = true;
        for (let a = shape.length - 1; a >= 0; a--) {
          idx[a] = rem % chunkShape[a];
          rem = Math.floor(rem / chunkShape[a]);
        }
        for (let a = 0; a < shape.length; a++) {
          const g = coords[a] * chunkShape[a] + idx[a];
          if (g >= shape[a]) inside = false;
          src = src * shape[a] + g;
        }
        out[k] = inside ? data[src] : -999;
      }
      return Promise.resolve(out);
    },
  };
}

function memoryGroup(spec: GroupSpec, name: string, path: string): ArrayGroup {
  const prefix = path === '/' ? '/' : `${path}/`;
  return {
    name,
    path,
    attrs: spec.attrs ?? {},
    variables: new Map(spec.variables.map((v) => [v.name, memoryVariable(v, `${prefix}${v.name}`)])),
    groups: new Map(Object.entries(spec.groups ?? {}).map(([k, g]) => [k, memoryGroup(g, k, `${prefix}${k}`)])),
  };
}

export function memoryFile(root: GroupSpec, location = 'mem://test.nc', version = 'v1'): ArrayFile {
  return { location, version, driver: 'netCDF', root: memoryGroup(root, '', '/') };
}

export const newChunkCache = (maxChunkBytes = 1 << 24): ChunkCache => new ChunkCache(createBlockCache(1 << 26), maxChunkBytes);

/** A lon/lat grid: `lon` and `lat` 1-D coordinates plus variables on them. */
export function lonLat(lons: number[], lats: number[]): VarSpec[] {
  return [
    { name: 'lon', dims: ['lon'], shape: [lons.length], dtype: 'float64', data: lons, attrs: { units: 'degrees_east' } },
    { name: 'lat', dims: ['lat'], shape: [lats.length], dtype: 'float64', data: lats, attrs: { units: 'degrees_north' } },
  ];
}

export const range = (start: number, n: number, step: number): number[] => Array.from({ length: n }, (_, i) => start + i * step);
