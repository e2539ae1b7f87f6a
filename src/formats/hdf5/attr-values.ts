/**
 * Attribute values decoded to the model's AttrValue: numbers (1-element arrays as scalars, the
 * netCDF convention), fixed and variable-length strings, h5py booleans (enum FALSE/TRUE).
 * Other types (compound, references, opaque…) decode to null.
 */
import type { AttrValue } from '../array/array-model.ts';
import { Cursor, decodeText } from './bytes.ts';
import { parseDatatype, type Datatype } from './datatype.ts';
import type { FileContext } from './file-context.ts';
import { globalHeapObject } from './global-heap.ts';
import type { RawAttribute } from './messages/attribute.ts';
import { elementCount } from './messages/dataspace.ts';
import { decodeScalar } from './numbers.ts';
import { MSG, readObjectHeader } from './object-header.ts';

/** Max elements decoded from one attribute (a listing does not need more). */
const MAX_ELEMENTS = 1 << 20;

/** The datatype of a committed (named) datatype object. */
export async function committedType(ctx: FileContext, address: number, signal?: AbortSignal): Promise<Datatype> {
  const oh = await readObjectHeader(ctx, address, signal);
  const msg = oh.messages.find((m) => m.type === MSG.DATATYPE);
  if (msg === undefined) return { kind: 'other', cls: -1, size: 0, littleEndian: true, signed: false, base: null, dims: [], members: [] };
  return parseDatatype(new Cursor(msg.data, `committed datatype at ${address}`));
}

export async function attributeType(ctx: FileContext, a: RawAttribute, signal?: AbortSignal): Promise<Datatype> {
  return a.sharedTypeAddress === null ? a.type : committedType(ctx, a.sharedTypeAddress, signal);
}

/**
 * An attribute's value: synchronous when its datatype is its own (not a committed type) and not a
 * variable-length string, so a file's tens of CF attributes decode without a promise each.
 */
export function decodeAttribute(ctx: FileContext, a: RawAttribute, signal?: AbortSignal): AttrValue | Promise<AttrValue> {
  if (a.sharedTypeAddress === null) return decodeWithType(ctx, a, a.type, signal);
  return committedType(ctx, a.sharedTypeAddress, signal).then((dt) => decodeWithType(ctx, a, dt, signal));
}

/** An attribute's value with its datatype known: synchronous except for variable-length strings (global heap reads). */
function decodeWithType(ctx: FileContext, a: RawAttribute, dt: Datatype, signal?: AbortSignal): AttrValue | Promise<AttrValue> {
  const n = elementCount(a.space);
  if (a.space.dims === null || n === 0 || n > MAX_ELEMENTS || dt.size === 0) return a.space.dims === null ? null : [];
  if (a.data.length < n * dt.size) return null;
  const scalar = n === 1;
  if (dt.kind === 'int' || dt.kind === 'float') {
    const values: number[] = [];
    for (let i = 0; i < n; i++) values.push(decodeScalar(dt, a.data, i));
    return scalar ? values[0] : values;
  }
  if (dt.kind === 'enum' && dt.base !== null && isBoolEnum(dt)) {
    const v = decodeScalar(dt.base, a.data, 0);
    return scalar ? v !== 0 : null;
  }
  if (dt.kind === 'string') {
    const values: string[] = [];
    for (let i = 0; i < n; i++) values.push(fixedString(a.data.subarray(i * dt.size, (i + 1) * dt.size), dt.padding === 2));
    return scalar ? values[0] : values;
  }
  if (dt.kind === 'vlen-string') {
    return Promise.all(Array.from({ length: n }, (_, i) => vlenBytes(ctx, a.data.subarray(i * dt.size), signal).then(decodeText))).then((values) =>
      scalar ? values[0] : values,
    );
  }
  return null;
}

const isBoolEnum = (dt: Datatype): boolean => dt.members.length === 2 && dt.members.some(([k]) => k === 'FALSE') && dt.members.some(([k]) => k === 'TRUE');

function fixedString(b: Uint8Array, spacePadded: boolean): string {
  const text = decodeText(b);
  return spacePadded ? text.replace(/ +$/, '') : text;
}

/** The bytes of one variable-length element (length, global heap collection, index). */
export async function vlenBytes(ctx: FileContext, raw: Uint8Array, signal?: AbortSignal): Promise<Uint8Array> {
  const c = new Cursor(raw, 'variable-length element');
  const length = c.u32('length');
  const address = c.uint(ctx.sizeOfOffsets, 'global heap address', true);
  const index = c.u32('global heap index');
  if (length === 0 || address < 0) return new Uint8Array(0);
  return globalHeapObject(ctx, address, index, signal);
}

/** The object addresses of a vlen-of-references attribute (DIMENSION_LIST): one list per element. */
export async function referenceLists(ctx: FileContext, a: RawAttribute, signal?: AbortSignal): Promise<number[][] | null> {
  const dt = await attributeType(ctx, a, signal);
  if (dt.kind !== 'vlen' || dt.base?.kind !== 'reference' || dt.base.size !== ctx.sizeOfOffsets) return null;
  const n = elementCount(a.space);
  if (a.data.length < n * dt.size || n > 64) return null;
  const lists = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const bytes = await vlenBytes(ctx, a.data.subarray(i * dt.size), signal);
      const c = new Cursor(bytes, 'object references');
      const out: number[] = [];
      while (c.remaining >= ctx.sizeOfOffsets) out.push(c.uint(ctx.sizeOfOffsets, 'object reference'));
      return out;
    }),
  );
  return lists;
}
