/**
 * The NetCDF-3 header (classic CDF-1, 64-bit offset CDF-2, CDF-5): dimensions, global
 * attributes and variables, parsed from the first bytes of the file. Hand-written because the
 * format is small and every count and offset must be checked against the file size before it
 * is trusted (a hostile header answers a 400 naming the field, never a huge allocation).
 */
import { Errors } from '../../errors.ts';
import type { AttrValue } from '../array/array-model.ts';
import { nc3Type, type Nc3Type } from './netcdf3-types.ts';

export interface Nc3Dim {
  readonly name: string;
  /** 0 for the record (unlimited) dimension. */
  readonly length: number;
}

export interface Nc3Var {
  readonly name: string;
  readonly dimIds: readonly number[];
  readonly attrs: Record<string, AttrValue>;
  readonly type: Nc3Type;
  /** File offset of the data (of the first record for record variables). */
  readonly begin: number;
}

export interface Nc3Header {
  /** 1 classic, 2 64-bit offset, 5 CDF-5. */
  readonly version: 1 | 2 | 5;
  /** Records as written in the header, or null for a streaming file (-1: count from the size). */
  readonly numrecs: number | null;
  readonly dims: readonly Nc3Dim[];
  readonly attrs: Record<string, AttrValue>;
  readonly vars: readonly Nc3Var[];
}

/** Thrown inside the parser when the buffer ends before the header does: read more and retry. */
export class NeedMoreBytes {
  constructor(readonly atLeast: number) {}
}

const NC_DIMENSION = 10;
const NC_VARIABLE = 11;
const NC_ATTRIBUTE = 12;
/** More entries than this in one list is not a real file (netCDF-c has no limit, but 1 M dims is hostile). */
const MAX_LIST = 1_000_000;

class Cursor {
  pos = 0;
  constructor(
    private readonly bytes: Uint8Array,
    /** The whole file's size (counts and offsets are checked against it), or Infinity when unknown. */
    private readonly fileSize: number,
    private readonly fail: (msg: string) => never,
  ) {}

  private need(n: number): void {
    if (this.pos + n > this.bytes.length) {
      if (this.pos + n > this.fileSize) this.fail(`the header runs past the end of the file (${this.fileSize} bytes)`);
      throw new NeedMoreBytes(this.pos + n);
    }
  }

  u32(): number {
    this.need(4);
    const b = this.bytes;
    const v = ((b[this.pos]! << 24) | (b[this.pos + 1]! << 16) | (b[this.pos + 2]! << 8) | b[this.pos + 3]!) >>> 0;
    this.pos += 4;
    return v;
  }

  /** A big-endian unsigned 64-bit count or offset; over 2^53 fails (no file is that large). */
  u64(field: string): number {
    const hi = this.u32();
    const lo = this.u32();
    if (hi >= 0x200000) this.fail(`${field} (${(BigInt(hi) << 32n) | BigInt(lo)}) is out of range`);
    return hi * 0x100000000 + lo;
  }

  bytesOf(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Skips the padding of an n-byte item to a multiple of 4. */
  pad(n: number): void {
    const rest = (4 - (n % 4)) % 4;
    this.need(rest);
    this.pos += rest;
  }

  /** A count (NON_NEG): 32-bit signed in CDF-1/2, 64-bit in CDF-5; checked against `max`. */
  count(cdf5: boolean, field: string, max: number): number {
    const v = cdf5 ? this.u64(field) : this.u32();
    if (!cdf5 && v > 0x7fffffff) this.fail(`${field} (${v}) is negative`);
    if (v > max) this.fail(`${field} (${v}) is larger than the file allows (${max})`);
    return v;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * Parses the header in `bytes` (the first bytes of a file of `fileSize` bytes; Infinity when not
 * known). Throws NeedMoreBytes when `bytes` is too short, InvalidFormat naming the bad field.
 */
export function parseNc3Header(bytes: Uint8Array, fileSize: number, location: string): Nc3Header {
  const fail = (msg: string): never => {
    throw Errors.invalidFormat(`Invalid NetCDF-3 file: ${msg}`, { context: { url: location } });
  };
  const c = new Cursor(bytes, fileSize, fail);
  const magic = c.bytesOf(4);
  if (magic[0] !== 0x43 || magic[1] !== 0x44 || magic[2] !== 0x46) fail('missing the "CDF" signature');
  const version = magic[3];
  if (version !== 1 && version !== 2 && version !== 5) return fail(`unknown version byte ${version}`);
  const cdf5 = version === 5;
  const bytesLeft = (): number => Math.max(0, fileSize - c.pos);

  // numrecs: all bits set (-1) marks a streaming file whose record count follows from its size.
  const hiRecs = cdf5 ? c.u32() : 0;
  const loRecs = c.u32();
  const streaming = loRecs === 0xffffffff && (!cdf5 || hiRecs === 0xffffffff);
  if (!streaming && (hiRecs >= 0x200000 || (!cdf5 && loRecs > 0x7fffffff))) fail('numrecs is out of range');
  const numrecs = streaming ? null : hiRecs * 0x100000000 + loRecs;

  const name = (what: string): string => {
    const n = c.count(cdf5, `the name length of ${what}`, bytesLeft());
    const text = utf8.decode(c.bytesOf(n));
    c.pad(n);
    return text;
  };

  /** Reads the list tag and count; an absent list is ZERO ZERO. */
  const listHead = (tag: number, what: string): number => {
    const t = c.u32();
    const n = c.count(cdf5, `the number of ${what}`, Math.min(MAX_LIST, bytesLeft()));
    if (t === 0 && n === 0) return 0;
    if (t !== tag) fail(`expected the ${what} list tag ${tag}, found ${t}`);
    return n;
  };

  const attrList = (owner: string): Record<string, AttrValue> => {
    const attrs: Record<string, AttrValue> = {};
    const n = listHead(NC_ATTRIBUTE, `attributes of ${owner}`);
    for (let i = 0; i < n; i++) {
      const key = name(`attribute ${i} of ${owner}`);
      const code = c.u32();
      const type = nc3Type(code, cdf5) ?? fail(`attribute "${key}" of ${owner} has unknown type ${code}`);
      const count = c.count(cdf5, `the length of attribute "${key}" of ${owner}`, Math.floor(bytesLeft() / type.size));
      const raw = c.bytesOf(count * type.size);
      c.pad(count * type.size);
      attrs[key] = attrValue(type, raw, count);
    }
    return attrs;
  };

  const nDims = listHead(NC_DIMENSION, 'dimensions');
  const dims: Nc3Dim[] = [];
  for (let i = 0; i < nDims; i++) {
    const dimName = name(`dimension ${i}`);
    const length = cdf5 ? c.u64(`the length of dimension "${dimName}"`) : c.u32();
    if (!cdf5 && length > 0x7fffffff) fail(`the length of dimension "${dimName}" (${length}) is negative`);
    dims.push({ name: dimName, length });
  }
  if (dims.filter((d) => d.length === 0).length > 1) fail('more than one record (unlimited) dimension');

  const attrs = attrList('the file');
  const nVars = listHead(NC_VARIABLE, 'variables');
  const vars: Nc3Var[] = [];
  for (let i = 0; i < nVars; i++) {
    const varName = name(`variable ${i}`);
    const rank = c.count(cdf5, `the number of dimensions of variable "${varName}"`, 1024);
    const dimIds: number[] = [];
    for (let k = 0; k < rank; k++) {
      const id = cdf5 ? c.u64(`a dimension id of variable "${varName}"`) : c.u32();
      if (id >= dims.length) fail(`variable "${varName}" names dimension id ${id}, but there are ${dims.length} dimensions`);
      if (k > 0 && dims[id]!.length === 0) fail(`variable "${varName}" uses the record dimension after its first axis`);
      dimIds.push(id);
    }
    const varAttrs = attrList(`variable "${varName}"`);
    const code = c.u32();
    const type = nc3Type(code, cdf5) ?? fail(`variable "${varName}" has unknown type ${code}`);
    if (cdf5) c.u64(`vsize of variable "${varName}"`);
    else c.u32(); // vsize: recomputed from the shape (it saturates for variables over 4 GiB)
    const begin = version === 1 ? c.u32() : c.u64(`begin of variable "${varName}"`);
    if (version === 1 && begin > 0x7fffffff) fail(`begin of variable "${varName}" (${begin}) is negative`);
    vars.push({ name: varName, dimIds, attrs: varAttrs, type, begin });
  }
  return { version, numrecs, dims, attrs, vars };
}

function attrValue(type: Nc3Type, raw: Uint8Array, count: number): AttrValue {
  if (type.code === 2) return utf8.decode(raw).replace(/\0+$/, '');
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const values: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) values[i] = readOne(type.code, view, i * type.size);
  return count === 1 ? values[0]! : values;
}

function readOne(code: number, view: DataView, at: number): number {
  switch (code) {
    case 1:
      return view.getInt8(at);
    case 3:
      return view.getInt16(at);
    case 4:
      return view.getInt32(at);
    case 5:
      return view.getFloat32(at);
    case 6:
      return view.getFloat64(at);
    case 7:
      return view.getUint8(at);
    case 8:
      return view.getUint16(at);
    case 9:
      return view.getUint32(at);
    case 10:
      return Number(view.getBigInt64(at));
    default:
      return Number(view.getBigUint64(at));
  }
}
