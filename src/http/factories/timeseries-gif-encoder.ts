/**
 * The GIF series' encoder thread (RASTILE_TIMESERIES_THREADS = 0): one small worker thread that only
 * LZW-encodes frames (timeseries-gif-encoder-worker.ts), so that the calling thread reads and
 * renders the next frames while the previous ones are encoded — the series' wall is the calling
 * thread's, and LZW was ~12 % of it (BENCHMARKS.md, time series, eleventh session).
 *
 * One thread per process, started (and warmed on synthetic frames) by the first GIF series that
 * encodes frames as rendered — that series' frames are encoded on the calling thread until the
 * thread is warm — and ended after RASTILE_TIMESERIES_THREADS_IDLE_S without one (default 300 s),
 * so a server that never makes a GIF series never pays for it; unref'd: it never keeps the
 * process alive. Frames cross in buffers moved
 * both ways and kept for the next frames (a few per process), so no frame pays fresh pages for
 * them; the image data comes back into a pooled buffer as encodeSeriesFrame's does. A thread that
 * is not ready yet (starting, warming up) or failed leaves the frame to be encoded on the calling
 * thread (same bytes); a dead one is replaced.
 *
 * Cost (BENCHMARKS.md): ~18–20 MB of RSS while it lives and ~250 ms of CPU per start (a worker isolate).
 */
import { ThreadPool } from '../../granule/timeseries/thread-pool.ts';
import { encodeSeriesFrame, resizeIndexed } from '../../raster/render/encode-gif.ts';
import type { EncodedFrame } from '../../raster/render/gif-file.ts';
import { lzwMaxBytes } from '../../raster/render/gif-lzw.ts';
import type { IndexedFrame } from '../../raster/render/indexed-frame.ts';
import { BUFFER_POOL } from '../../util/buffer-pool.ts';

/** One frame to encode: `pixels` indices at the start of `index`, the image data into `out`. */
export interface EncodeTask {
  kind: 'lzw';
  index: ArrayBuffer;
  pixels: number;
  out: ArrayBuffer;
}
export interface EncodeAnswer {
  index: ArrayBuffer;
  out: ArrayBuffer;
  /** Bytes of image data written at the start of `out`. */
  end: number;
}
export const isEncodeTask = (task: unknown): task is EncodeTask => (task as { kind?: unknown } | null)?.kind === 'lzw';

/** Transfer buffers kept per kind (frames encoded at once: the series' concurrency, 4 by default). */
const KEEP = 4;

let thread: ThreadPool | undefined;
const spare = { index: [] as ArrayBuffer[], out: [] as ArrayBuffer[] };

const entry = (): URL => new URL(`./timeseries-gif-encoder-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * A GIF series starts: starts the process' encoder thread and its warm-up (again after an idle
 * stop), or, when it runs, restarts its idle countdown. `idleMs`: how long the thread lives
 * without a series (0: for the process' life); the first call's value holds.
 */
export function startGifEncoder(idleMs = 0): void {
  thread ??= new ThreadPool({ size: 1, entry: entry(), name: 'rastile-gif-lzw', warmup: { kind: 'warmup' }, idleMs });
  if (thread.ready) thread.touch();
  else thread.prestart();
}

/** Waits for the encoder thread's start and warm-up (started now when it was not); true when it is ready. */
export async function gifEncoderReady(): Promise<boolean> {
  startGifEncoder();
  await thread!.start();
  return thread!.ready;
}

let encodedOffThread = 0;
/** Frames the encoder thread has encoded in this process (diagnostics, tests). */
export const framesEncodedOffThread = (): number => encodedOffThread;

function take(list: ArrayBuffer[], bytes: number): ArrayBuffer {
  const i = list.findIndex((b) => b.byteLength >= bytes);
  if (i >= 0) return list.splice(i, 1)[0]!;
  return new ArrayBuffer(bytes);
}

function keep(list: ArrayBuffer[], b: ArrayBuffer): void {
  if (list.length < KEEP) list.push(b);
}

/**
 * `f` LZW-encoded at `width` × `height` (as encodeSeriesFrame), on the encoder thread when it is
 * started, else here; `f.index` goes back to the buffer pool.
 */
export async function encodeSeriesFrameOffThread(f: IndexedFrame, width: number, height: number, signal: AbortSignal): Promise<EncodedFrame> {
  if (thread === undefined) return encodeSeriesFrame(f, width, height);
  if (!thread.ready) {
    // starting, warming up or dead: encoded here rather than after the warm-up (a dead thread is replaced)
    thread.prestart();
    return encodeSeriesFrame(f, width, height);
  }
  const r = resizeIndexed(f, width, height);
  const pixels = r.width * r.height;
  const index = take(spare.index, pixels);
  new Uint8Array(index, 0, pixels).set(r.index);
  const out = take(spare.out, lzwMaxBytes(pixels));
  let answer: EncodeAnswer;
  try {
    answer = await thread.run<EncodeAnswer>({ kind: 'lzw', index, pixels, out } satisfies EncodeTask, signal, [], [index, out]);
  } catch (err) {
    if (signal.aborted) throw err;
    return encodeSeriesFrame(f, width, height); // the thread failed: encode here
  }
  const data = BUFFER_POOL.bytes(answer.end);
  data.set(new Uint8Array(answer.out, 0, answer.end));
  encodedOffThread++;
  keep(spare.index, answer.index);
  keep(spare.out, answer.out);
  BUFFER_POOL.release(f.index.buffer);
  return { width: r.width, height: r.height, palette: r.palette, transparentIndex: r.transparentIndex, data };
}
