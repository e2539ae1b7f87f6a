/**
 * TileOffsets/TileByteCounts (or the Strip pair) of one image. Small tables are usually parsed by
 * cogeotiff with the header; large ones are read lazily in pages of 4096 entries, so a tile read
 * from a huge COG costs at most one small extra request per table.
 */
import type { Tag } from '@cogeotiff/core';
import { Errors } from '../../errors.ts';
import type { Source } from '../../sources/source.ts';

const PAGE = 4096;

export interface BlockLocation {
  offset: number;
  length: number;
}

class OffsetTable {
  readonly count: number;
  private readonly values: ArrayLike<number> | null;
  private readonly pages = new Map<number, Promise<Float64Array>>();
  private readonly typeSize: number;

  constructor(
    private readonly source: Source,
    private readonly tag: Tag,
    private readonly littleEndian: boolean,
    private readonly name: string,
  ) {
    this.count = tag.count;
    this.typeSize = typeSize(tag.dataType, name);
    this.values = loadedValues(tag, this.typeSize, littleEndian);
  }

  get(index: number): number | Promise<number> {
    if (index >= this.count) return 0; // sparse files may have short tables
    if (this.values !== null) return this.values[index];
    const page = Math.floor(index / PAGE);
    let p = this.pages.get(page);
    if (p === undefined) {
      p = this.loadPage(page);
      this.pages.set(page, p);
      p.catch(() => this.pages.delete(page));
    }
    return p.then((values) => values[index - page * PAGE]);
  }

  private async loadPage(page: number): Promise<Float64Array> {
    if (this.tag.type === 'inline') throw Errors.invalidFormat(`TIFF ${this.name} table is unreadable`);
    const first = page * PAGE;
    const n = Math.min(PAGE, this.count - first);
    const length = n * this.typeSize;
    const bytes = await this.source.fetch(this.tag.dataOffset + first * this.typeSize, length);
    if (bytes.length < length) throw Errors.invalidFormat(`TIFF ${this.name} table is truncated (file too short)`);
    return decode(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), n, this.typeSize, this.littleEndian);
  }
}

function decode(view: DataView, n: number, size: number, le: boolean): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const at = i * size;
    out[i] = size === 2 ? view.getUint16(at, le) : size === 4 ? view.getUint32(at, le) : Number(view.getBigUint64(at, le));
  }
  return out;
}

function typeSize(dataType: number, name: string): number {
  switch (dataType) {
    case 3: // SHORT
      return 2;
    case 4: // LONG
    case 13: // IFD
      return 4;
    case 16: // LONG8
    case 17: // SLONG8
    case 18: // IFD8
      return 8;
    default:
      throw Errors.invalidFormat(`TIFF ${name} table has an invalid type (${dataType})`);
  }
}

function loadedValues(tag: Tag, size: number, le: boolean): ArrayLike<number> | null {
  if (tag.type === 'offset') {
    if (tag.isLoaded) return tag.value as ArrayLike<number>;
    // Read with the header but not converted by cogeotiff (byte order or 64-bit values).
    if (tag.view !== undefined && tag.view.byteLength >= tag.count * size) return decode(tag.view, tag.count, size, le);
    return null;
  }
  const v = tag.value;
  if (typeof v === 'number') return [v];
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return v as ArrayLike<number>;
  return null;
}

export class BlockOffsets {
  private readonly offsets: OffsetTable;
  private readonly counts: OffsetTable;

  constructor(source: Source, offsets: Tag, counts: Tag, littleEndian: boolean, kind: 'Tile' | 'Strip') {
    this.offsets = new OffsetTable(source, offsets, littleEndian, `${kind}Offsets`);
    this.counts = new OffsetTable(source, counts, littleEndian, `${kind}ByteCounts`);
  }

  get count(): number {
    return this.offsets.count;
  }

  /**
   * Where block `index` lives; length 0 means the block was never written (sparse file). Takes no
   * AbortSignal: a page of offsets is shared by every reader of the image, so one reader's abort
   * must not fail it for the others (callers stop waiting with raceAbort instead).
   */
  async locate(index: number): Promise<BlockLocation> {
    const o = this.offsets.get(index);
    const c = this.counts.get(index);
    const [offset, length] = typeof o === 'number' && typeof c === 'number' ? [o, c] : await Promise.all([o, c]);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) throw Errors.invalidFormat('TIFF block offset is out of range');
    return offset === 0 ? { offset: 0, length: 0 } : { offset, length };
  }
}
