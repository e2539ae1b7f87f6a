/**
 * A few fresh, already page-faulted ArrayBuffers for the decoded chunks of array files, handed
 * out once each and made again when the process is idle.
 *
 * Why: the first write into a fresh multi-MB ArrayBuffer pays one page fault per 4 KiB page —
 * ~5 ms of CPU per MB on the bench VM, and `npm start`'s MALLOC_MMAP_THRESHOLD_ makes every
 * buffer ≥ 128 KiB a fresh mmap — and a decoded chunk is such a buffer (the chunk cache keeps
 * it). Touching its pages while the chunk's request is out blocked the event loop before the
 * request was even written (undici sends a few turns later), so the faults delayed the round
 * trip instead of hiding in it. A buffer from here has its pages in already; the next one is
 * faulted in IDLE_MS after the last chunk read ended (`done`), a slice per turn of the event
 * loop, once no request is being served (util/request-budget.ts counts them), and stops when a
 * chunk read or a request starts: it never runs beside one.
 *
 * Never reused: a buffer leaves the reserve once and belongs to its caller from then on (the
 * chunk cache, then the garbage collector), so no reference held anywhere can see another
 * chunk's bytes. Sizes are exact (all chunks of a variable decode to one size): the buffer is
 * what a fresh `new ArrayBuffer(n)` would have been, minus the faults.
 */

import { collectYoung } from './release-memory.ts';
import { openRequestBudgets } from './request-budget.ts';

/** Buffers smaller than this are not worth keeping (their faults cost < 1 ms). */
export const MIN_RESERVED_BYTES = 256 * 1024;
/** Wait this long after the last chunk read ended before faulting a new buffer in (the request's window, warp and encoding run meanwhile). */
export const IDLE_MS = 250;
/** Pages touched per turn of the event loop while refilling (~1–2 ms of CPU). */
const SLICE_BYTES = 256 * 1024;
const PAGE = 4096;

export class FaultedReserve {
  /** Ready buffers by exact size, one per size; the most recently asked size last. */
  private readonly ready = new Map<number, ArrayBuffer>();
  /** Sizes asked for recently (most recent last), the ones kept ready. */
  private readonly wanted: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** The start-up slabs (`seed`): each handed out once, as a view, to a read no exact buffer serves. */
  private readonly slabs: ArrayBuffer[] = [];
  private filling = false;
  private made = 0;
  /** Chunk reads between `take` and `done`: no refill runs while one is. */
  private active = 0;

  constructor(
    /** Bytes of ready buffers kept at most (sizes past it are forgotten, oldest first). */
    private readonly maxBytes: number,
    private readonly idleMs = IDLE_MS,
    /** Whether requests are being served (the refill waits for none). */
    private readonly busy: () => boolean = () => openRequestBudgets() > 0,
  ) {}

  /**
   * A fresh, faulted-in buffer of exactly `n` bytes (all zero), or null when none is ready (the
   * caller allocates its own). Either way a buffer of this size is made ready once idle. The
   * caller calls `done(n)` once its read has ended, whatever its outcome.
   */
  take(n: number): ArrayBuffer | null {
    if (n < MIN_RESERVED_BYTES || n > this.maxBytes) return null;
    this.active++;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const i = this.wanted.indexOf(n);
    if (i >= 0) this.wanted.splice(i, 1);
    this.wanted.push(n);
    while (this.wanted.reduce((a, b) => a + b, 0) > this.maxBytes) this.ready.delete(this.wanted.shift()!);
    const buf = this.ready.get(n) ?? null;
    this.ready.delete(n);
    return buf;
  }

  /**
   * `take` as bytes of exactly `n`: the exact buffer when one is ready, else the first `n` bytes
   * of a start-up slab (`seed`; each serves one read), else null. A slab's tail stays unused for
   * as long as the holder keeps its view (at most the slabs' size, once per process).
   */
  takeBytes(n: number): Uint8Array | null {
    const buf = this.take(n);
    if (buf !== null) return new Uint8Array(buf);
    const i = n < MIN_RESERVED_BYTES ? -1 : this.slabs.findIndex((s) => s.byteLength >= n);
    if (i < 0) return null;
    const slab = this.slabs.splice(i, 1)[0]!; // never handed out again
    return new Uint8Array(slab, 0, n);
  }

  /**
   * Faults in `count` slabs of `bytes` now, for a new process's first chunks, whose size is not
   * known yet (start-up, before the server listens: nothing else runs). Replaces unused ones.
   */
  seed(bytes: number, count = 1): void {
    this.slabs.length = 0;
    for (let k = 0; k < count; k++) {
      const slab = new ArrayBuffer(bytes);
      const view = new Uint8Array(slab);
      for (let at = 0; at < bytes; at += PAGE) view[at] = 0;
      this.slabs.push(slab);
    }
  }

  /** Bytes of the start-up slab not handed out yet. */
  get slabBytes(): number {
    return this.slabs.reduce((a, s) => a + s.byteLength, 0);
  }

  /** The read that took a buffer of `n` bytes (or was refused one) has ended. */
  done(n: number): void {
    if (n < MIN_RESERVED_BYTES || n > this.maxBytes) return;
    this.active = Math.max(0, this.active - 1);
    if (this.active === 0) this.arm();
  }

  /** Buffers made so far (tests). */
  get buffersMade(): number {
    return this.made;
  }

  /** Bytes of ready buffers. */
  get bytesReady(): number {
    let s = 0;
    for (const b of this.ready.values()) s += b.byteLength;
    return s;
  }

  /** Resolves once every wanted size has a ready buffer (tests; a refill in progress finishes first). */
  async settled(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.refill();
  }

  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // the finished reads' dead body Buffers back to malloc for the next ones (release-memory.ts)
      if (!this.busy()) collectYoung();
      void this.refill();
    }, this.idleMs);
    this.timer.unref();
  }

  private async refill(): Promise<void> {
    if (this.filling) {
      // one refill at a time: wait for the running one, then check again
      while (this.filling) await new Promise((r) => setImmediate(r));
    }
    this.filling = true;
    try {
      for (;;) {
        const n = this.wanted.find((s) => !this.ready.has(s));
        if (n === undefined) return;
        const buf = new ArrayBuffer(n);
        const bytes = new Uint8Array(buf);
        for (let at = 0; at < n;) {
          await new Promise((r) => setImmediate(r));
          if (this.active > 0) return; // a chunk read started: `done` re-arms the refill
          if (this.busy()) {
            this.arm(); // a request came in: try again once idle
            return;
          }
          const end = Math.min(n, at + SLICE_BYTES);
          for (; at < end; at += PAGE) bytes[at] = 0;
        }
        this.made++;
        // a size forgotten meanwhile (others asked for) is dropped, not kept
        if (this.wanted.includes(n)) this.ready.set(n, buf);
      }
    } finally {
      this.filling = false;
    }
  }
}

/** The process's reserve (decoded HDF5 chunks): one buffer per recent chunk size, 16 MiB at most. */
export const FAULTED_RESERVE = new FaultedReserve(16 * 1024 * 1024);
