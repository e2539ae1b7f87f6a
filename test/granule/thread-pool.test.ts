/**
 * The time-series thread pool (src/granule/timeseries/thread-pool.ts) over a test worker
 * (test/helpers/thread-pool-worker.ts): results and moved buffers come back, typed errors are
 * rebuilt with their kind, message and context, an abort stops the task in the thread and rejects
 * at once, a thread that exits fails its task with Internal (500) and is replaced, and close()
 * ends the threads (this file's process then exits: the pool keeps nothing alive); with idleMs the
 * threads end when idle and start again, warm-up first, at the next task.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRastileError } from '../../src/errors.ts';
import { EventEmitter } from 'node:events';
import { ThreadPool } from '../../src/granule/timeseries/thread-pool.ts';
import { seriesPool } from '../../src/http/factories/timeseries-threads.ts';
import type { Services } from '../../src/http/services.ts';

const aborted = new SharedArrayBuffer(4);
const entry = new URL('../helpers/thread-pool-worker.ts', import.meta.url);
const never = new AbortController().signal;

describe('ThreadPool', () => {
  const pool = new ThreadPool({ size: 2, entry, workerData: { aborted }, name: 'test-pool' });

  it('starts lazily, all threads at the first task; answers plain data and moved buffers', async () => {
    assert.equal(pool.threads, 0);
    assert.deepEqual(await pool.run({ op: 'echo', value: { a: [1, 2], b: 'x', c: null } }, never), { a: [1, 2], b: 'x', c: null });
    assert.equal(pool.threads, 2);
    const bytes = await pool.run<Uint8Array>({ op: 'bytes', n: 300 }, never);
    assert.equal(bytes.length, 300);
    assert.equal(bytes[299], 299 & 255);
  });

  it('a typed error crosses as the same kind, message and context; another error keeps its message', async () => {
    await assert.rejects(pool.run({ op: 'fail' }, never), (err) => {
      assert.ok(isRastileError(err, 'MaxSizeExceeded'));
      assert.equal(err.message, 'step needs 9 MiB, over its budget');
      assert.deepEqual(err.context, { parameter: 'max_size' });
      return true;
    });
    await assert.rejects(pool.run({ op: 'plain-fail' }, never), (err) => !isRastileError(err) && (err as Error).message === 'something broke');
  });

  it('an abort rejects at once and stops the task in its thread', async () => {
    const before = Atomics.load(new Int32Array(aborted), 0);
    const controller = new AbortController();
    const pending = pool.run({ op: 'hang' }, controller.signal);
    await sleep(50);
    controller.abort();
    await assert.rejects(pending);
    for (let i = 0; i < 200 && Atomics.load(new Int32Array(aborted), 0) === before; i++) await sleep(10);
    assert.equal(Atomics.load(new Int32Array(aborted), 0), before + 1, 'the thread saw the abort');
  });

  it('a thread that exits fails its task with Internal and is replaced', async () => {
    await assert.rejects(pool.run({ op: 'exit' }, never), (err) => isRastileError(err, 'Internal') && /worker thread stopped/.test(err.message));
    assert.deepEqual(await pool.run({ op: 'echo', value: 7 }, never), 7);
    assert.equal(pool.threads, 2);
  });

  it('affinity: tasks with the same keys go to the same thread', async () => {
    for (const key of ['G1', 'G2', 'G3']) {
      const ids = await Promise.all([1, 2, 3, 4].map(() => pool.run<number>({ op: 'tid' }, never, [key, 'other'])));
      assert.equal(new Set(ids).size, 1, `every ${key} task on one thread`);
    }
  });

  it('close() fails tasks in flight (503) and ends the threads', async () => {
    const pending = assert.rejects(pool.run({ op: 'hang' }, never), (err) => isRastileError(err, 'Overloaded'));
    await sleep(20);
    await pool.close();
    await pending;
    assert.equal(pool.threads, 0);
    await assert.rejects(pool.run({ op: 'echo', value: 1 }, never), (err) => isRastileError(err, 'Overloaded'));
  });
});

describe('ThreadPool warm-up', () => {
  it('start() spawns every thread and waits for its warm-up task; tasks run after it', async () => {
    const pool = new ThreadPool({ size: 2, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'warm', ms: 50 } });
    try {
      assert.equal(pool.warmed, 0);
      assert.equal(await pool.start(), 2);
      assert.equal(pool.threads, 2);
      assert.equal(pool.warmed, 2);
      const answers = await Promise.all([1, 2, 3, 4].map((i) => pool.run<boolean>({ op: 'warmed' }, never, [`G${i}`])));
      assert.deepEqual(answers, [true, true, true, true]);
    } finally {
      await pool.close();
    }
  });

  it('without start(), the first task still runs after its thread warmed up; a replaced thread warms up again', async () => {
    const pool = new ThreadPool({ size: 1, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'warm', ms: 50 } });
    try {
      assert.equal(await pool.run<boolean>({ op: 'warmed' }, never), true);
      await assert.rejects(pool.run({ op: 'exit' }, never), (err) => isRastileError(err, 'Internal'));
      assert.equal(await pool.run<boolean>({ op: 'warmed' }, never), true);
      assert.equal(pool.warmed, 1);
    } finally {
      await pool.close();
    }
  });

  it('a warm-up task that fails leaves the thread serving (cold)', async () => {
    const pool = new ThreadPool({ size: 1, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'fail' } });
    try {
      assert.equal(await pool.start(), 0);
      assert.equal(pool.warmed, 0);
      assert.deepEqual(await pool.run({ op: 'echo', value: 7 }, never), 7);
    } finally {
      await pool.close();
    }
  });
});

describe('ThreadPool idle stop (idleMs)', () => {
  it('ends every thread after idleMs without a task, not while one runs; the next task starts them again, warm-up first', async () => {
    const pool = new ThreadPool({ size: 2, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'warm', ms: 20 }, idleMs: 150 });
    try {
      assert.equal(await pool.start(), 2);
      // a task running longer than idleMs holds the threads
      const controller = new AbortController();
      const hanging = pool.run({ op: 'hang' }, controller.signal);
      await sleep(400);
      assert.equal(pool.threads, 2);
      assert.equal(pool.idleStops, 0);
      controller.abort();
      await assert.rejects(hanging);
      for (let i = 0; i < 100 && pool.threads > 0; i++) await sleep(20);
      assert.equal(pool.threads, 0, 'every thread ended once idle');
      assert.equal(pool.idleStops, 1);
      assert.equal(pool.warmed, 0);
      // the next task respawns both threads and runs after its thread's warm-up
      assert.equal(await pool.run<boolean>({ op: 'warmed' }, never), true);
      assert.equal(pool.threads, 2);
      assert.equal(await pool.start(), 2, 'both warmed again');
    } finally {
      await pool.close();
    }
  });
});

describe('a series on a cold pool (seriesPool, RASTILE_TIMESERIES_THREADS_COLD)', () => {
  const services = (whenCold: 'inline' | 'wait', idleMs = 60_000) =>
    ({ config: { timeseries: { threadsWhenCold: whenCold, threadsIdleMs: idleMs } } }) as unknown as Services;

  it('inline: runs on the calling thread while the threads are not warm; a second cold series within the idle time starts them when its response closes', async () => {
    const pool = new ThreadPool({ size: 2, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'warm', ms: 50 } });
    try {
      assert.equal(pool.ready, false);
      const first = new EventEmitter();
      assert.equal(seriesPool(pool, services('inline'), first), undefined);
      first.emit('close');
      assert.equal(pool.threads, 0, 'a lone series starts nothing');
      const response = new EventEmitter();
      assert.equal(seriesPool(pool, services('inline'), response), undefined);
      assert.equal(pool.threads, 0, 'nothing started during the series');
      response.emit('close');
      assert.equal(pool.threads, 2);
      assert.equal(pool.ready, false, 'warming');
      assert.equal(seriesPool(pool, services('inline'), new EventEmitter()), undefined);
      assert.equal(await pool.start(), 2);
      assert.equal(pool.ready, true);
      assert.equal(seriesPool(pool, services('inline'), new EventEmitter()), pool);
      assert.equal(seriesPool(undefined, services('inline'), new EventEmitter()), undefined);
    } finally {
      await pool.close();
    }
  });

  it('inline with no idle stop (0): the first cold series starts the threads', async () => {
    const pool = new ThreadPool({ size: 1, entry, workerData: { aborted }, name: 'test-pool' });
    try {
      const response = new EventEmitter();
      assert.equal(seriesPool(pool, services('inline', 0), response), undefined);
      response.emit('close');
      assert.equal(pool.threads, 1);
      assert.equal(seriesPool(pool, services('inline', 0), new EventEmitter()), pool);
    } finally {
      await pool.close();
    }
  });

  it('wait: the pool at once (its tasks wait for the warm-up)', async () => {
    const pool = new ThreadPool({ size: 1, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'warm', ms: 50 } });
    try {
      assert.equal(seriesPool(pool, services('wait'), new EventEmitter()), pool);
      assert.equal(await pool.run<boolean>({ op: 'warmed' }, never), true);
    } finally {
      await pool.close();
    }
  });

  it('touch() restarts the idle countdown (a series about to use the threads)', async () => {
    const pool = new ThreadPool({ size: 1, entry, workerData: { aborted }, name: 'test-pool', idleMs: 2000 });
    try {
      assert.equal(await pool.start(), 0);
      assert.equal(seriesPool(pool, services('inline'), new EventEmitter()), pool);
      // 3 s of touches, every 0.2 s, against a 2 s idle stop: the threads stay
      for (let i = 0; i < 15; i++) {
        await sleep(200);
        pool.touch();
      }
      assert.equal(pool.idleStops, 0);
      assert.equal(pool.threads, 1);
    } finally {
      await pool.close();
    }
  });

  it('prestart() arms the idle stop once the warm-ups end, with no task ever run', async () => {
    const pool = new ThreadPool({ size: 1, entry, workerData: { aborted }, name: 'test-pool', warmup: { op: 'warm', ms: 20 }, idleMs: 100 });
    try {
      pool.prestart();
      assert.equal(pool.threads, 1);
      for (let i = 0; i < 100 && pool.idleStops === 0; i++) await sleep(20);
      assert.equal(pool.idleStops, 1);
      assert.equal(pool.threads, 0);
    } finally {
      await pool.close();
    }
  });
});
