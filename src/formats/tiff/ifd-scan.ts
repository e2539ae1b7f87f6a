/**
 * A cheap walk of the IFD chain before @cogeotiff/core parses it. cogeotiff follows the
 * next-IFD pointers without any loop or count check, so a corrupt or hostile file whose chain
 * loops would spin forever; this walk rejects loops, absurd directory counts and directories
 * beyond the end of the file with a clear InvalidFormat error. Reads go through the open-phase
 * memo of the adapter, so cogeotiff reuses them.
 */
import { Errors } from '../../errors.ts';
import { sniffFormat } from '../sniff.ts';

export const MAX_IFDS = 4096;
/** More tags than any real TIFF directory carries (GDAL writes ~20–40). */
const MAX_TAGS_PER_IFD = 4096;
/** Bytes read at each directory, by this scan and by cogeotiff (tiff-file.ts passes it on). */
export const READ_SIZE = 16 * 1024;

export interface RangeReader {
  /** Bytes already read (the open-phase memo), or null. */
  cached(offset: number, length: number): Uint8Array | null;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface IfdScan {
  littleEndian: boolean;
  bigTiff: boolean;
  /** File offsets of every IFD, in chain order. */
  offsets: number[];
}

export async function scanIfdChain(reader: RangeReader, what: string): Promise<IfdScan> {
  // Read what cogeotiff will read next (16 KiB at each directory), unless the memo has it already.
  const read = async (offset: number, length: number): Promise<Uint8Array> => reader.cached(offset, length) ?? reader.read(offset, Math.max(length, READ_SIZE));
  const head = await read(0, READ_SIZE);
  if (head.length < 8) throw Errors.invalidFormat(`${what} is not a TIFF file (only ${head.length} bytes)`);
  const order = String.fromCharCode(head[0], head[1]);
  if (order !== 'II' && order !== 'MM') {
    const found = sniffFormat(head);
    if (found) throw Errors.invalidFormat(`${what} is not a TIFF file: it is ${found.name}; ${found.hint}`);
    throw Errors.invalidFormat(`${what} is not a TIFF file (bad byte-order mark)`);
  }
  const le = order === 'II';
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = view.getUint16(2, le);
  let bigTiff: boolean;
  let first: number;
  if (version === 42) {
    bigTiff = false;
    first = view.getUint32(4, le);
  } else if (version === 43) {
    if (head.length < 16) throw Errors.invalidFormat(`${what} has a truncated BigTIFF header`);
    if (view.getUint16(4, le) !== 8 || view.getUint16(6, le) !== 0) throw Errors.invalidFormat(`${what} has an invalid BigTIFF header`);
    bigTiff = true;
    first = readU64(view, 8, le);
  } else {
    throw Errors.invalidFormat(`${what} is not a TIFF file (version ${version})`);
  }
  if (first === 0) throw Errors.invalidFormat(`${what} has no image directory`);

  const countSize = bigTiff ? 8 : 2;
  const entrySize = bigTiff ? 20 : 12;
  const pointerSize = bigTiff ? 8 : 4;
  const seen = new Set<number>();
  const offsets: number[] = [];
  let offset = first;
  while (offset !== 0) {
    if (seen.has(offset)) throw Errors.invalidFormat(`${what} has a looping chain of image directories`);
    if (offsets.length >= MAX_IFDS) throw Errors.invalidFormat(`${what} has more than ${MAX_IFDS} image directories`);
    seen.add(offset);
    offsets.push(offset);
    const countBytes = await read(offset, countSize);
    if (countBytes.length < countSize) throw Errors.invalidFormat(`${what}: image directory at byte ${offset} is beyond the end of the file`);
    const cv = new DataView(countBytes.buffer, countBytes.byteOffset, countBytes.byteLength);
    const count = bigTiff ? readU64(cv, 0, le) : cv.getUint16(0, le);
    if (count === 0 || count > MAX_TAGS_PER_IFD) throw Errors.invalidFormat(`${what}: image directory at byte ${offset} has ${count} entries`);
    const nextAt = countSize + count * entrySize;
    let dir = countBytes;
    if (dir.length < nextAt + pointerSize) {
      dir = await read(offset, nextAt + pointerSize);
      if (dir.length < nextAt + pointerSize) throw Errors.invalidFormat(`${what}: image directory at byte ${offset} is truncated`);
    }
    const dv = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
    offset = bigTiff ? readU64(dv, nextAt, le) : dv.getUint32(nextAt, le);
  }
  return { littleEndian: le, bigTiff, offsets };
}

function readU64(view: DataView, at: number, le: boolean): number {
  const v = view.getBigUint64(at, le);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw Errors.invalidFormat('TIFF offset is larger than 2^53');
  return Number(v);
}
