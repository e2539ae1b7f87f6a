/**
 * A minimal little-endian classic TIFF writer: one IFD, entries given as typed values, laid out
 * as header | IFD | out-of-line values | image data. Offsets of the image data are resolved by
 * the caller through `dataOffset`.
 */
export const TiffType = { ASCII: 2, SHORT: 3, LONG: 4, DOUBLE: 12 } as const;
type TypeCode = (typeof TiffType)[keyof typeof TiffType];

export interface TiffEntry {
  tag: number;
  type: TypeCode;
  values: readonly number[] | string;
}

const SIZE: Record<TypeCode, number> = { 2: 1, 3: 2, 4: 4, 12: 8 };

function entryCount(e: TiffEntry): number {
  return typeof e.values === 'string' ? e.values.length + 1 : e.values.length;
}

function writeValues(buf: Buffer, at: number, e: TiffEntry): void {
  if (typeof e.values === 'string') {
    buf.write(e.values + '\0', at, 'latin1');
    return;
  }
  e.values.forEach((v, i) => {
    if (e.type === TiffType.SHORT) buf.writeUInt16LE(v, at + 2 * i);
    else if (e.type === TiffType.LONG) buf.writeUInt32LE(v, at + 4 * i);
    else buf.writeDoubleLE(v, at + 8 * i);
  });
}

/** Size of header + IFD + out-of-line values: where image data may start. */
export function tiffHeaderSize(entries: readonly TiffEntry[]): number {
  let size = 8 + 2 + entries.length * 12 + 4;
  for (const e of entries) {
    const bytes = entryCount(e) * SIZE[e.type];
    if (bytes > 4) size += bytes + (bytes & 1);
  }
  return size;
}

/** Header + IFD + out-of-line values (entries sorted by tag here). */
export function writeTiffHeader(entries: readonly TiffEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const buf = Buffer.alloc(tiffHeaderSize(sorted));
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(sorted.length, 8);
  let extra = 8 + 2 + sorted.length * 12 + 4;
  sorted.forEach((e, i) => {
    const at = 10 + i * 12;
    const count = entryCount(e);
    const bytes = count * SIZE[e.type];
    buf.writeUInt16LE(e.tag, at);
    buf.writeUInt16LE(e.type, at + 2);
    buf.writeUInt32LE(count, at + 4);
    if (bytes <= 4) writeValues(buf, at + 8, e);
    else {
      buf.writeUInt32LE(extra, at + 8);
      writeValues(buf, extra, e);
      extra += bytes + (bytes & 1);
    }
  });
  buf.writeUInt32LE(0, 10 + sorted.length * 12); // no next IFD
  return buf;
}
