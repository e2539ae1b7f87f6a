#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. (Node 20's --test does not expand
// glob patterns itself.) Extra arguments filter the files by substring: `npm test -- http/`.
// Ends with one line counting the tests skipped because ../shared/fixtures is not present.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { skipSummaryLine } from './skip-summary.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const filters = process.argv.slice(2);
// RASTILE_TEST_DIR: another folder of tests (test/docs/test-script.test.ts runs this script on
// test/fixtures/skip-summary); files under test/fixtures are never part of the suite.
const testDir = process.env.RASTILE_TEST_DIR ?? 'test';
const files = readdirSync(path.join(root, testDir), { recursive: true })
  .map((f) => path.join(testDir, String(f)))
  .filter((f) => f.endsWith('.test.ts') && (testDir !== 'test' || !f.startsWith(path.join('test', 'fixtures') + path.sep)))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Two reporters: node's usual one on stdout (spec on a terminal, and always from Node 23; TAP
// otherwise on Node 20/22), and the skip counter (scripts/skip-summary.js) into a temporary file
// for the one summary line printed at the end.
const major = Number(process.versions.node.split('.')[0]);
const usual = process.stdout.isTTY || major >= 23 ? 'spec' : 'tap';
const tmp = mkdtempSync(path.join(os.tmpdir(), 'rastile-test-'));
const countsFile = path.join(tmp, 'shared-skips.json');
const reporters = [
  `--test-reporter=${usual}`,
  '--test-reporter-destination=stdout',
  `--test-reporter=${pathToFileURL(path.join(root, 'scripts', 'skip-summary.js')).href}`,
  `--test-reporter-destination=${countsFile}`,
];
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...reporters, ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => {
  try {
    const line = skipSummaryLine(JSON.parse(readFileSync(countsFile, 'utf8')));
    if (line) console.log(`\n${line}`);
  } catch {
    // no counts (the run was interrupted): nothing to say
  }
  rmSync(tmp, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
