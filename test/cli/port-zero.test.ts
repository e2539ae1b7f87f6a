/**
 * `rastile serve --port 0` (one process) binds a free port and its start-up banner names that
 * port, so the links it prints work (they said `:0` before).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { it } from 'node:test';
import { REPO } from '../helpers/test-server.ts';

it('the banner of serve --port 0 names the bound port and its demo link answers', { timeout: 180_000 }, async () => {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'rastile.js'), 'serve', '--port', '0', '--workers', '1'], {
    cwd: REPO,
    env: { ...process.env, RASTILE_FROM_SOURCE: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let stderr = '';
    const info = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
        const m = /^\s*info:\s+(\S+)$/m.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    assert.doesNotMatch(stderr, /127\.0\.0\.1:0\b/);
    const r = await fetch(info);
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as { width: number }).width, 1024);
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
});
