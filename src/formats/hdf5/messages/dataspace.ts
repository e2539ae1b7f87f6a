/** Dataspace message (versions 1 and 2): the shape and maximum shape of a dataset or attribute. */
import { Errors } from '../../../errors.ts';
import { Cursor } from '../bytes.ts';

export interface Dataspace {
  /** [] for a scalar; null for the null dataspace (no elements). */
  dims: number[] | null;
  /** Maximum sizes; Infinity for unlimited. Same as dims when not stored. */
  maxDims: number[];
}

const MAX_RANK = 32;

export function parseDataspace(data: Uint8Array, sizeOfLengths: number, what: string): Dataspace {
  const c = new Cursor(data, `${what} dataspace`);
  const version = c.u8('dataspace version');
  if (version !== 1 && version !== 2) throw Errors.invalidFormat(`HDF5 ${what}: unknown dataspace version ${version}`);
  const rank = c.u8('dataspace rank');
  const flags = c.u8('dataspace flags');
  let type = 1;
  if (version === 1) c.skip(5);
  else type = c.u8('dataspace type');
  if (rank > MAX_RANK) throw Errors.invalidFormat(`HDF5 ${what}: dataspace rank ${rank} is over ${MAX_RANK}`);
  if (type === 2) return { dims: null, maxDims: [] };
  if (type === 0 || rank === 0) return { dims: [], maxDims: [] };
  const dims: number[] = [];
  for (let i = 0; i < rank; i++) dims.push(c.uint(sizeOfLengths, 'dimension size'));
  let maxDims = dims.slice();
  if (flags & 1) {
    maxDims = [];
    for (let i = 0; i < rank; i++) {
      const m = c.uint(sizeOfLengths, 'maximum dimension size', true);
      maxDims.push(m < 0 ? Infinity : m);
    }
  }
  return { dims, maxDims };
}

/** Number of elements (1 for a scalar, 0 for null). */
export function elementCount(ds: Dataspace): number {
  if (ds.dims === null) return 0;
  return ds.dims.reduce((a, b) => a * b, 1);
}
