/**
 * The datatype message (classes 0–10): enough to read numbers (fixed point, IEEE floats, either
 * byte order), strings (fixed and variable length), and to describe (and skip) the rest:
 * compound, enum, array, reference, opaque, bitfield, time.
 */
import { Errors } from '../../errors.ts';
import type { ArrayDType } from '../array/array-model.ts';
import { Cursor, limitEncSize } from './bytes.ts';

export type TypeKind = 'int' | 'float' | 'string' | 'vlen-string' | 'vlen' | 'reference' | 'enum' | 'compound' | 'array' | 'other';

export interface Datatype {
  kind: TypeKind;
  /** HDF5 class number (0 fixed point … 10 array). */
  cls: number;
  /** Bytes per element as stored. */
  size: number;
  littleEndian: boolean;
  signed: boolean;
  /** Enum/vlen/array element type. */
  base: Datatype | null;
  /** Array class: its dimensions. */
  dims: number[];
  /** Enum members (name → value). */
  members: Array<[string, number]>;
  /** Strings: 0 null-terminated, 1 null-padded, 2 space-padded. */
  padding?: number;
  /** Compound: member datatypes (complex numbers are compounds of two floats, h5py's 'r' and 'i'). */
  fields?: Datatype[];
}

const CLASS_NAMES = ['fixed-point', 'floating-point', 'time', 'string', 'bitfield', 'opaque', 'compound', 'reference', 'enum', 'variable-length', 'array'];

/** Parse one datatype at the cursor (consuming exactly its bytes). */
export function parseDatatype(c: Cursor, depth = 0): Datatype {
  if (depth > 8) throw Errors.invalidFormat(`HDF5 ${c.what}: datatype nested too deeply`);
  const cv = c.u8('datatype class');
  const cls = cv & 0x0f;
  const version = cv >> 4;
  const b0 = c.u8('datatype bits');
  const b1 = c.u8('datatype bits');
  c.u8('datatype bits');
  const size = c.u32('datatype size');
  const dt: Datatype = { kind: 'other', cls, size, littleEndian: (b0 & 1) === 0, signed: false, base: null, dims: [], members: [] };
  switch (cls) {
    case 0: // fixed point
      dt.kind = 'int';
      dt.signed = (b0 & 0x08) !== 0;
      c.skip(4, 'fixed-point properties');
      break;
    case 1: // floating point
      dt.kind = 'float';
      if (b0 & 0x40) throw Errors.unsupported('HDF5 VAX-order floating point is not supported');
      if (!ieeeLayout(c, size)) dt.kind = 'other';
      break;
    case 2:
      c.skip(2, 'time properties');
      break;
    case 3:
      dt.kind = 'string';
      dt.padding = b0 & 0x0f;
      break;
    case 4:
      c.skip(4, 'bitfield properties');
      break;
    case 5:
      c.skip(b0, 'opaque tag');
      break;
    case 6:
      dt.fields = compoundFields(c, version, (b1 << 8) | b0, size, depth);
      dt.kind = 'compound';
      break;
    case 7:
      dt.kind = 'reference';
      break;
    case 8: {
      dt.kind = 'enum';
      const n = (b1 << 8) | b0;
      const base = parseDatatype(c, depth + 1);
      dt.base = base;
      const names: string[] = [];
      for (let i = 0; i < n; i++) names.push(readName(c, version < 3));
      for (let i = 0; i < n; i++) {
        const v = new Cursor(c.bytesAt(base.size, 'enum value'), c.what);
        dt.members.push([names[i], base.size <= 8 ? v.uint(base.size, 'enum value') : 0]);
      }
      break;
    }
    case 9: {
      const base = parseDatatype(c, depth + 1);
      dt.base = base;
      dt.kind = (b0 & 0x0f) === 1 ? 'vlen-string' : 'vlen';
      break;
    }
    case 10: {
      dt.kind = 'array';
      const rank = c.u8('array rank');
      if (version < 3) c.skip(3);
      for (let i = 0; i < rank; i++) dt.dims.push(c.u32('array dimension'));
      if (version < 3) c.skip(4 * rank, 'array permutation');
      dt.base = parseDatatype(c, depth + 1);
      break;
    }
    default:
      throw Errors.invalidFormat(`HDF5 ${c.what}: unknown datatype class ${cls}`);
  }
  return dt;
}

function readName(c: Cursor, padded: boolean): string {
  const start = c.pos;
  const nul = c.bytes.indexOf(0, start);
  if (nul < 0) throw Errors.invalidFormat(`HDF5 ${c.what}: unterminated member name`);
  const name = c.text(nul - start + 1);
  if (padded) c.align(8, start);
  return name;
}

/**
 * Reads the floating-point properties: true for the IEEE layouts read here (binary16, binary32,
 * binary64 with their standard exponent/mantissa positions and bias).
 */
function ieeeLayout(c: Cursor, size: number): boolean {
  const offset = c.u16('float bit offset');
  const precision = c.u16('float precision');
  const expAt = c.u8('float exponent location');
  const expBits = c.u8('float exponent size');
  const mantAt = c.u8('float mantissa location');
  const mantBits = c.u8('float mantissa size');
  const bias = c.u32('float exponent bias');
  const std = { 2: [5, 10, 15], 4: [8, 23, 127], 8: [11, 52, 1023] }[size];
  if (std === undefined) return false;
  return offset === 0 && precision === size * 8 && expBits === std[0] && mantBits === std[1] && bias === std[2] && mantAt === 0 && expAt === std[1];
}

function compoundFields(c: Cursor, version: number, n: number, size: number, depth: number): Datatype[] {
  const out: Datatype[] = [];
  for (let i = 0; i < n; i++) {
    readName(c, version < 3);
    if (version === 1) {
      c.skip(4, 'member offset');
      c.skip(28, 'member dimensions');
    } else if (version === 2) c.skip(4, 'member offset');
    else c.skip(limitEncSize(size), 'member offset');
    out.push(parseDatatype(c, depth + 1));
  }
  return out;
}

/** The model's element type for a datatype. */
export function arrayDTypeOf(dt: Datatype): ArrayDType {
  if (dt.kind === 'int') {
    const s = dt.signed;
    if (dt.size === 1) return s ? 'int8' : 'uint8';
    if (dt.size === 2) return s ? 'int16' : 'uint16';
    if (dt.size === 4) return s ? 'int32' : 'uint32';
    if (dt.size === 8) return s ? 'int64' : 'uint64';
  }
  if (dt.kind === 'float') {
    if (dt.size === 2 || dt.size === 4) return 'float32'; // float16 is read as float32 (numpy's astype('f4'))
    if (dt.size === 8) return 'float64';
  }
  if (dt.kind === 'string' || dt.kind === 'vlen-string') return 'string';
  return 'other';
}

/** A short description for messages ('float16', 'complex64', 'compound (12 bytes)'). */
export function describeType(dt: Datatype): string {
  if (dt.kind === 'float' && dt.size === 2) return 'float16';
  const f = dt.fields;
  if (dt.kind === 'compound' && f?.length === 2 && f.every((m) => m.kind === 'float' && m.size === dt.size / 2)) return `complex${dt.size * 8}`;
  return `${CLASS_NAMES[dt.cls] ?? 'unknown'} (${dt.size} bytes)`;
}
