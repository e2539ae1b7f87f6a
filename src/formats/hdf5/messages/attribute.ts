/** Attribute message (versions 1–3): name, datatype, dataspace and the raw value bytes. */
import { Errors } from '../../../errors.ts';
import { Cursor } from '../bytes.ts';
import { parseDatatype, type Datatype } from '../datatype.ts';
import { parseDataspace, type Dataspace } from './dataspace.ts';

export interface RawAttribute {
  name: string;
  type: Datatype;
  space: Dataspace;
  data: Uint8Array;
  /** Set for a shared datatype: the committed datatype's object header address. */
  sharedTypeAddress: number | null;
}

export function parseAttribute(data: Uint8Array, sizes: { o: number; l: number }, what: string): RawAttribute {
  const c = new Cursor(data, `${what} attribute`);
  const version = c.u8('attribute version');
  if (version < 1 || version > 3) throw Errors.invalidFormat(`HDF5 ${what}: unknown attribute message version ${version}`);
  const flags = c.u8('attribute flags');
  const nameSize = c.u16('attribute name size');
  const typeSize = c.u16('attribute datatype size');
  const spaceSize = c.u16('attribute dataspace size');
  if (version === 3) c.u8('name encoding');
  const pad = (n: number): number => (version === 1 ? Math.ceil(n / 8) * 8 : n);
  const name = c.text(nameSize, 'attribute name');
  c.skip(pad(nameSize) - nameSize, 'attribute name padding');
  const typeBytes = c.bytesAt(typeSize, 'attribute datatype');
  c.skip(pad(typeSize) - typeSize, 'attribute datatype padding');
  const spaceBytes = c.bytesAt(spaceSize, 'attribute dataspace');
  c.skip(pad(spaceSize) - spaceSize, 'attribute dataspace padding');
  let type: Datatype;
  let sharedTypeAddress: number | null = null;
  if (flags & 1) {
    sharedTypeAddress = sharedAddress(typeBytes, sizes.o, what);
    type = { kind: 'other', cls: -1, size: 0, littleEndian: true, signed: false, base: null, dims: [], members: [] };
  } else type = parseDatatype(new Cursor(typeBytes, `${what} attribute ${name} datatype`));
  if (flags & 2) throw Errors.unsupported(`HDF5 ${what}: attribute ${name} uses a shared dataspace, which is not supported`);
  const space = parseDataspace(spaceBytes, sizes.l, `${what} attribute ${name}`);
  return { name, type, space, data: c.bytesAt(c.remaining), sharedTypeAddress };
}

/**
 * A shared message reference (versions 1–3) → the object header address of the shared object.
 * Messages shared through the file's shared-message heap (SOHM) are not supported.
 */
export function sharedAddress(data: Uint8Array, sizeOfOffsets: number, what: string): number {
  const c = new Cursor(data, `${what} shared message`);
  const version = c.u8('shared message version');
  const type = c.u8('shared message type');
  if (version === 1) c.skip(6);
  else if (version === 3 && type === 1) throw Errors.unsupported(`HDF5 ${what}: messages in the shared object header message heap are not supported`);
  else if (version !== 2 && version !== 3) throw Errors.invalidFormat(`HDF5 ${what}: unknown shared message version ${version}`);
  return c.uint(sizeOfOffsets, 'shared object address');
}
