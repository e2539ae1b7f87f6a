import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chargeRequest, currentBudget, ProcessBudget, releaseRequest, RequestBudget, runWithBudget } from '../../src/util/request-budget.ts';

const MiB = 1024 * 1024;
const turn = () => new Promise((r) => setImmediate(r));

describe('RequestBudget', () => {
  it('charges before allocation, credits releases, tracks the peak and names what went over', () => {
    const b = new RequestBudget(10 * MiB);
    b.charge(4 * MiB, 'band arrays');
    b.charge(4 * MiB, 'masks');
    b.release(6 * MiB);
    b.charge(7 * MiB, 'warp window');
    assert.equal(b.live, 9 * MiB);
    assert.equal(b.peak, 9 * MiB);
    assert.throws(() => b.charge(2 * MiB, 'A 4096×4096 read of 16 band(s)'), {
      kind: 'MaxSizeExceeded',
      message:
        /^A 4096×4096 read of 16 band\(s\) needs 2\.0 MiB, which would bring this request to 11 MiB, over its memory budget of 10 MiB \(RASTILE_MAX_REQUEST_MB\)$/,
    });
    assert.equal(b.live, 9 * MiB, 'a refused charge is not recorded');
    assert.throws(() => b.charge(NaN, 'nonsense'), { kind: 'MaxSizeExceeded' });
    assert.throws(() => b.charge(Infinity, 'nonsense'), { kind: 'MaxSizeExceeded', message: /unbounded/ });
  });

  it('reaches deep call sites through AsyncLocalStorage, across awaits, and nowhere else', async () => {
    const b = new RequestBudget(MiB);
    chargeRequest(10 * MiB, 'outside any request'); // no-op
    await runWithBudget(b, async () => {
      await turn();
      chargeRequest(1000, 'x');
      await Promise.all(
        [1, 2].map(async () => {
          await turn();
          chargeRequest(1000, 'y');
        }),
      );
      releaseRequest(500);
      assert.equal(currentBudget(), b);
      assert.throws(() => chargeRequest(MiB, 'too much'), { kind: 'MaxSizeExceeded' });
    });
    assert.equal(b.live, 2500);
    assert.equal(currentBudget(), undefined);
  });
});

describe('ProcessBudget', () => {
  it('lets small holdings through, grows reservations beyond them, refuses when the process is full', () => {
    const p = new ProcessBudget(10 * MiB, 4, MiB);
    const a = new RequestBudget(100 * MiB, p);
    a.charge(MiB, 'free');
    assert.equal(p.reserved, 0);
    a.charge(6 * MiB, 'grows');
    assert.equal(a.reservation, 6 * MiB);
    const b = new RequestBudget(100 * MiB, p);
    b.charge(4 * MiB, 'grows too');
    assert.equal(p.reserved, 9 * MiB);
    assert.throws(() => b.charge(2 * MiB, 'more'), { kind: 'Overloaded', message: /RASTILE_MAX_INFLIGHT_MB=10/ });
    a.close();
    a.close();
    assert.equal(p.reserved, 3 * MiB, 'closing twice returns the reservation once');
    b.charge(2 * MiB, 'more');
    assert.equal(p.reserved, 5 * MiB);
  });

  it('queues heavy admissions first come first served, bounded, abortable; one oversized request runs alone', async () => {
    const p = new ProcessBudget(10 * MiB, 2, 0);
    const order: string[] = [];
    const first = new RequestBudget(100 * MiB, p);
    await first.reserve(8 * MiB);
    const second = new RequestBudget(100 * MiB, p);
    const third = new RequestBudget(100 * MiB, p);
    const s = second.reserve(5 * MiB).then(() => order.push('second'));
    const ac = new AbortController();
    const t = third.reserve(MiB, ac.signal).then(
      () => order.push('third'),
      (e: unknown) => order.push(`third aborted: ${(e as Error).message}`),
    );
    await assert.rejects(new RequestBudget(MiB, p).reserve(MiB), { kind: 'Overloaded', message: /RASTILE_MAX_QUEUE=2/ });
    assert.equal(p.queued, 2);
    ac.abort(new Error('client left'));
    await t;
    first.close();
    await s;
    assert.deepEqual(order, ['third aborted: client left', 'second']);
    second.close();
    assert.equal(p.reserved, 0);
    const huge = new RequestBudget(100 * MiB, p);
    await huge.reserve(50 * MiB); // larger than the capacity: admitted when nothing else holds any
    assert.equal(p.reserved, 50 * MiB);
    huge.close();
  });
});
