#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. (Node 20's --test does not expand
// glob patterns itself.) Extra arguments filter the files by substring: `npm test -- http/`.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const filters = process.argv.slice(2);
const files = readdirSync(path.join(root, 'test'), { recursive: true })
  .map((f) => path.join('test', String(f)))
  .filter((f) => f.endsWith('.test.ts') && (filters.length === 0 || filters.some((x) => f.includes(x))))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
