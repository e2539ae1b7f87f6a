/**
 * `rastile serve` promotes what start-up left in V8's young generation once it listens
 * (src/cli/serve.ts `promoteStartupSurvivors`): two young collections when `--expose-gc` gave a
 * `gc`, nothing without one.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { promoteStartupSurvivors } from '../../src/cli/serve.ts';

it('promoteStartupSurvivors runs with or without an exposed gc', () => {
  promoteStartupSurvivors(); // test runs have no --expose-gc: nothing happens
  const g = globalThis as { gc?: (options: { type: 'minor' }) => void };
  const had = g.gc;
  const calls: string[] = [];
  g.gc = (options) => calls.push(options.type);
  try {
    promoteStartupSurvivors();
  } finally {
    if (had === undefined) delete g.gc;
    else g.gc = had;
  }
  assert.deepEqual(calls, ['minor', 'minor']);
});
