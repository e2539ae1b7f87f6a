#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. (Node 20's --test does not expand
// glob patterns itself.) Extra arguments filter the files by substring: `npm test -- http/`.
// At the end, one line counts the tests skipped because ../shared/fixtures is not present
// (scripts/test-skips.js, a second reporter beside node's default one).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readSkips, sharedSkipSummary } from './test-skips.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const filters = process.argv.slice(2);
// RASTILE_TEST_DIR: another folder of tests (test/scripts/test-runner.test.ts runs a tiny one).
const testDir = path.resolve(root, process.env.RASTILE_TEST_DIR ?? 'test');
const files = readdirSync(testDir, { recursive: true })
  .map((f) => path.relative(root, path.join(testDir, String(f))))
  .filter((f) => f.endsWith('.test.ts') && (filters.length === 0 || filters.some((x) => f.includes(x))))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Naming a reporter replaces node's default, so name the default too: spec on a terminal and
// from Node 23 on, TAP otherwise (Node 20/22 piped).
const major = Number(process.versions.node.split('.')[0]);
const defaultReporter = major >= 23 || process.stdout.isTTY ? 'spec' : 'tap';
const tmp = mkdtempSync(path.join(tmpdir(), 'rastile-test-'));
const skipsFile = path.join(tmp, 'skips.jsonl');
const reporters = ['--test-reporter', defaultReporter, '--test-reporter-destination', 'stdout'];
reporters.push('--test-reporter', pathToFileURL(path.join(root, 'scripts', 'test-skips.js')).href, '--test-reporter-destination', skipsFile);
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...reporters, ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => {
  const summary = sharedSkipSummary(readSkips(skipsFile));
  rmSync(tmp, { recursive: true, force: true });
  if (summary) console.log(`\n${summary}`);
  process.exit(code ?? (signal ? 1 : 0));
});
