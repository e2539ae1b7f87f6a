import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartPolicy } from '../../src/cli/restart-policy.ts';

describe('RestartPolicy (cluster workers and worker threads)', () => {
  it('gives up after three deaths before any unit listened', () => {
    const p = new RestartPolicy(100, 10_000);
    assert.equal(
      p.schedule(5, () => {}),
      100,
    );
    assert.equal(
      p.schedule(5, () => {}),
      200,
    );
    assert.equal(
      p.schedule(5, () => {}),
      undefined,
    );
    assert.equal(p.startupFailures, 3);
    assert.equal(p.restarts, 2);
    p.cancel();
    assert.equal(p.idle, true);
  });

  it('doubles the delay while deaths follow quick restarts, up to the maximum; a stable unit resets it', () => {
    const p = new RestartPolicy(100, 300);
    p.listened();
    const delays = [1, 1, 1, 1].map(() => p.schedule(50, () => {}));
    assert.deepEqual(delays, [100, 200, 300, 300]);
    assert.equal(
      p.schedule(10_000, () => {}),
      0,
    );
    assert.equal(
      p.schedule(50, () => {}),
      100,
    );
    assert.equal(p.restarts, 6);
    assert.equal(p.idle, false);
    p.cancel();
    assert.equal(p.idle, true);
  });

  it('runs the restart after its delay and is idle again', async () => {
    const p = new RestartPolicy(1, 1);
    p.listened();
    let restarted = 0;
    await new Promise<void>((resolve) => {
      p.schedule(0, () => {
        restarted++;
        resolve();
      });
    });
    assert.equal(restarted, 1);
    assert.equal(p.idle, true);
  });
});
