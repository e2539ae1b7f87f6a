/** The backend-agnostic step executor (src/granule/timeseries/step-executor.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Errors } from '../../src/errors.ts';
import { runSteps } from '../../src/granule/timeseries/step-executor.ts';

const steps = Array.from({ length: 12 }, (_, i) => `s${i}`);

describe('runSteps', () => {
  it('results in step order, at most `concurrency` at once, NoData steps → null', async () => {
    let running = 0;
    let peak = 0;
    const out = await runSteps(
      steps,
      async (step, i) => {
        running++;
        peak = Math.max(peak, running);
        await sleep((12 - i) * 2); // later steps finish first
        running--;
        if (i % 4 === 3) throw Errors.noData('empty');
        return step.toUpperCase();
      },
      { concurrency: 3, signal: new AbortController().signal },
    );
    assert.deepEqual(out, ['S0', 'S1', 'S2', null, 'S4', 'S5', 'S6', null, 'S8', 'S9', 'S10', null]);
    assert.equal(peak, 3);
  });

  it('the first failure fails the series with its own error; running steps are aborted, no new one starts', async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    await assert.rejects(
      runSteps(
        steps,
        async (_step, i, signal) => {
          started.push(i);
          if (i === 1) throw Errors.badRequest('step 1 is wrong');
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, 200);
            signal.addEventListener('abort', () => {
              clearTimeout(t);
              aborted.push(i);
              resolve();
            });
          });
          return i;
        },
        { concurrency: 2, signal: new AbortController().signal },
      ),
      (err: unknown) => err instanceof Error && err.message === 'step 1 is wrong',
    );
    assert.deepEqual(started, [0, 1]);
    assert.deepEqual(aborted, [0]);
  });

  it("the caller's signal stops the series", async () => {
    const controller = new AbortController();
    let count = 0;
    const run = runSteps(
      steps,
      async () => {
        count++;
        await sleep(20);
        if (count === 2) controller.abort(new DOMException('The client went away', 'AbortError'));
        return 1;
      },
      { concurrency: 1, signal: controller.signal },
    );
    await assert.rejects(run, (err: unknown) => err instanceof DOMException && err.name === 'AbortError');
    assert.equal(count, 2);
  });
});
