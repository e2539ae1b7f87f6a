/**
 * A worker entry for test/granule/thread-pool.test.ts: tasks say what to do — echo a value, move a
 * buffer back, throw a typed error, exit the thread, wait until aborted (then record that in a
 * SharedArrayBuffer the test reads), or warm up (slowly) and tell whether it did.
 */
import { threadId, workerData } from 'node:worker_threads';
import { Errors } from '../../src/errors.ts';
import { serveTasks } from '../../src/granule/timeseries/thread-pool.ts';

const aborted = new Int32Array((workerData as { aborted: SharedArrayBuffer }).aborted);

type Task =
  | { op: 'echo'; value: unknown }
  | { op: 'bytes'; n: number }
  | { op: 'fail' }
  | { op: 'plain-fail' }
  | { op: 'exit' }
  | { op: 'hang' }
  | { op: 'tid' }
  | { op: 'warm'; ms: number }
  | { op: 'warmed' };

/** Set by the pool's warm-up task ('warm', which takes `ms`); 'warmed' answers it. */
let warm = false;

serveTasks(async (raw, signal) => {
  const task = raw as Task;
  switch (task.op) {
    case 'echo':
      return { value: task.value };
    case 'tid':
      return { value: threadId };
    case 'warm':
      await new Promise((resolve) => setTimeout(resolve, task.ms));
      warm = true;
      return { value: null };
    case 'warmed':
      return { value: warm };
    case 'bytes': {
      const b = new Uint8Array(task.n).map((_, i) => i & 255);
      return { value: b, transfer: [b.buffer] };
    }
    case 'fail':
      throw Errors.maxSize('step needs 9 MiB, over its budget', { context: { parameter: 'max_size' } });
    case 'plain-fail':
      throw new TypeError('something broke');
    case 'exit':
      process.exit(3);
      break;
    case 'hang':
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          Atomics.add(aborted, 0, 1);
          resolve();
        }),
      );
      return { value: 'stopped' };
  }
  return { value: null };
});
