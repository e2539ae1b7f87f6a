/**
 * The HDF5 superblock (versions 0–3): where the file starts (signature at 0 or 512·2^k after a
 * user block), its address and length sizes, and where the root group is.
 */
import { Errors } from '../../errors.ts';
import { Cursor, UNDEF } from './bytes.ts';

const SIGNATURE = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

export interface Superblock {
  version: number;
  /** Absolute offset of the signature. */
  at: number;
  sizeOfOffsets: number;
  sizeOfLengths: number;
  baseAddress: number;
  eofAddress: number;
  /** Object header of the root group. */
  rootAddress: number;
  /** Version 0/1: the root's cached symbol table (B-tree and local heap), when given. */
  rootSymbolTable: { btree: number; heap: number } | null;
}

const hasSignatureAt = (b: Uint8Array, at: number): boolean => b.length >= at + 8 && SIGNATURE.every((v, i) => b[at + i] === v);

/** Offsets where a superblock may start, within `length` bytes. */
function candidates(length: number): number[] {
  const out = [0];
  for (let at = 512; at + 8 <= length; at *= 2) out.push(at);
  return out;
}

/** True when `head` (the first bytes of a file) holds an HDF5 signature at 0, 512, 1024… */
export function isHdf5Signature(head: Uint8Array): boolean {
  return candidates(head.length).some((at) => hasSignatureAt(head, at));
}

export function parseSuperblock(head: Uint8Array): Superblock {
  const at = candidates(head.length).find((o) => hasSignatureAt(head, o));
  if (at === undefined) throw Errors.invalidFormat('Not an HDF5 file: no HDF5 signature in its first bytes');
  const c = new Cursor(head, 'superblock', at + 8);
  const version = c.u8('superblock version');
  if (version > 3) throw Errors.unsupported(`HDF5 superblock version ${version} is not supported (0–3 are)`);
  let sizeOfOffsets: number;
  let sizeOfLengths: number;
  let rootSymbolTable: Superblock['rootSymbolTable'] = null;
  let baseAddress: number;
  let eofAddress: number;
  let rootAddress: number;
  if (version <= 1) {
    c.skip(4, 'free-space/root/shared versions');
    sizeOfOffsets = c.u8('size of offsets');
    sizeOfLengths = c.u8('size of lengths');
    checkSizes(sizeOfOffsets, sizeOfLengths);
    c.skip(1);
    c.skip(4, 'B-tree K values');
    c.skip(4, 'consistency flags');
    if (version === 1) c.skip(4, 'indexed storage K');
    baseAddress = c.uint(sizeOfOffsets, 'base address');
    c.uint(sizeOfOffsets, 'free-space address', true);
    eofAddress = c.uint(sizeOfOffsets, 'end-of-file address', true);
    c.uint(sizeOfOffsets, 'driver information address', true);
    // root group symbol table entry
    c.uint(sizeOfOffsets, 'root link name offset', true);
    rootAddress = c.uint(sizeOfOffsets, 'root object header address', true);
    const cacheType = c.u32('root cache type');
    c.skip(4);
    if (cacheType === 1) {
      const btree = c.uint(sizeOfOffsets, 'root B-tree address', true);
      const heap = c.uint(sizeOfOffsets, 'root local heap address', true);
      rootSymbolTable = { btree, heap };
    }
  } else {
    sizeOfOffsets = c.u8('size of offsets');
    sizeOfLengths = c.u8('size of lengths');
    checkSizes(sizeOfOffsets, sizeOfLengths);
    c.skip(1, 'flags');
    baseAddress = c.uint(sizeOfOffsets, 'base address');
    c.uint(sizeOfOffsets, 'superblock extension address', true);
    eofAddress = c.uint(sizeOfOffsets, 'end-of-file address', true);
    rootAddress = c.uint(sizeOfOffsets, 'root object header address', true);
  }
  if (rootAddress === UNDEF) throw Errors.invalidFormat('HDF5 superblock: the root group has no object header address');
  return { version, at, sizeOfOffsets, sizeOfLengths, baseAddress, eofAddress, rootAddress, rootSymbolTable };
}

function checkSizes(o: number, l: number): void {
  if (![2, 4, 8].includes(o)) throw Errors.invalidFormat(`HDF5 superblock: size of offsets ${o} is not 2, 4 or 8`);
  if (![2, 4, 8].includes(l)) throw Errors.invalidFormat(`HDF5 superblock: size of lengths ${l} is not 2, 4 or 8`);
}
