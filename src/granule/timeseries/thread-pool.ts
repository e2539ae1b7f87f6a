/**
 * A small pool of worker threads (node:worker_threads) running tasks described as plain,
 * structured-cloneable data: the time series' per-granule-set work (read, mosaic, statistics or
 * frame) spread over the cores. Both sides live here: `ThreadPool` on the calling thread and
 * `serveTasks` in the worker entry.
 *
 * - `start()` spawns every thread and runs the `warmup` task (when given) on each, so that the
 *   first real task finds compiled, JIT-warm code and filled per-thread buffers; a server calls it
 *   before listening. Without `start()` the first task spawns every thread at once (lazily).
 *   A thread that replaces a dead one runs the warm-up task first too.
 * - A task goes to the thread that ran tasks with the same affinity keys (granule ids) most
 *   recently, else to the least busy one, so a granule's blocks are read by one thread's caches.
 * - The caller's signal aborts a task: an abort message stops the work in the thread and the
 *   promise rejects at once with the signal's error.
 * - A task's error crosses as {kind, message, context} and is rebuilt as the same RastileError
 *   (same HTTP status and message); any other error as an Error with its message.
 * - A thread that dies (uncaught error, exit, terminate) fails its tasks with an Internal error
 *   (HTTP 500) and is replaced by the next task; nothing waits forever.
 * - Threads are unref'd while idle: the pool never keeps the process alive; `close()` ends them.
 * - With `idleMs`, every thread ends after that long without a task (its isolate's memory goes
 *   back); the next task starts them again, warm-up first, as at the first task.
 */
import { Worker, parentPort, type Transferable } from 'node:worker_threads';
import { Errors, RastileError, type ErrorContext, type RastileErrorKind } from '../../errors.ts';
import { abortError } from '../../sources/abort.ts';
import { detachOneArrayBuffer } from '../../util/detach-protector.ts';

/** An error as it crosses the thread boundary. */
export interface ThreadError {
  kind?: RastileErrorKind;
  message: string;
  context?: ErrorContext;
}

type ToWorker = { type: 'run'; id: number; task: unknown } | { type: 'abort'; id: number };
type FromWorker = { type: 'done'; id: number; value: unknown } | { type: 'failed'; id: number; error: ThreadError };

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Affinity keys of the latest tasks (insertion order = age), at most RECENT_KEYS. */
  recent: Map<string, true>;
  dead: boolean;
  /** Settles when this thread's warm-up task ended (at once without one); true when it succeeded. */
  warm: Promise<boolean>;
  /** The warm-up task is running: other tasks are posted after it. */
  warming: boolean;
  warmed: boolean;
}

const RECENT_KEYS = 2048;

export interface ThreadPoolOptions {
  size: number;
  /** The worker entry module (a file URL). */
  entry: URL;
  /** Structured-cloneable data every thread receives as `workerData`. */
  workerData?: unknown;
  /** Names the threads (diagnostics, error messages). */
  name: string;
  /** A task every new thread runs before any other (its failure only leaves the thread colder). */
  warmup?: unknown;
  /** End every thread after this long with no task in any (0 or absent: never). */
  idleMs?: number;
}

export class ThreadPool {
  private slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Times every thread was ended for idleness (diagnostics, tests). */
  idleStops = 0;

  constructor(private readonly options: ThreadPoolOptions) {}

  get size(): number {
    return this.options.size;
  }

  /** Threads alive now (0 before the first task). */
  get threads(): number {
    return this.slots.length;
  }

  /** Every thread is alive and past its warm-up (a task would start at once). */
  get ready(): boolean {
    return this.slots.length === Math.max(1, this.options.size) && this.slots.every((s) => !s.warming && !s.dead);
  }

  /** Spawns the missing threads and starts their warm-up, without waiting (no-op when closed). */
  prestart(): void {
    if (this.closed) return;
    this.keepAlive();
    this.fill();
    // nothing else may come: the idle stop still applies once the warm-ups end
    for (const slot of this.slots) if (slot.pending.size === 0) this.idle(slot);
  }

  /** Restarts the idle countdown when it runs (a series is about to use the threads: not ended under it). */
  touch(): void {
    if (this.idleTimer === undefined) return;
    this.keepAlive();
    for (const slot of this.slots) this.idle(slot);
  }

  /** Threads alive whose warm-up task has succeeded. */
  get warmed(): number {
    return this.slots.filter((s) => s.warmed).length;
  }

  /**
   * Spawns every thread (when not yet started) and waits for their warm-up tasks; resolves with the
   * number of threads warmed (0 without a warm-up task). Never rejects.
   */
  async start(): Promise<number> {
    if (this.closed) return 0;
    this.keepAlive();
    this.fill();
    const done = await Promise.all(this.slots.map((s) => s.warm));
    return done.filter(Boolean).length;
  }

  /**
   * Run `task` on a thread; `transfer` moves buffers instead of copying them. Rejects with the
   * task's own error, the signal's abort error, or Internal when the thread died.
   */
  run<T>(task: unknown, signal: AbortSignal, affinity: readonly string[] = [], transfer: Transferable[] = []): Promise<T> {
    if (signal.aborted) return Promise.reject(abortError(signal, 'time-series step'));
    if (this.closed) return Promise.reject(Errors.overloaded('The server is shutting down'));
    this.keepAlive();
    const slot = this.pick(affinity);
    for (const key of affinity) {
      slot.recent.delete(key);
      slot.recent.set(key, true);
      if (slot.recent.size > RECENT_KEYS) slot.recent.delete(slot.recent.keys().next().value!);
    }
    return this.runOn<T>(slot, task, signal, transfer);
  }

  private runOn<T>(slot: Slot, task: unknown, signal: AbortSignal, transfer: Transferable[] = []): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (!slot.pending.delete(id)) return;
        this.idle(slot);
        if (!slot.dead) slot.worker.postMessage({ type: 'abort', id } satisfies ToWorker);
        reject(abortError(signal, 'time-series step'));
      };
      const settle = (): void => signal.removeEventListener('abort', onAbort);
      if (slot.pending.size === 0) slot.worker.ref();
      slot.pending.set(id, {
        resolve: (v) => {
          settle();
          resolve(v as T);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      // after the thread's warm-up (a task arriving meanwhile would run beside it, cold)
      const post = (): void => {
        if (slot.pending.has(id) && !slot.dead) slot.worker.postMessage({ type: 'run', id, task } satisfies ToWorker, transfer);
      };
      if (slot.warming) void slot.warm.then(post);
      else post();
    });
  }

  /** End every thread; tasks in flight fail (503). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.keepAlive();
    const slots = this.slots;
    this.slots = [];
    await Promise.all(
      slots.map((slot) => {
        this.fail(slot, Errors.overloaded('The server is shutting down'));
        return slot.worker.terminate();
      }),
    );
  }

  /** Every thread alive: all at the first call, then one replacing each that died. */
  private fill(): void {
    while (this.slots.length < Math.max(1, this.options.size)) this.slots.push(this.spawn());
  }

  private pick(affinity: readonly string[]): Slot {
    this.fill();
    let best: Slot | undefined;
    let bestHits = 0;
    for (const slot of this.slots) {
      let hits = 0;
      for (const key of affinity) if (slot.recent.has(key)) hits++;
      if (hits > bestHits || (hits === bestHits && hits > 0 && best !== undefined && slot.pending.size < best.pending.size)) {
        best = slot;
        bestHits = hits;
      }
    }
    if (best !== undefined) return best;
    return this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private spawn(): Slot {
    const options = { workerData: this.options.workerData, name: this.options.name };
    const worker = needsTsLoader(this.options.entry)
      ? new Worker(tsBootstrap(this.options.entry), { ...options, eval: true })
      : new Worker(this.options.entry, options);
    worker.unref();
    const slot: Slot = { worker, pending: new Map(), recent: new Map(), dead: false, warm: Promise.resolve(false), warming: false, warmed: false };
    worker.on('message', (msg: FromWorker) => {
      const p = slot.pending.get(msg.id);
      if (p === undefined) return; // aborted meanwhile
      slot.pending.delete(msg.id);
      this.idle(slot);
      if (msg.type === 'done') p.resolve(msg.value);
      else p.reject(rebuildError(msg.error));
    });
    const died = (why: string) => {
      if (slot.dead) return;
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
      this.fail(slot, Errors.internal(`A time-series worker thread stopped (${why}); the step was not completed`));
    };
    worker.on('error', (err) => died(err instanceof Error ? err.message : String(err)));
    worker.on('messageerror', (err) => died(`unreadable message: ${err.message}`));
    worker.on('exit', (code) => died(`exit code ${code}`));
    if (this.options.warmup !== undefined) {
      // Posted first; tasks given to this thread meanwhile are posted when it ends.
      slot.warm = this.runOn(slot, this.options.warmup, new AbortController().signal).then(
        () => (slot.warmed = true),
        () => false,
      );
      slot.warming = true;
      void slot.warm.then(() => (slot.warming = false));
    }
    return slot;
  }

  private idle(slot: Slot): void {
    if (slot.pending.size === 0 && !slot.dead) slot.worker.unref();
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs > 0 && this.idleTimer === undefined && !this.closed && this.slots.every((s) => s.pending.size === 0)) {
      this.idleTimer = setTimeout(() => this.stopIdle(), idleMs);
      this.idleTimer.unref();
    }
  }

  /** A task or start is coming: no idle stop now. */
  private keepAlive(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Every thread ends (nothing pending: checked); the next task spawns them again. */
  private stopIdle(): void {
    this.idleTimer = undefined;
    if (this.closed || this.slots.some((s) => s.pending.size > 0)) return;
    const slots = this.slots;
    this.slots = [];
    this.idleStops++;
    for (const slot of slots) {
      slot.dead = true; // its exit is ours, not a failure
      void slot.worker.terminate();
    }
  }

  private fail(slot: Slot, err: unknown): void {
    const pending = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of pending) p.reject(err);
  }
}

/**
 * A TypeScript entry needs tsx's loader in the thread. `node --import tsx` passes it on (a worker
 * inherits execArgv); `bin/rastile.js` from source registers it with tsx's API in the main thread
 * only, which a worker does not inherit (Node 22): the thread then registers it itself first.
 */
const needsTsLoader = (entry: URL): boolean => entry.pathname.endsWith('.ts') && !process.execArgv.some((a) => a.includes('tsx'));

function tsBootstrap(entry: URL): string {
  const api = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
}

/** The error as it crosses the thread boundary. */
export function serialiseError(err: unknown): ThreadError {
  if (err instanceof RastileError) return { kind: err.kind, message: err.message, ...(err.context !== undefined ? { context: { ...err.context } } : {}) };
  return { message: err instanceof Error ? err.message : String(err) };
}

/** The error thrown on the calling side: the same RastileError kind, message and context. */
export function rebuildError(e: ThreadError): Error {
  if (e.kind !== undefined) return new RastileError(e.kind, e.message, e.context !== undefined ? { context: e.context } : {});
  return new Error(e.message);
}

/** A task's result and the buffers to move (not copy) to the calling thread. */
export interface TaskResult {
  value: unknown;
  transfer?: Transferable[];
}

/**
 * The worker side: run each task with its own AbortSignal (aborted by the pool's abort
 * message), answer with its result or its error. Call once from the worker entry module.
 */
export function serveTasks(handler: (task: unknown, signal: AbortSignal) => Promise<TaskResult>): void {
  const port = parentPort;
  if (port === null) throw Errors.internal('serveTasks runs in a worker thread only');
  // before the first task (the warm-up), so that its compiled code outlives the first transfer
  detachOneArrayBuffer();
  const running = new Map<number, AbortController>();
  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'abort') {
      running.get(msg.id)?.abort(Errors.requestTimeout('The time series was cancelled'));
      running.delete(msg.id);
      return;
    }
    const controller = new AbortController();
    running.set(msg.id, controller);
    handler(msg.task, controller.signal).then(
      (r) => {
        running.delete(msg.id);
        port.postMessage({ type: 'done', id: msg.id, value: r.value } satisfies FromWorker, r.transfer ?? []);
      },
      (err: unknown) => {
        running.delete(msg.id);
        port.postMessage({ type: 'failed', id: msg.id, error: serialiseError(err) } satisfies FromWorker);
      },
    );
  });
}
