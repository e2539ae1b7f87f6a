/** Filter pipeline message (versions 1 and 2): the filters a chunk went through, in write order. */
import { Errors } from '../../../errors.ts';
import { Cursor } from '../bytes.ts';

export interface FilterSpec {
  id: number;
  name: string;
  optional: boolean;
  params: number[];
}

const KNOWN: Record<number, string> = {
  1: 'deflate',
  2: 'shuffle',
  3: 'fletcher32',
  4: 'szip',
  5: 'nbit',
  6: 'scaleoffset',
  307: 'bzip2',
  32000: 'lzf',
  32001: 'blosc',
  32004: 'lz4',
  32008: 'bitshuffle',
  32013: 'zfp',
  32015: 'zstd',
  32026: 'blosc2',
};

export const filterName = (f: FilterSpec): string => KNOWN[f.id] ?? (f.name !== '' ? f.name : `filter ${f.id}`);

export function parseFilterPipeline(data: Uint8Array, what: string): FilterSpec[] {
  const c = new Cursor(data, `${what} filter pipeline`);
  const version = c.u8('filter pipeline version');
  const n = c.u8('number of filters');
  if (version === 1) c.skip(6);
  else if (version !== 2) throw Errors.invalidFormat(`HDF5 ${what}: unknown filter pipeline version ${version}`);
  if (n > 32) throw Errors.invalidFormat(`HDF5 ${what}: ${n} filters is more than HDF5 allows (32)`);
  const out: FilterSpec[] = [];
  for (let i = 0; i < n; i++) {
    const id = c.u16('filter id');
    const nameLen = version === 1 || id >= 256 ? c.u16('filter name length') : 0;
    const flags = c.u16('filter flags');
    const nParams = c.u16('filter parameter count');
    let name = '';
    if (nameLen > 0) {
      name = c.text(nameLen, 'filter name');
      if (version === 1) c.skip((8 - (nameLen % 8)) % 8, 'filter name padding');
    }
    const params: number[] = [];
    for (let k = 0; k < nParams; k++) params.push(c.u32('filter parameter'));
    if (version === 1 && nParams % 2 === 1) c.skip(4, 'filter padding');
    out.push({ id, name, optional: (flags & 1) !== 0, params });
  }
  return out;
}
