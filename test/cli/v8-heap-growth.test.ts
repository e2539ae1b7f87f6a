/**
 * RASTILE_V8_HEAP_GROWING_PERCENT (src/cli/v8-heap-growth.ts): parsed with the default of 100,
 * applied to V8 at run time (a child process churning promoted garbage runs fewer full collections
 * at 300 % than at 10 %: the flag reaches the heap), and `rastile serve` applies the default (its
 * start-up log names the flag).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent, heapGrowthFlag } from '../../src/cli/v8-heap-growth.ts';
import { REPO } from '../helpers/test-server.ts';

function churn(percent: string): { flag: string | null; majors: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--max-semi-space-size=4', `${REPO}/test/helpers/heap-growth-churn.ts`], {
    cwd: REPO,
    env: { ...process.env, RASTILE_V8_HEAP_GROWING_PERCENT: percent },
  });
  return JSON.parse(out.toString()) as { flag: string | null; majors: number };
}

describe('V8 old-generation growth for serving isolates', () => {
  it('parses RASTILE_V8_HEAP_GROWING_PERCENT', () => {
    assert.equal(DEFAULT_HEAP_GROWING_PERCENT, 100);
    assert.equal(heapGrowingPercent({}), 100);
    assert.equal(heapGrowingPercent({ RASTILE_V8_HEAP_GROWING_PERCENT: ' ' }), 100);
    assert.equal(heapGrowingPercent({ RASTILE_V8_HEAP_GROWING_PERCENT: '50' }), 50);
    assert.equal(heapGrowingPercent({ RASTILE_V8_HEAP_GROWING_PERCENT: '0' }), undefined);
    assert.equal(heapGrowthFlag({ RASTILE_V8_HEAP_GROWING_PERCENT: '0' }), undefined);
    assert.equal(heapGrowthFlag({}), '--heap-growing-percent=100');
    assert.throws(() => heapGrowingPercent({ RASTILE_V8_HEAP_GROWING_PERCENT: 'big' }), /integer 0–1000/);
    assert.throws(() => heapGrowingPercent({ RASTILE_V8_HEAP_GROWING_PERCENT: '-5' }), /integer 0–1000/);
  });

  it('reaches V8 at run time: fewer full collections of promoted garbage at 300 % than at 10 %', { timeout: 120_000 }, () => {
    const tight = churn('10');
    const loose = churn('300');
    assert.equal(tight.flag, '--heap-growing-percent=10');
    assert.equal(loose.flag, '--heap-growing-percent=300');
    assert.ok(tight.majors >= 2 * Math.max(1, loose.majors), `full GCs: ${tight.majors} at 10 %, ${loose.majors} at 300 %`);
  });

  it('rastile serve applies the default', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, [`${REPO}/bin/rastile.js`, 'serve', '--port', '0', '--workers', '1'], {
      cwd: REPO,
      env: { ...process.env, RASTILE_FROM_SOURCE: '1', LOG_LEVEL: 'info', RASTILE_V8_HEAP_GROWING_PERCENT: '', RASTILE_WARMUP: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const seen = (d: Buffer): void => {
          out += d.toString();
          // pino writes asynchronously: the line may follow the banner.
          if (/rastile is ready on/.test(out) && /"v8Flags"/.test(out)) resolve();
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      assert.match(out, /"v8Flags":"--heap-growing-percent=100"/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
