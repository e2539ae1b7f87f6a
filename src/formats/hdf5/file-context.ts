/**
 * One opened HDF5 file: its Source, the sizes the superblock declares, and a page cache of
 * metadata bytes. Metadata is read in pages (8 KiB, aligned; the first read takes 256 KiB), each
 * missing run of pages in one fetch, read ahead to at least 64 KiB (the structures of one object
 * usually lie together), so a walk over object headers and index nodes costs a few requests, not
 * one per structure. Every address is checked against the file size before a byte
 * is fetched or allocated. Chunk data does not go through this cache (see variable.ts).
 */
import { Errors } from '../../errors.ts';
import { raceAbortShared } from '../array/abort-fanout.ts';
import type { Source } from '../../sources/source.ts';
import { Cursor } from './bytes.ts';

export const PAGE = 8 * 1024;
/**
 * The first read of a file. netCDF-4 writers put the superblock, the root group, the variables'
 * object headers and small coordinate arrays at the start of the file: 256 KiB (a few ms of
 * transfer, less than one more round trip) answers the whole open of typical granules.
 */
export const HEAD_BYTES = 256 * 1024;
/** A metadata miss reads at least this many pages (64 KiB) from the first missing one. */
const READ_AHEAD_PAGES = 8;
/** Metadata kept per opened file (LRU beyond this). */
const MAX_CACHED_BYTES = 32 * 1024 * 1024;
/** No single metadata structure (object header, B-tree node, heap block) is bigger than this. */
export const MAX_META_BYTES = 64 * 1024 * 1024;

export class FileContext {
  sizeOfOffsets = 8;
  sizeOfLengths = 8;
  baseAddress = 0;
  /** Virtual chunk size of contiguous and compact datasets. */
  virtualChunkBytes = 1024 * 1024;
  /** Caches per structure type, keyed by address (index nodes, heaps, object headers). */
  readonly memo = new Map<string, Promise<unknown>>();
  /** Page number → its bytes once read, or the read in flight (replaced by the bytes when it lands, same LRU slot). */
  private readonly pages = new Map<number, Uint8Array | Promise<Uint8Array>>();

  constructor(
    readonly source: Source,
    /** The file's size in bytes (from the Source, else the superblock's end-of-file address). */
    public fileSize: number,
  ) {}

  get location(): string {
    return this.source.url;
  }

  /** Seed the cache with bytes already read at absolute file offset 0. */
  seed(head: Uint8Array): void {
    // a partial last page only when it is the end of the file
    const end = head.length >= this.fileSize ? head.length : Math.floor(head.length / PAGE) * PAGE;
    for (let p = 0; p * PAGE < end; p++) this.pages.set(p, head.subarray(p * PAGE, Math.min(end, (p + 1) * PAGE)));
  }

  /** Check that [address, address + length) lies inside the file (address relative to the base). */
  check(address: number, length: number, what: string): number {
    const abs = address + this.baseAddress;
    if (!(address >= 0) || !(length >= 0) || !Number.isSafeInteger(abs) || abs + length > this.fileSize) {
      throw Errors.invalidFormat(`HDF5 ${what}: ${length} bytes at address ${address} lie outside the file (${this.fileSize} bytes; truncated or corrupt)`, {
        context: { url: this.location },
      });
    }
    if (length > MAX_META_BYTES) throw Errors.invalidFormat(`HDF5 ${what}: implausible size of ${length} bytes`, { context: { url: this.location } });
    return abs;
  }

  /**
   * Metadata bytes at `address` (relative to the base address) when every page of them is in the
   * cache already, else undefined (nothing is fetched). The walk of a file's metadata reads mostly
   * from its first 256 KiB: answered here without a promise (notes/decisions.md).
   */
  bytesNow(address: number, length: number, what: string): Uint8Array | undefined {
    const abs = this.check(address, length, what);
    if (length === 0) return new Uint8Array(0);
    const first = Math.floor(abs / PAGE);
    const last = Math.floor((abs + length - 1) / PAGE);
    for (let p = first; p <= last; p++) if (!(this.pages.get(p) instanceof Uint8Array)) return undefined;
    const out = new Uint8Array(length);
    let at = 0;
    for (let p = first; p <= last; p++) {
      const page = this.pages.get(p) as Uint8Array;
      this.pages.delete(p); // LRU: re-insert at the end
      this.pages.set(p, page);
      const pageStart = p * PAGE;
      const from = Math.max(abs, pageStart) - pageStart;
      const to = Math.min(abs + length - pageStart, page.length);
      if (to > from) out.set(page.subarray(from, to), at);
      at += Math.max(0, to - from);
    }
    if (at < length)
      throw Errors.invalidFormat(`HDF5 ${what}: the file ends before its ${length} bytes at ${address} (truncated)`, { context: { url: this.location } });
    return out;
  }

  /** A cursor over cached metadata bytes, or undefined (see bytesNow). */
  cursorNow(address: number, length: number, what: string): Cursor | undefined {
    const bytes = this.bytesNow(address, length, what);
    return bytes !== undefined ? new Cursor(bytes, what) : undefined;
  }

  /** Metadata bytes at `address` (relative to the base address), through the page cache. */
  read(address: number, length: number, what: string, signal?: AbortSignal): Promise<Uint8Array> {
    try {
      const now = this.bytesNow(address, length, what);
      if (now !== undefined) return Promise.resolve(now);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.readPages(address, length, what, signal);
  }

  private async readPages(address: number, length: number, what: string, signal?: AbortSignal): Promise<Uint8Array> {
    const abs = this.check(address, length, what);
    const first = Math.floor(abs / PAGE);
    const last = Math.floor((abs + length - 1) / PAGE);
    const parts: Promise<Uint8Array>[] = [];
    let runStart = -1;
    const flush = (end: number): void => {
      if (runStart >= 0) parts.push(...this.fetchRun(runStart, end));
      runStart = -1;
    };
    for (let p = first; p <= last; p++) {
      const page = this.pages.get(p);
      if (page === undefined) {
        if (runStart < 0) runStart = p;
        continue;
      }
      flush(p);
      this.pages.delete(p); // LRU: re-insert at the end
      this.pages.set(p, page);
      parts.push(page instanceof Uint8Array ? Promise.resolve(page) : page);
    }
    flush(last + 1);
    this.evict();
    const got = await raceAbortShared(Promise.all(parts), signal, this.location);
    const out = new Uint8Array(length);
    let at = 0;
    for (let i = 0; i < got.length; i++) {
      const pageStart = (first + i) * PAGE;
      const from = Math.max(abs, pageStart) - pageStart;
      const to = Math.min(abs + length - pageStart, got[i].length);
      if (to > from) out.set(got[i].subarray(from, to), at);
      at += Math.max(0, to - from);
    }
    if (at < length)
      throw Errors.invalidFormat(`HDF5 ${what}: the file ends before its ${length} bytes at ${address} (truncated)`, { context: { url: this.location } });
    return out;
  }

  /** A cursor over metadata bytes. */
  cursor(address: number, length: number, what: string, signal?: AbortSignal): Promise<Cursor> {
    try {
      const now = this.cursorNow(address, length, what);
      if (now !== undefined) return Promise.resolve(now);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.readPages(address, length, what, signal).then((b) => new Cursor(b, what));
  }

  /**
   * Memoise a structure read per file (index nodes, heaps), forgetting failures. `make` may answer
   * synchronously (a structure parsed from cached pages): then no failure is to be forgotten.
   */
  once<T>(key: string, make: () => T | Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (p === undefined) {
      let made: T | Promise<T>;
      try {
        made = make();
      } catch (err) {
        return Promise.reject(err);
      }
      if (made instanceof Promise) {
        p = made;
        p.catch(() => this.memo.delete(key));
      } else p = Promise.resolve(made);
      this.memo.set(key, p);
    }
    return p;
  }

  /** Fetches pages [start, end) (and read-ahead pages after them) in one read; returns [start, end)'s. */
  private fetchRun(start: number, end: number): Promise<Uint8Array>[] {
    // Read ahead over pages not cached yet (more of the same structure, or the next one).
    const lastPage = Math.ceil(this.fileSize / PAGE);
    let fetchEnd = end;
    while (fetchEnd - start < READ_AHEAD_PAGES && fetchEnd < lastPage && !this.pages.has(fetchEnd)) fetchEnd++;
    const offset = start * PAGE;
    const length = Math.min((fetchEnd - start) * PAGE, this.fileSize - offset);
    // Shared by every page of the run, so not tied to one caller's signal (callers race theirs).
    const whole = this.source.fetch(offset, length);
    const out: Promise<Uint8Array>[] = [];
    for (let p = start; p < fetchEnd; p++) {
      const page = whole.then((b) => {
        const bytes = b.subarray((p - start) * PAGE, (p - start + 1) * PAGE);
        if (this.pages.get(p) === page) this.pages.set(p, bytes); // same LRU slot
        return bytes;
      });
      page.catch(() => {
        if (this.pages.get(p) === page) this.pages.delete(p);
      });
      this.pages.set(p, page);
      if (p < end) out.push(page);
    }
    return out;
  }

  private evict(): void {
    let over = this.pages.size * PAGE - MAX_CACHED_BYTES;
    for (const key of this.pages.keys()) {
      if (over <= 0) break;
      this.pages.delete(key);
      over -= PAGE;
    }
  }
}
