import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const root = path.join(import.meta.dirname, '..', '..');
const script =
  "const { collectYoung } = await import('./src/util/release-memory.ts');" +
  'const before = process.memoryUsage().arrayBuffers; let b = Buffer.allocUnsafeSlow(4 << 20); b[0] = 1; b = null;' +
  'collectYoung(); await new Promise((r) => setTimeout(r, 50));' +
  'console.log(JSON.stringify({ gc: typeof globalThis.gc, freed: process.memoryUsage().arrayBuffers - before < (1 << 20) }));';

const run = (flags: string[]): { gc: string; freed: boolean } =>
  JSON.parse(execFileSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })) as {
    gc: string;
    freed: boolean;
  };

test('collectYoung: a young collection with --expose-gc frees a dead Buffer at once', () => {
  assert.deepEqual(run(['--expose-gc']), { gc: 'function', freed: true });
});

test('collectYoung: without --expose-gc it does nothing and does not throw', () => {
  assert.equal(run([]).gc, 'undefined');
});
