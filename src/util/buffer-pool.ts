/**
 * Recycled ArrayBuffers for the large, short-lived arrays of serving an image: decoded blocks,
 * block bytes read from files, source windows and coordinates of a warp, tile pixels, and the
 * RGBA, scanlines and deflate output of the PNG writer.
 *
 * Why: V8 collects ArrayBuffers only in full garbage collections, and starts one whenever ~64 MB
 * of them have been allocated since the last. Under tile load the read path allocated ~2.5 MB
 * per tile, so a full collection ran every ~25 tiles, costing ~1.5 ms of CPU per tile (most of
 * it on V8's helper threads) and holding up to 64 MB of dead buffers in the resident set.
 *
 * Buffers come in power-of-two size classes (from 64 KiB), so a buffer given back serves any
 * later request of its class. Only buffers this pool handed out are taken back, each once.
 * Buffers bigger than the pool's budget are plain exact-size allocations, never retained: the
 * garbage collector frees them as soon as the request drops them.
 */
import { allocate, bytesPerSample, dtypeCtor, type DType, type TypedArray } from '../dtype.ts';

const MIN_CLASS = 64 * 1024;

const ceilPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(n));

export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  /** Kept buffers, oldest first: a full pool lets the oldest go (demand moves between sizes). */
  private readonly order: ArrayBuffer[] = [];
  private readonly lent = new WeakSet<ArrayBuffer>();
  private pending: ArrayBuffer[] = [];
  private scheduled = false;
  private keptBytes = 0;
  /** New buffers made by `take` (zero-filled by the allocator). */
  private allocated = 0;

  constructor(private maxBytes: number) {}

  /** Changes the budget (a cluster worker keeps its share of the process tree's); drops the oldest kept buffers over it. */
  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    while (this.keptBytes > maxBytes) this.dropOldest();
  }

  /** New buffers made since creation (a take the kept ones could not serve). */
  get allocations(): number {
    return this.allocated;
  }

  get budget(): number {
    return this.maxBytes;
  }

  /** `n` bytes at offset 0 of a pooled buffer (stale contents); small sizes are plain arrays. */
  bytes(n: number): Uint8Array {
    return n < MIN_CLASS ? new Uint8Array(n) : new Uint8Array(this.take(n), 0, n);
  }

  /** `length` samples at offset 0 of a pooled buffer (stale contents). */
  array(dtype: DType, length: number): TypedArray {
    const n = length * bytesPerSample(dtype);
    return n < MIN_CLASS ? allocate(dtype, length) : new (dtypeCtor(dtype))(this.take(n), 0, length);
  }

  /**
   * `length` zero samples at offset 0 of a pooled buffer: a kept buffer is cleared, a new one is
   * zero already and left untouched (the pages of a large one cost nothing until written: a
   * sparse 4096² warp writes a few of them).
   */
  zeroed(dtype: DType, length: number): TypedArray {
    const n = length * bytesPerSample(dtype);
    if (n < MIN_CLASS) return allocate(dtype, length);
    const allocated = this.allocated;
    const out = new (dtypeCtor(dtype))(this.take(n), 0, length);
    if (this.allocated === allocated) out.fill(0);
    return out;
  }

  /** Whether `buf` came from this pool and has not been given back. */
  owns(buf: ArrayBufferLike): boolean {
    return this.lent.has(buf as ArrayBuffer);
  }

  /** Give back buffers nothing reads any more; buffers the pool did not lend are ignored. */
  release(...buffers: ArrayBufferLike[]): void {
    for (const b of buffers) {
      if (!this.lent.delete(b as ArrayBuffer)) continue;
      this.keep(b as ArrayBuffer);
    }
  }

  /**
   * Give back buffers that reactions already queued may still read: they become reusable at the
   * next turn of the event loop, after every queued reaction has run.
   */
  releaseLater(buffers: readonly ArrayBufferLike[]): void {
    for (const b of buffers) if (this.lent.delete(b as ArrayBuffer)) this.pending.push(b as ArrayBuffer);
    if (this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const ready = this.pending;
      this.pending = [];
      for (const b of ready) this.keep(b);
    }).unref();
  }

  /** Bytes of buffers waiting to be reused. */
  get bytesKept(): number {
    return this.keptBytes;
  }

  private take(n: number): ArrayBuffer {
    // Larger than the pool could ever keep: exactly `n` bytes, not the next power of two (a 134 MB
    // warp coordinate array must not commit 256 MB), and never taken back (`lent` does not know it).
    if (ceilPow2(n) > this.maxBytes) {
      this.allocated++;
      return new ArrayBuffer(n);
    }
    const size = ceilPow2(n);
    const list = this.free.get(size);
    let buf = list?.pop();
    if (buf === undefined) {
      this.allocated++;
      buf = new ArrayBuffer(size);
    } else {
      this.keptBytes -= size;
      if (list!.length === 0) this.free.delete(size);
      this.order.splice(this.order.lastIndexOf(buf), 1);
    }
    this.lent.add(buf);
    return buf;
  }

  private keep(buf: ArrayBuffer): void {
    if (buf.byteLength > this.maxBytes) return;
    while (this.keptBytes + buf.byteLength > this.maxBytes) this.dropOldest();
    this.order.push(buf);
    let list = this.free.get(buf.byteLength);
    if (!list) {
      list = [];
      this.free.set(buf.byteLength, list);
    }
    list.push(buf);
    this.keptBytes += buf.byteLength;
  }

  private dropOldest(): void {
    const old = this.order.shift()!;
    const list = this.free.get(old.byteLength)!;
    list.splice(list.indexOf(old), 1);
    if (list.length === 0) this.free.delete(old.byteLength);
    this.keptBytes -= old.byteLength;
  }
}

/** Budget of the process's pool; a cluster's workers split it (src/cli/worker-share.ts). */
export const BUFFER_POOL_BYTES = 24 * 1024 * 1024;

/** The process's pool. */
export const BUFFER_POOL = new BufferPool(BUFFER_POOL_BYTES);
