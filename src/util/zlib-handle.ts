/**
 * zlib on reused native handles, run synchronously, writing straight into the caller's buffer.
 *
 * Why not node:zlib's inflate()/deflate(): every call builds a Transform stream, allocates a
 * fresh zlib state (~400 KB for deflate at memLevel 9), produces output chunks that it then
 * concatenates into a new buffer (twice the garbage of the result), and hops to the thread pool
 * and back. Profiled under tile load that costs 0.4–0.6 ms of CPU per call on top of the
 * (de)compression itself, about a quarter of inflating a 512² float32 block, and the chunk
 * garbage drives V8's external-memory collections. Here one handle per configuration is reset
 * and reused; the work runs on the calling thread.
 *
 * The handle is driven through `writeSync(flush, in, inOff, inLen, out, outOff, outLen)` and the
 * `[availOut, availIn]` write state, exactly as node's own zlib.inflateSync() does (internal
 * fields, unchanged since Node 0.11). When they are not there, the public sync functions are
 * used instead.
 */
import * as zlib from 'node:zlib';

interface NativeHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number) => void;
}

interface StreamInternals {
  _handle?: NativeHandle;
  _writeState?: Uint32Array;
}

export class ZlibDataError extends Error {}

/** One reusable handle; discarded after an error. */
class ReusedHandle {
  private error: string | null = null;
  private constructor(
    private readonly stream: zlib.Inflate | zlib.Deflate,
    private readonly handle: NativeHandle,
    private readonly state: Uint32Array,
  ) {
    handle.onerror = (message: string) => {
      this.error = message;
    };
  }

  static create(stream: zlib.Inflate | zlib.Deflate): ReusedHandle | null {
    const { _handle: handle, _writeState: state } = stream as unknown as StreamInternals;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
      stream.close();
      return null;
    }
    return new ReusedHandle(stream, handle, state);
  }

  reset(): void {
    this.handle.reset();
  }

  /**
   * One write into `out[outOff…outOff + outLen)` (to the end of `out` by default); returns [bytes
   * of output left free, bytes of input left unread]. Throws on bad data.
   */
  write(flush: number, input: Uint8Array, inOff: number, out: Uint8Array, outOff: number, outLen = out.length - outOff): [number, number] {
    this.handle.writeSync(flush, input, inOff, input.length - inOff, out, outOff, outLen);
    if (this.error !== null) throw new ZlibDataError(this.error);
    return [this.state[0], this.state[1]];
  }

  close(): void {
    this.stream.close();
  }
}

/** Handles by configuration, created on first use (one thread uses them one call at a time). */
const handles = new Map<string, ReusedHandle | null>();

function withHandle<T>(key: string, create: () => zlib.Inflate | zlib.Deflate, run: (h: ReusedHandle) => T, fallback: () => T): T {
  let h = handles.get(key);
  if (h === undefined) {
    h = ReusedHandle.create(create());
    handles.set(key, h);
  }
  if (h === null) return fallback();
  try {
    h.reset();
    return run(h);
  } catch (err) {
    handles.delete(key);
    h.close();
    throw err;
  }
}

/**
 * Configurations used so far and whether each runs on a reused native handle (`true`) or fell
 * back to the public sync functions (`false`: node's internals changed). Tests assert the fast
 * path on every supported node line; a silent fallback would only show as lost speed.
 */
export function zlibFastPath(): Record<string, boolean> {
  return {
    ...Object.fromEntries([...handles].map(([key, h]) => [key, h !== null])),
    ...Object.fromEntries(streamFastPath),
    // inflateIntoOffThread's native handle (a series' inflates on libuv's pool)
    'inflate:thread-pool': NativeZlib !== undefined,
  };
}

/**
 * Inflate a zlib stream into `out`, stopping when `out` is full (trailing data is ignored).
 * Returns the number of bytes written; fewer than `out.length` means the stream ended early.
 */
export function inflateInto(input: Uint8Array, out: Uint8Array): number {
  return withHandle(
    'inflate',
    () => zlib.createInflate(),
    (h) => {
      const [freeOut] = h.write(zlib.constants.Z_SYNC_FLUSH, input, 0, out, 0);
      return out.length - freeOut;
    },
    () => {
      const all = zlib.inflateSync(input, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(1, out.length) });
      const n = Math.min(all.length, out.length);
      out.set(all.subarray(0, n));
      return n;
    },
  );
}

/** The native handle as node's zlib.js drives it on the thread pool (internal, as writeSync above). */
interface AsyncNativeHandle {
  init(windowBits: number, level: number, memLevel: number, strategy: number, state: Uint32Array, done: () => void, dictionary: undefined): void;
  write(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  close(): void;
  onerror: (message: string, errno: number) => void;
}

/** One inflate handle whose writes run on libuv's thread pool; one write at a time. */
class ThreadPoolInflater {
  private readonly state = new Uint32Array(2);
  private settle: ((err: string | null) => void) | null = null;

  constructor(private readonly handle: AsyncNativeHandle) {
    handle.onerror = (message: string) => this.settle?.(message);
    handle.init(15, -1, 8, 0, this.state, () => this.settle?.(null), undefined);
  }

  /** Inflates into all of `out` (input and out must stay untouched until it settles); bytes written. */
  inflate(input: Uint8Array, out: Uint8Array): Promise<number> {
    this.handle.reset();
    return new Promise((resolve, reject) => {
      this.settle = (err) => {
        this.settle = null;
        if (err !== null) reject(new ZlibDataError(err));
        else resolve(out.length - this.state[0]);
      };
      this.handle.write(zlib.constants.Z_SYNC_FLUSH, input, 0, input.length, out, 0, out.length);
    });
  }

  close(): void {
    this.handle.close();
  }
}

/** The native zlib class, when node's internals still expose it (undefined: use the sync path). */
const NativeZlib: (new (mode: number) => AsyncNativeHandle) | undefined = (() => {
  const probe = zlib.createInflate();
  const ctor = (probe as unknown as { _handle?: { constructor?: unknown } })._handle?.constructor;
  probe.close();
  return typeof ctor === 'function' && typeof (ctor.prototype as { init?: unknown }).init === 'function'
    ? (ctor as new (mode: number) => AsyncNativeHandle)
    : undefined;
})();

const idleThreadPoolInflaters: ThreadPoolInflater[] = [];
/** Handles with a write on the pool: held here so that nothing of theirs is collected meanwhile. */
const busyThreadPoolInflaters = new Set<ThreadPoolInflater>();
/** Idle handles kept (each ~45 KB of zlib state): about the thread pool's size. */
const IDLE_THREAD_POOL_INFLATERS = 4;

/**
 * As inflateInto, but the inflate itself runs on libuv's thread pool (node's async zlib, without
 * its stream, chunk and concat layers): for callers with other work to overlap it with, e.g. a
 * time series reading several granule sets at once on one core. The single-request path keeps
 * the synchronous inflateInto, cheaper when there is nothing to overlap. Falls back to it when
 * node's internals are not there.
 */
export async function inflateIntoOffThread(input: Uint8Array, out: Uint8Array): Promise<number> {
  if (NativeZlib === undefined) return inflateInto(input, out);
  const h = idleThreadPoolInflaters.pop() ?? new ThreadPoolInflater(new NativeZlib(zlib.constants.INFLATE));
  let n: number;
  busyThreadPoolInflaters.add(h);
  try {
    n = await h.inflate(input, out);
  } catch (err) {
    h.close();
    throw err;
  } finally {
    busyThreadPoolInflaters.delete(h);
  }
  if (idleThreadPoolInflaters.length < IDLE_THREAD_POOL_INFLATERS) idleThreadPoolInflaters.push(h);
  else h.close();
  return n;
}

export interface DeflateSettings {
  level: number;
  memLevel: number;
  strategy: number;
}

/**
 * Deflate `input` (zlib format) into `scratch`, growing it when it is too small; returns the
 * compressed bytes (a view of `scratch` or of a larger replacement).
 */
export function deflateInto(input: Uint8Array, settings: DeflateSettings, scratch: Uint8Array): Uint8Array {
  const key = `deflate:${settings.level}:${settings.memLevel}:${settings.strategy}`;
  return withHandle(
    key,
    () => zlib.createDeflate(settings),
    (h) => {
      let out = scratch;
      let written = 0;
      let inOff = 0;
      for (;;) {
        const [freeOut, leftIn] = h.write(zlib.constants.Z_FINISH, input, inOff, out, written);
        written = out.length - freeOut;
        inOff = input.length - leftIn;
        if (freeOut > 0) return out.subarray(0, written);
        const bigger = new Uint8Array(out.length * 2 + 1024);
        bigger.set(out.subarray(0, written));
        out = bigger;
      }
    },
    () => zlib.deflateSync(input, settings),
  );
}

/** A generous first guess at the deflated size of `n` bytes (zlib's deflateBound plus slack). */
export const deflateBound = (n: number): number => n + (n >> 12) + (n >> 14) + 64;

/** Idle handles of DeflateStream by configuration (a stream holds its own across awaits). */
const streamHandles = new Map<string, ReusedHandle[]>();
/** Whether each configuration's streams got a native handle (reported by zlibFastPath). */
const streamFastPath = new Map<string, boolean>();

/** Idle handles kept per configuration (each holds ~0.5 MB of zlib state); more concurrent streams get new ones. */
const IDLE_STREAM_HANDLES = 2;

/** First output chunk of a DeflateStream; each next one is as large as all output so far. */
const FIRST_CHUNK = 1 << 18;

/**
 * A deflate (zlib format) fed in pieces, for images encoded a band of rows at a time: no buffer
 * of the whole uncompressed stream is ever needed. Each piece is compressed when written (it may
 * be overwritten as soon as write() returns); the output collects in a few growing chunks. The
 * stream holds a native handle of its own until finish() or close(), so it may be written across
 * awaits while other calls deflate. Call close() in every case (it also drops the output chunks).
 */
export class DeflateStream {
  private readonly chunks: Uint8Array[] = [];
  private out: Uint8Array;
  private written = 0;
  private total = 0;
  /** Without a native handle: copies of the pieces, deflated by finish(). */
  private readonly pieces: Uint8Array[] | null;
  private handle: ReusedHandle | null;

  constructor(private readonly settings: DeflateSettings) {
    const key = `deflate:${settings.level}:${settings.memLevel}:${settings.strategy}`;
    this.handle = streamHandles.get(key)?.pop() ?? ReusedHandle.create(zlib.createDeflate(settings));
    streamFastPath.set(`stream:${key}`, this.handle !== null);
    this.handle?.reset();
    this.pieces = this.handle ? null : [];
    this.out = new Uint8Array(FIRST_CHUNK);
  }

  write(piece: Uint8Array): void {
    if (this.pieces) this.pieces.push(piece.slice());
    else this.run(zlib.constants.Z_NO_FLUSH, piece);
  }

  /** Ends the stream; its compressed bytes in order (views valid until close()). */
  finish(): Uint8Array[] {
    if (this.pieces) {
      const all = new Uint8Array(this.pieces.reduce((a, p) => a + p.length, 0));
      let at = 0;
      for (const p of this.pieces) {
        all.set(p, at);
        at += p.length;
      }
      return [zlib.deflateSync(all, this.settings)];
    }
    this.run(zlib.constants.Z_FINISH, new Uint8Array(0));
    this.chunks.push(this.out.subarray(0, this.written));
    const key = `deflate:${this.settings.level}:${this.settings.memLevel}:${this.settings.strategy}`;
    const idle = streamHandles.get(key) ?? [];
    if (idle.length < IDLE_STREAM_HANDLES) idle.push(this.handle!);
    else this.handle!.close();
    streamHandles.set(key, idle);
    this.handle = null;
    return this.chunks;
  }

  /** Gives up the handle when finish() did not (an error midway: the handle is discarded). */
  close(): void {
    this.handle?.close();
    this.handle = null;
  }

  private run(flush: number, input: Uint8Array): void {
    let inOff = 0;
    for (;;) {
      const [freeOut, leftIn] = this.handle!.write(flush, input, inOff, this.out, this.written);
      this.written = this.out.length - freeOut;
      inOff = input.length - leftIn;
      if (freeOut > 0) return;
      this.chunks.push(this.out);
      this.total += this.out.length;
      this.out = new Uint8Array(this.total);
      this.written = 0;
    }
  }
}

/** Idle handles of InflateStream (a stream holds its own across awaits). */
const idleInflaters: ReusedHandle[] = [];

/**
 * An inflate (zlib format) fed the compressed bytes in pieces as they arrive, e.g. straight from
 * an HTTP response body (no buffer of the whole compressed input). Holds a native handle of its
 * own until close(), so pieces may come across awaits while other calls inflate. Without native
 * handle access (node's internals changed) `available` is false and the caller collects the
 * input and uses inflateInto instead.
 */
export class InflateStream {
  private handle: ReusedHandle | null;

  constructor() {
    this.handle = idleInflaters.pop() ?? ReusedHandle.create(zlib.createInflate());
    streamFastPath.set('stream:inflate', this.handle !== null);
    this.handle?.reset();
  }

  /** Whether this stream has a native handle (else write() must not be called). */
  get available(): boolean {
    return this.handle !== null;
  }

  /** Starts over on a new zlib stream. */
  restart(): void {
    this.handle!.reset();
  }

  /**
   * Inflates `input[inOff…]` into `out[outOff…outOff + outLen)`; returns [bytes written, input
   * bytes consumed]. Stops when that output space is full (call again with the rest of the
   * input) or the input is used up. Throws ZlibDataError on corrupt data (the handle is then dropped).
   */
  write(input: Uint8Array, inOff: number, out: Uint8Array, outOff: number, outLen: number): [number, number] {
    const h = this.handle!;
    let freeOut: number;
    let leftIn: number;
    try {
      [freeOut, leftIn] = h.write(zlib.constants.Z_SYNC_FLUSH, input, inOff, out, outOff, outLen);
    } catch (err) {
      this.handle = null;
      h.close();
      throw err;
    }
    return [outLen - freeOut, input.length - inOff - leftIn];
  }

  /** Gives the handle back for reuse (or closes it when enough are idle). */
  close(): void {
    const h = this.handle;
    this.handle = null;
    if (h === null) return;
    if (idleInflaters.length < IDLE_STREAM_HANDLES) idleInflaters.push(h);
    else h.close();
  }
}
