/**
 * Reusable scratch arrays for per-request work buffers whose lifetime one function controls
 * (the source coordinates of a warp, the RGBA and filtered rows of a PNG). Concurrent requests
 * each take their own array; a few arrays per length are kept, up to a byte budget, so steady
 * tile traffic allocates (and garbage-collects) nothing here while odd sizes (previews of any
 * width × height) cannot grow the pool without bound. Acquired arrays hold stale data: callers
 * overwrite every element they use.
 */
export class ScratchPool<T extends { readonly length: number; readonly byteLength: number }> {
  private readonly free = new Map<number, T[]>();
  private keptBytes = 0;

  constructor(
    private readonly make: (length: number) => T,
    private readonly keepPerSize = 8,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  acquire(length: number): T {
    const list = this.free.get(length);
    const a = list?.pop();
    if (a === undefined) return this.make(length);
    this.keptBytes -= a.byteLength;
    if (list!.length === 0) this.free.delete(length);
    return a;
  }

  release(...arrays: T[]): void {
    for (const a of arrays) {
      if (this.keptBytes + a.byteLength > this.maxBytes) continue;
      let list = this.free.get(a.length);
      if (!list) {
        list = [];
        this.free.set(a.length, list);
      }
      if (list.length >= this.keepPerSize) continue;
      list.push(a);
      this.keptBytes += a.byteLength;
    }
  }

  /** Bytes held by arrays waiting to be reused. */
  get bytes(): number {
    return this.keptBytes;
  }
}

export class Float64ScratchPool extends ScratchPool<Float64Array> {
  constructor(keepPerSize = 8, maxBytes = 16 * 1024 * 1024) {
    super((n) => new Float64Array(n), keepPerSize, maxBytes);
  }
}

/** Byte buffers of the PNG writer and its callers (RGBA pixels, filtered scanlines). */
export const BYTE_SCRATCH = new ScratchPool<Uint8Array>((n) => new Uint8Array(n), 8, 8 * 1024 * 1024);
