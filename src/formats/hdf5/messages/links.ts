/**
 * Group-related messages: link (type 6), link info (2), symbol table (17), attribute info (21).
 */
import { Errors } from '../../../errors.ts';
import { Cursor } from '../bytes.ts';

export interface Link {
  name: string;
  /** Object header address of a hard link; null for soft and external links. */
  address: number | null;
  creationOrder: number | null;
}

export function parseLink(data: Uint8Array, sizeOfOffsets: number, what: string): Link {
  const c = new Cursor(data, `${what} link`);
  const version = c.u8('link version');
  if (version !== 1) throw Errors.invalidFormat(`HDF5 ${what}: unknown link message version ${version}`);
  const flags = c.u8('link flags');
  const type = flags & 0x08 ? c.u8('link type') : 0;
  const creationOrder = flags & 0x04 ? c.u64('link creation order') : null;
  if (flags & 0x10) c.u8('link name charset');
  const nameLen = c.uint(1 << (flags & 3), 'link name length');
  const name = c.text(nameLen, 'link name');
  const address = type === 0 ? c.uint(sizeOfOffsets, 'link address') : null;
  return { name, address, creationOrder };
}

/** Link info and attribute info share their shape: where the dense storage is. */
export interface DenseInfo {
  /** Fractal heap address, UNDEF when the storage is compact. */
  heap: number;
  /** v2 B-tree name index address. */
  nameIndex: number;
}

export function parseLinkInfo(data: Uint8Array, sizeOfOffsets: number, what: string): DenseInfo {
  const c = new Cursor(data, `${what} link info`);
  const version = c.u8('link info version');
  if (version !== 0) throw Errors.invalidFormat(`HDF5 ${what}: unknown link info version ${version}`);
  const flags = c.u8('link info flags');
  if (flags & 1) c.skip(8, 'max creation index');
  return { heap: c.uint(sizeOfOffsets, 'fractal heap address', true), nameIndex: c.uint(sizeOfOffsets, 'name index address', true) };
}

export function parseAttributeInfo(data: Uint8Array, sizeOfOffsets: number, what: string): DenseInfo {
  const c = new Cursor(data, `${what} attribute info`);
  const version = c.u8('attribute info version');
  if (version !== 0) throw Errors.invalidFormat(`HDF5 ${what}: unknown attribute info version ${version}`);
  const flags = c.u8('attribute info flags');
  if (flags & 1) c.skip(2, 'max creation index');
  return { heap: c.uint(sizeOfOffsets, 'fractal heap address', true), nameIndex: c.uint(sizeOfOffsets, 'name index address', true) };
}

export function parseSymbolTable(data: Uint8Array, sizeOfOffsets: number, what: string): { btree: number; heap: number } {
  const c = new Cursor(data, `${what} symbol table`);
  return { btree: c.uint(sizeOfOffsets, 'symbol table B-tree address'), heap: c.uint(sizeOfOffsets, 'local heap address') };
}
