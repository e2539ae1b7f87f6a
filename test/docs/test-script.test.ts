/**
 * `npm test` (scripts/test.js) ends with one line counting the tests skipped because the shared
 * fixtures are not present: run on test/fixtures/skip-summary (three tests and one suite skipped
 * for the shared fixtures, one for another reason, one run).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { skipSummaryLine } from '../../scripts/skip-summary.js';
import { REPO } from '../helpers/test-server.ts';

describe('npm test: the shared-fixture skip summary', () => {
  it('one line at the end counts the tests and suites skipped for ../shared, not the others', () => {
    // (NODE_TEST_CONTEXT left out: with it, the inner node --test would report to this runner)
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const out = execFileSync(process.execPath, [path.join(REPO, 'scripts', 'test.js')], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...env, RASTILE_TEST_DIR: path.join('test', 'fixtures', 'skip-summary') },
    });
    const lines = out.trimEnd().split('\n');
    assert.equal(
      lines.at(-1),
      "3 tests and 1 suite skipped: ../shared/fixtures not present (the upstream fixtures and CMR recordings; see the README's test section)",
    );
    assert.equal(lines.filter((l) => l.includes('skipped: ../shared/fixtures not present')).length, 1);
  });

  it('no line when nothing was skipped for them; singular and plural', () => {
    assert.equal(skipSummaryLine({ tests: 0, suites: 0 }), null);
    assert.match(skipSummaryLine({ tests: 1, suites: 0 })!, /^1 test skipped: /);
    assert.match(skipSummaryLine({ tests: 0, suites: 2 })!, /^2 suites skipped: /);
  });
});
