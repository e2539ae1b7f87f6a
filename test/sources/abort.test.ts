import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raceAbort, SharedWork, SharedWorkMap } from '../../src/sources/abort.ts';

/** A promise settled by hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('raceAbort', () => {
  it('settles like the promise, or rejects on abort after running onAbort', async () => {
    assert.equal(await raceAbort(Promise.resolve(1), undefined, 'x'), 1);
    assert.equal(await raceAbort(Promise.resolve(2), new AbortController().signal, 'x'), 2);
    const events: string[] = [];
    const c = new AbortController();
    const raced = raceAbort(deferred<number>().promise, c.signal, 'x', () => events.push('hook'));
    raced.catch(() => events.push('rejected'));
    c.abort();
    await assert.rejects(raced, { name: 'AbortError' });
    assert.deepEqual(events, ['hook', 'rejected']);
  });

  it('does not run onAbort when the signal was aborted before or fires after settling', async () => {
    let hooks = 0;
    const before = new AbortController();
    before.abort();
    await assert.rejects(
      raceAbort(Promise.resolve(1), before.signal, 'x', () => hooks++),
      { name: 'AbortError' },
    );
    const after = new AbortController();
    assert.equal(await raceAbort(Promise.resolve(1), after.signal, 'x', () => hooks++), 1);
    after.abort();
    assert.equal(hooks, 0);
  });

  it('turns an AbortSignal.timeout into UpstreamTimeout', async () => {
    await assert.rejects(raceAbort(deferred<number>().promise, AbortSignal.timeout(1), 'a range'), {
      kind: 'UpstreamTimeout',
      message: 'Reading a range timed out',
    });
  });
});

describe('SharedWork', () => {
  it('aborts the work only when every waiter has aborted, after they got their rejection', async () => {
    let inner: AbortSignal | undefined;
    const work = new SharedWork<number>((s) => {
      inner = s;
      return deferred<number>().promise;
    });
    const a = new AbortController();
    const b = new AbortController();
    const pa = work.join(a.signal, 'x');
    const pb = work.join(b.signal, 'x');
    a.abort();
    await assert.rejects(pa, { name: 'AbortError' });
    assert.equal(inner!.aborted, false);
    assert.equal(work.alive, true);
    b.abort();
    assert.equal(inner!.aborted, true); // leave() ran synchronously in the abort event
    await assert.rejects(pb, { name: 'AbortError' });
    assert.equal(work.alive, false);
  });

  it('is kept alive by a waiter without a signal', async () => {
    const d = deferred<number>();
    const work = new SharedWork<number>(() => d.promise);
    const a = new AbortController();
    const pa = work.join(a.signal, 'x');
    const pinned = work.join(undefined, 'x');
    a.abort();
    await assert.rejects(pa, { name: 'AbortError' });
    assert.equal(work.alive, true);
    d.resolve(7);
    assert.equal(await pinned, 7);
  });
});

describe('SharedWorkMap', () => {
  it('shares live work per key and forgets it once settled (failures are not remembered)', async () => {
    const map = new SharedWorkMap<string, number>();
    let starts = 0;
    const d = deferred<number>();
    const first = map.join('k', () => (starts++, d.promise), undefined, 'x');
    const second = map.join('k', () => (starts++, Promise.resolve(0)), undefined, 'x');
    const other = map.join('other', () => (starts++, Promise.resolve(5)), undefined, 'x');
    assert.deepEqual([first.shared, second.shared, other.shared], [false, true, false]);
    assert.equal(map.size, 2);
    d.reject(new Error('boom'));
    await assert.rejects(first.result, /boom/);
    await assert.rejects(second.result, /boom/);
    assert.equal(await other.result, 5);
    await new Promise((r) => setImmediate(r));
    assert.equal(map.size, 0);
    const again = map.join('k', () => (starts++, Promise.resolve(9)), undefined, 'x');
    assert.equal(again.shared, false);
    assert.equal(await again.result, 9);
    assert.equal(starts, 3); // the joined second start never ran
  });

  it('starts new work when every waiter of the running one aborted', async () => {
    const map = new SharedWorkMap<string, number>();
    const c = new AbortController();
    let firstSignal: AbortSignal | undefined;
    const first = map.join('k', (s) => ((firstSignal = s), deferred<number>().promise), c.signal, 'x');
    c.abort();
    await assert.rejects(first.result, { name: 'AbortError' });
    assert.equal(firstSignal!.aborted, true);
    const next = map.join('k', () => Promise.resolve(3), undefined, 'x');
    assert.equal(next.shared, false);
    assert.equal(await next.result, 3);
  });
});
