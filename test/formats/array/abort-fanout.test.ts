/** raceAbortShared: many waiters on one signal share one 'abort' listener (no MaxListenersExceededWarning), all stop on abort. */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { raceAbortShared } from '../../../src/formats/array/abort-fanout.ts';

test('50 concurrent waiters: one listener, each settles like its promise, the rest reject on abort', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  try {
    const ctl = new AbortController();
    const done = raceAbortShared(Promise.resolve(7), ctl.signal, 'done');
    const pending = Array.from({ length: 50 }, (_, i) => raceAbortShared(new Promise<number>(() => {}), ctl.signal, `read ${i}`));
    assert.equal(getEventListeners(ctl.signal, 'abort').length, 1);
    assert.equal(await done, 7);
    ctl.abort(new Error('client went away'));
    const results = await Promise.allSettled(pending);
    assert.ok(results.every((r) => r.status === 'rejected' && (r.reason as Error).message === 'client went away'));
    await assert.rejects(raceAbortShared(Promise.resolve(1), ctl.signal, 'late'), /client went away/);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings, []);
  } finally {
    process.off('warning', onWarning);
  }
});
