/**
 * `npm test` (scripts/test.js) ends with one line counting the tests skipped because the shared
 * fixtures (../shared) are not present: the reporter in scripts/test-skips.js on a tiny test folder
 * whose tests skip with the reasons the suite uses, and the summary on the recorded skips.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error plain JS module without types (scripts/ is outside the TypeScript project)
import { isSharedSkip, sharedSkipSummary } from '../../scripts/test-skips.js';
import { REPO } from '../helpers/test-server.ts';

type Skip = { name: string; kind: 'test' | 'suite'; reason: string };
const summary = sharedSkipSummary as (records: Skip[]) => string | undefined;
const isShared = isSharedSkip as (reason: unknown) => boolean;

const HINT =
  "../shared/fixtures not present (run with the shared fixtures beside the repository for the replays of TiTiler's and rio-tiler's test files and of recorded CMR exchanges)";

/** Runs scripts/test.js on a folder holding the given test files; stdout and exit status. */
function runOn(files: Record<string, string>): { stdout: string; status: number | null } {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastile-runner-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    // NODE_TEST_CONTEXT (set by the runner running this file) would make the inner runner report to us.
    const r = spawnSync(process.execPath, ['scripts/test.js'], {
      cwd: REPO,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, RASTILE_TEST_DIR: dir },
      encoding: 'utf8',
    });
    return { stdout: r.stdout, status: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the skipped-tests summary of npm test', () => {
  it('recognises the skip reasons of the tests that need ../shared, and only those', () => {
    for (const r of [
      'needs ../shared/fixtures',
      'needs ../shared/fixtures/titiler',
      'needs ../shared/fixtures/rio-tiler',
      'shared CMR recordings not present',
      'no ../shared/fixtures/cmr',
      'no ../shared/fixtures/cmr/recordings',
      'shared/reference not present',
      'no ../shared/fixtures',
    ])
      assert.ok(isShared(r), r);
    for (const r of ['chromium not installed', '/usr/bin/python3 not installed', 'needs rasterio', 'redis-server not installed', '', true, undefined])
      assert.ok(!isShared(r), String(r));
  });

  it('counts tests and whole suites in one line', () => {
    const t = (reason: string): Skip => ({ name: 'x', kind: 'test', reason });
    const s = (reason: string): Skip => ({ name: 'x', kind: 'suite', reason });
    assert.equal(summary([]), undefined);
    assert.equal(summary([t('chromium not installed')]), undefined);
    assert.equal(summary([t('needs ../shared/fixtures')]), `1 test skipped: ${HINT}`);
    assert.equal(summary([s('no ../shared/fixtures/cmr'), s('shared CMR recordings not present')]), `2 whole suites skipped: ${HINT}`);
    assert.equal(
      summary([t('needs ../shared/fixtures'), t('shared/reference not present'), s('no ../shared/fixtures/cmr'), t('needs rasterio')]),
      `2 tests and 1 whole suite skipped: ${HINT}`,
    );
  });

  it('scripts/test.js prints it last, after the runner, keeping its exit status', { timeout: 120_000 }, () => {
    const skipping = [
      "import { describe, it } from 'node:test';",
      "describe('replays', { skip: 'needs ../shared/fixtures' }, () => { it('a', () => {}); it('b', () => {}); });",
      "it('one replay', { skip: 'shared CMR recordings not present' }, () => {});",
      "it('another', { skip: 'no ../shared/fixtures/cmr' }, () => {});",
      "it('browser', { skip: 'chromium not installed' }, () => {});",
      "it('runs', () => {});",
    ].join('\n');
    const a = runOn({ 'a.test.ts': skipping });
    assert.equal(a.status, 0, a.stdout);
    const lines = a.stdout.trimEnd().split('\n');
    assert.equal(lines.at(-1), `2 tests and 1 whole suite skipped: ${HINT}`);
    assert.equal(lines.filter((l) => l.includes('../shared/fixtures not present')).length, 1);

    const b = runOn({
      'b.test.ts':
        "import { it } from 'node:test';\nit('browser', { skip: 'chromium not installed' }, () => {});\nit('fails', () => { throw new Error('no'); });\n",
    });
    assert.equal(b.status, 1);
    assert.ok(!b.stdout.includes('not present'), b.stdout);
  });
});
