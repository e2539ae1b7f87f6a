/**
 * Reusable scratch arrays for per-request work buffers that never leave a function (e.g. the
 * source coordinates of a warp). Concurrent requests each take their own array; a few arrays
 * per size are kept, so steady tile traffic allocates (and garbage-collects) nothing here.
 */
export class Float64ScratchPool {
  private readonly free = new Map<number, Float64Array[]>();

  constructor(private readonly keepPerSize = 8) {}

  acquire(length: number): Float64Array {
    return this.free.get(length)?.pop() ?? new Float64Array(length);
  }

  release(...arrays: Float64Array[]): void {
    for (const a of arrays) {
      const list = this.free.get(a.length) ?? [];
      if (list.length < this.keepPerSize) list.push(a);
      this.free.set(a.length, list);
    }
  }
}
