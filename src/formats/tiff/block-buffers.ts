/**
 * Recycled memory for decoded blocks.
 *
 * Under tile load the block cache drops a block for nearly every block it decodes. Left to the
 * garbage collector, the dropped 0.5–1 MB buffers pile up as external memory until V8's
 * external-memory trigger (~64 MB) forces a full collection: that pile was a quarter of the
 * server's peak RSS, and every fresh buffer costs its page faults again. Instead the cache hands
 * the buffers of a dropped block back here and the next decode of the same size takes one.
 *
 * A dropped block may still be read: readers copy out of a block in the reaction to its promise,
 * and such reactions may be queued when the block is dropped. They all run before the next turn
 * of the event loop, so dropped buffers become reusable only at the next `setImmediate`.
 */
import { allocate, bytesPerSample, dtypeCtor, type DType, type TypedArray } from '../../raster/dtype.ts';

export class BlockBufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private pending: ArrayBuffer[] = [];
  private scheduled = false;
  private keptBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** A zero-offset byte array of `n` bytes, recycled when one is free (stale contents). */
  bytes(n: number): Uint8Array {
    const buf = this.take(n);
    return buf ? new Uint8Array(buf) : new Uint8Array(n);
  }

  /** A typed array of `length` samples, recycled when a buffer of that size is free. */
  samples(dtype: DType, length: number): TypedArray {
    const buf = this.take(length * bytesPerSample(dtype));
    return buf ? new (dtypeCtor(dtype))(buf) : allocate(dtype, length);
  }

  /** Give buffers back once no reader can still hold them (next turn of the event loop). */
  recycleLater(buffers: readonly ArrayBuffer[]): void {
    if (buffers.length === 0) return;
    this.pending.push(...buffers);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const ready = this.pending;
      this.pending = [];
      for (const b of ready) this.keep(b);
    }).unref();
  }

  /** Buffers waiting to be reused, in bytes. */
  get bytesKept(): number {
    return this.keptBytes;
  }

  private take(n: number): ArrayBuffer | undefined {
    const list = this.free.get(n);
    const buf = list?.pop();
    if (buf === undefined) return undefined;
    this.keptBytes -= n;
    if (list!.length === 0) this.free.delete(n);
    return buf;
  }

  private keep(buf: ArrayBuffer): void {
    if (this.keptBytes + buf.byteLength > this.maxBytes) return;
    let list = this.free.get(buf.byteLength);
    if (!list) {
      list = [];
      this.free.set(buf.byteLength, list);
    }
    list.push(buf);
    this.keptBytes += buf.byteLength;
  }
}

/** The process's pool: enough to hold what one burst of decodes drops. */
export const BLOCK_BUFFERS = new BlockBufferPool(8 * 1024 * 1024);
