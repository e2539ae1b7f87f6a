/**
 * `rastile serve` runs AsyncLocalStorage on async context frames (src/cli/async-context-frame.ts):
 * on Node 22 the process replaces itself once with `--experimental-async-context-frame` (same pid:
 * its /proc cmdline carries the flag), on Node 24 it is the default (no flag, none accepted). The
 * served isolate's start-up log says which AsyncLocalStorage it runs on, from a probe that tells the
 * two implementations apart (the promise-hook one stores on the async resource), and
 * RASTILE_ASYNC_CONTEXT_FRAME=0 keeps the process as started (Node 22: promise hooks).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ASYNC_CONTEXT_FRAME_FLAG, asyncContextFrameArgv } from '../../src/cli/async-context-frame.ts';
import { REPO } from '../helpers/test-server.ts';

const node22 = process.allowedNodeEnvironmentFlags.has(ASYNC_CONTEXT_FRAME_FLAG);

/** Starts `rastile serve` (one process, no warm-up), waits for its AsyncLocalStorage log line; returns it and the cmdline. */
async function serveOnce(env: NodeJS.ProcessEnv): Promise<{ active: boolean; cmdline: string[] }> {
  const child = spawn(process.execPath, [`${REPO}/bin/rastile.js`, 'serve', '--port', '0', '--workers', '1'], {
    cwd: REPO,
    env: { ...process.env, RASTILE_FROM_SOURCE: '1', LOG_LEVEL: 'info', RASTILE_WARMUP: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  try {
    const active = await new Promise<boolean>((resolve, reject) => {
      const seen = (d: Buffer): void => {
        out += d.toString();
        const m = /"asyncContextFrame":(true|false)/.exec(out);
        if (m) resolve(m[1] === 'true');
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
    });
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { active, cmdline };
  } finally {
    child.kill('SIGTERM');
  }
}

describe('AsyncLocalStorage on async context frames', () => {
  it('re-executes with the flag only where it is accepted, not given and possible', () => {
    const base = { env: {}, execArgv: ['--expose-gc'], argv: ['/n', '/bin/rastile.js', 'serve'], accepts: true, canExec: true };
    assert.deepEqual(asyncContextFrameArgv(base), ['/n', '--expose-gc', ASYNC_CONTEXT_FRAME_FLAG, '/bin/rastile.js', 'serve']);
    assert.equal(asyncContextFrameArgv({ ...base, accepts: false }), undefined, 'Node 24: the default, flag rejected');
    assert.equal(asyncContextFrameArgv({ ...base, canExec: false }), undefined);
    assert.equal(asyncContextFrameArgv({ ...base, execArgv: [ASYNC_CONTEXT_FRAME_FLAG] }), undefined, 'already given: no loop');
    assert.equal(asyncContextFrameArgv({ ...base, execArgv: ['--no-experimental-async-context-frame'] }), undefined, 'refused by the user');
    assert.equal(asyncContextFrameArgv({ ...base, env: { NODE_OPTIONS: `--x ${ASYNC_CONTEXT_FRAME_FLAG}` } }), undefined);
    assert.equal(asyncContextFrameArgv({ ...base, env: { RASTILE_ASYNC_CONTEXT_FRAME: '0' } }), undefined);
  });

  it('rastile serve runs on async context frames, in the same process', { timeout: 120_000 }, async () => {
    const { active, cmdline } = await serveOnce({});
    assert.equal(active, true);
    assert.equal(cmdline.includes(ASYNC_CONTEXT_FRAME_FLAG), node22, cmdline.join(' '));
  });

  it('RASTILE_ASYNC_CONTEXT_FRAME=0 keeps the process as started', { timeout: 120_000 }, async () => {
    const { active, cmdline } = await serveOnce({ RASTILE_ASYNC_CONTEXT_FRAME: '0' });
    assert.equal(active, !node22, 'Node 22 without the flag: promise hooks; Node 24: frames anyway');
    assert.ok(!cmdline.includes(ASYNC_CONTEXT_FRAME_FLAG), cmdline.join(' '));
  });
});
