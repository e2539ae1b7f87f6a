/**
 * A chunk stored with deflate, or shuffle + deflate (netCDF-4's zlib=True, shuffle=True: the
 * usual NASA/NOAA layout), decoded while its stored bytes arrive: each piece of the HTTP body is
 * inflated at once into a small scratch buffer that stays in the CPU cache, and unshuffled from
 * there into the chunk's own array. No array of the stored chunk is made, and no intermediate
 * array of the inflated-but-shuffled chunk (a fresh multi-MB array costs more in page faults
 * than the inflate itself on the first tile). The result is byte for byte what `unfilter` gives.
 *
 * Other pipelines (fletcher32, filters skipped by the chunk's mask, unfiltered edge chunks) keep
 * the one-shot path (filters.ts).
 */
import { Errors } from '../../errors.ts';
import type { ByteSink } from '../../sources/source.ts';
import { FAULTED_RESERVE } from '../../util/faulted-reserve.ts';
import { inflateInto, InflateStream, ZlibDataError } from '../../util/zlib-handle.ts';
import { unshuffle } from './filters.ts';
import type { FilterSpec } from './messages/filter-pipeline.ts';

/** Inflated bytes are unshuffled from here (64 KiB: stays in L2 between inflate and scatter). */
const SCRATCH = new Uint8Array(64 * 1024);
/** Bytes of a fresh chunk array faulted in per turn of the event loop (~1 ms of CPU). */
const PREFAULT_SLICE = 256 * 1024;

/**
 * The shuffle's element size when the chunk's pipeline is exactly [shuffle, deflate] (1 when
 * exactly [deflate]), with no filter skipped; null when it must take the one-shot path.
 */
export function streamableShuffle(filters: readonly FilterSpec[], mask: number, elementSize: number): number | null {
  if (mask !== 0) return null;
  if (filters.length === 1 && filters[0]!.id === 1) return 1;
  if (filters.length === 2 && filters[0]!.id === 2 && filters[1]!.id === 1) return Math.max(1, filters[0]!.params[0] ?? elementSize);
  return null;
}

export class StreamedChunk implements ByteSink {
  /** The decoded chunk (complete once `finish` returned it). */
  private readonly out: Uint8Array;
  private readonly inflater = new InflateStream();
  /** Pieces kept when the inflater has no native handle (decoded in one go by finish). */
  private readonly pieces: Uint8Array[] | null;
  private produced = 0;
  private started = false;
  /** Elements of the shuffle (bytes of one plane). */
  private readonly planeLength: number;
  /** Whether the pages of `out` are in (a reserved buffer, or prefault ran to the end). */
  private faulted: boolean;
  private closed = false;
  /**
   * Where `scatter` puts the next shuffled byte: element `inPlane` of plane `plane` (advanced by
   * integer steps: `Math.floor(pos / n)` deoptimised the first chunk whose pieces ended mid-plane,
   * "lost precision").
   */
  private plane = 0;
  private inPlane = 0;

  constructor(
    private readonly chunkBytes: number,
    /** Bytes per element of the shuffle (1: deflate only). */
    private readonly shuffle: number,
    private readonly what: string,
  ) {
    this.pieces = this.inflater.available ? null : [];
    if (this.pieces === null) {
      // a buffer whose pages are in already (util/faulted-reserve.ts), else a fresh one
      const ready = FAULTED_RESERVE.takeBytes(chunkBytes);
      this.out = ready ?? new Uint8Array(chunkBytes);
      this.faulted = ready !== null;
    } else {
      this.out = new Uint8Array(0);
      this.faulted = true;
    }
    this.planeLength = Math.floor(chunkBytes / shuffle);
  }

  /**
   * Touches the pages of the chunk's fresh array before any byte arrived (the caller starts this
   * once the request is on its way): the page faults of a fresh multi-MB array then overlap the
   * network wait instead of the decode. A slice at a time with a turn of the event loop between
   * slices — undici writes the request a few turns after it was made, and one loop over 4 MB of
   * pages held that write back by its whole length. Stops once the read has started.
   */
  async prefault(): Promise<void> {
    const out = this.out;
    for (let i = 0; i < out.length && !this.faulted;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.started) return;
      const end = Math.min(out.length, i + PREFAULT_SLICE);
      for (; i < end; i += 4096) out[i] = 0;
    }
    this.faulted = true;
  }

  restart(): void {
    this.started = true;
    this.produced = 0;
    this.plane = 0;
    this.inPlane = 0;
    if (this.pieces !== null) this.pieces.length = 0;
    else this.inflater.restart();
  }

  write(piece: Uint8Array): void {
    if (this.pieces !== null) {
      this.pieces.push(piece.slice());
      return;
    }
    try {
      this.inflate(piece);
    } catch (err) {
      throw this.corrupt(err);
    }
  }

  /** The decoded chunk, once the read is over; throws when the deflate stream ended early. */
  finish(): Uint8Array {
    const out = this.pieces !== null ? this.decodeCollected() : this.out;
    if (this.produced < this.chunkBytes) {
      throw Errors.invalidFormat(`${this.what}: deflate data ends early (${this.produced} of ${this.chunkBytes} bytes)`);
    }
    return out;
  }

  /** Gives the inflater back for reuse: call once the read has settled, whatever its outcome. */
  close(): void {
    this.inflater.close();
    if (this.pieces === null && !this.closed) FAULTED_RESERVE.done(this.chunkBytes);
    this.closed = true;
  }

  private inflate(piece: Uint8Array): void {
    let inOff = 0;
    const direct = this.shuffle === 1;
    while (inOff < piece.length && this.produced < this.chunkBytes) {
      const room = this.chunkBytes - this.produced;
      let written: number;
      let used: number;
      if (direct) {
        [written, used] = this.inflater.write(piece, inOff, this.out, this.produced, room);
      } else {
        [written, used] = this.inflater.write(piece, inOff, SCRATCH, 0, Math.min(SCRATCH.length, room));
        this.scatter(written);
      }
      this.produced += written;
      inOff += used;
      if (written === 0 && used === 0) break; // the deflate stream ended: trailing bytes are ignored
    }
  }

  /** Unshuffles SCRATCH[0, m) — shuffled-stream bytes from `produced` on — into the chunk. */
  private scatter(m: number): void {
    const out = this.out;
    const size = this.shuffle;
    const n = this.planeLength;
    let i = 0;
    while (i < m) {
      const k = this.plane;
      if (k >= size || n === 0) {
        out.set(SCRATCH.subarray(i, m), this.produced + i); // leftover bytes are stored as is
        return;
      }
      const e = this.inPlane;
      const run = Math.min(m - i, n - e);
      for (let t = i, end = i + run, j = e * size + k; t < end; t++, j += size) out[j] = SCRATCH[t]!;
      i += run;
      // no branch: the warm-up's chunk inflates in one piece, so its runs always end a plane, and a
      // statement only a real chunk's split runs reached would deoptimise it ("insufficient type feedback")
      const next = e + run;
      const wrap = next === n ? 1 : 0;
      this.plane = k + wrap;
      this.inPlane = next - wrap * n;
    }
  }

  /** Without a native handle: the collected pieces through the one-shot inflate and unshuffle. */
  private decodeCollected(): Uint8Array {
    const pieces = this.pieces!;
    const all = new Uint8Array(pieces.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of pieces) {
      all.set(p, at);
      at += p.length;
    }
    pieces.length = 0;
    const inflated = new Uint8Array(this.chunkBytes);
    try {
      this.produced = inflateInto(all, inflated);
    } catch (err) {
      throw this.corrupt(err);
    }
    return unshuffle(inflated, this.shuffle);
  }

  private corrupt(err: unknown): unknown {
    if (err instanceof ZlibDataError || (err instanceof Error && 'code' in err)) {
      return Errors.invalidFormat(`${this.what}: corrupt deflate data (${err.message})`, { cause: err });
    }
    return err;
  }
}
